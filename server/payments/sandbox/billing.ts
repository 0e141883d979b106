/**
 * Subscription flows the cardholder or our api starts: create (with the first payment, which a
 * 3-D Secure card pauses at `requires_action`), the result of the 3-D Secure page, cancel at
 * period end, resume, cancel now. Renewals, retries and expiry, which the clock starts, are in
 * renewals.ts. Each flow is one transaction under the billing lock, and records its webhook
 * events in it.
 */
import { failure } from '../failures';
import { attemptPayment, cardErrorWire, invoiceEvent, openInvoice, subscriptionEvent, type BillingContext, type PaymentOutcome } from './charges';
import { withBillingLock } from './db';
import { invalidRequest, notFound } from './errors';
import { newId } from './ids';
import { nextPeriodEnd } from './periods';
import { load, type PaymentIntentRow, type SubscriptionRow } from './store';
import type { WirePlan } from './wire';

export interface NewSubscription {
  customerId: string;
  paymentMethodId: string;
  plan: WirePlan;
  metadata: Record<string, string>;
  /** The web origin the 3-D Secure page may post its result to (already checked against the allow-list). */
  origin: string | null;
  returnUrl: string | null;
}

export async function createSubscription(ctx: BillingContext, input: NewSubscription): Promise<{ subscription: SubscriptionRow; outcome: PaymentOutcome }> {
  const result = await withBillingLock(ctx.pool, ctx.schema, async (tx) => {
    const customer = await load.customer(tx, input.customerId);
    if (!customer) throw notFound('customer', input.customerId);
    const card = await load.paymentMethod(tx, input.paymentMethodId);
    if (!card) throw notFound('payment_method', input.paymentMethodId);
    if (card.customer_id !== customer.id) throw invalidRequest('The payment method does not belong to this customer.', 'default_payment_method');

    const now = ctx.clock.now();
    const { plan } = input;
    const periodEnd = nextPeriodEnd(now, plan.interval, plan.interval_count, now);
    const id = newId('sub');
    await tx.query(
      `INSERT INTO subscriptions (id, customer_id, status, plan_id, plan_name, amount, interval, interval_count,
              default_payment_method, billing_cycle_anchor, current_period_start, current_period_end, created, metadata)
       VALUES ($1, $2, 'incomplete', $3, $4, $5, $6, $7, $8, $9, $9, $10, $9, $11)`,
      [id, customer.id, plan.id, plan.name, plan.amount, plan.interval, plan.interval_count, card.id, now, periodEnd, input.metadata],
    );
    if (!customer.default_payment_method) {
      await tx.query('UPDATE customers SET default_payment_method = $2 WHERE id = $1', [customer.id, card.id]);
    }
    const sub = (await load.subscription(tx, id))!;
    const invoice = await openInvoice(tx, sub, 'subscription_create', now, periodEnd, now);
    const { outcome } = await attemptPayment(tx, invoice, card.id, { onSession: true, origin: input.origin, returnUrl: input.returnUrl, now });
    if (outcome === 'succeeded') await tx.query(`UPDATE subscriptions SET status = 'active' WHERE id = $1`, [id]);

    await subscriptionEvent(tx, ctx, 'customer.subscription.created', id, now);
    if (outcome === 'succeeded') await invoiceEvent(tx, ctx, 'invoice.paid', invoice.id, now);
    if (outcome === 'failed') await invoiceEvent(tx, ctx, 'invoice.payment_failed', invoice.id, now);
    return { subscription: (await load.subscription(tx, id))!, outcome };
  });
  ctx.afterCommit();
  return result;
}

/**
 * The 3-D Secure page's answer for a payment waiting in `requires_action`: on success the
 * payment is made (the issuer may still decline) and the subscription becomes active; on
 * failure the payment goes back to `requires_payment_method` and the subscription stays
 * incomplete (it expires unless paid).
 */
export async function completeAuthentication(ctx: BillingContext, intentId: string, passed: boolean): Promise<PaymentIntentRow> {
  const intent = await withBillingLock(ctx.pool, ctx.schema, async (tx) => {
    const current = await load.paymentIntent(tx, intentId, true);
    if (!current) throw notFound('payment_intent', intentId);
    if (current.status !== 'requires_action') {
      throw invalidRequest('この支払いの本人認証はすでに終わっています。購入ページに戻ってください。', undefined, 'payment_intent_unexpected_state');
    }
    const invoice = (await load.invoice(tx, current.invoice_id, true))!;
    const now = ctx.clock.now();
    if (!passed) {
      const lastError = cardErrorWire(failure('authentication_failed'));
      await tx.query(`UPDATE payment_intents SET status = 'requires_payment_method', last_error = $2 WHERE id = $1`, [intentId, lastError]);
      await tx.query('UPDATE invoices SET last_error = $2, first_failed_at = COALESCE(first_failed_at, $3) WHERE id = $1', [invoice.id, lastError, now]);
      await invoiceEvent(tx, ctx, 'invoice.payment_failed', invoice.id, now);
      return (await load.paymentIntent(tx, intentId))!;
    }
    // attemptPayment counts an attempt; the 3-D Secure step belongs to the attempt already counted.
    await tx.query('UPDATE invoices SET attempt_count = GREATEST(attempt_count - 1, 0) WHERE id = $1', [invoice.id]);
    const { outcome } = await attemptPayment(tx, invoice, current.payment_method_id, { onSession: true, authenticated: true, now });
    if (invoice.subscription_id) {
      const sub = (await load.subscription(tx, invoice.subscription_id, true))!;
      if (outcome === 'succeeded' && (sub.status === 'incomplete' || sub.status === 'past_due')) {
        await tx.query(`UPDATE subscriptions SET status = 'active' WHERE id = $1`, [sub.id]);
        await subscriptionEvent(tx, ctx, 'customer.subscription.updated', sub.id, now);
      }
    }
    await invoiceEvent(tx, ctx, outcome === 'succeeded' ? 'invoice.paid' : 'invoice.payment_failed', invoice.id, now);
    return (await load.paymentIntent(tx, intentId))!;
  });
  ctx.afterCommit();
  return intent;
}

/** Sets or clears cancel_at_period_end (cancel / resume). */
export async function setCancelAtPeriodEnd(ctx: BillingContext, subscriptionId: string, cancel: boolean): Promise<SubscriptionRow> {
  const sub = await withBillingLock(ctx.pool, ctx.schema, async (tx) => {
    const current = await load.subscription(tx, subscriptionId, true);
    if (!current) throw notFound('subscription', subscriptionId);
    if (current.status === 'canceled' || current.status === 'incomplete_expired') {
      throw invalidRequest('A canceled subscription cannot be updated.', 'cancel_at_period_end', 'subscription_canceled');
    }
    if (current.cancel_at_period_end === cancel) return current;
    const now = ctx.clock.now();
    await tx.query(
      `UPDATE subscriptions SET cancel_at_period_end = $2, canceled_at = $3, cancellation_reason = $4 WHERE id = $1`,
      [subscriptionId, cancel, cancel ? now : null, cancel ? 'cancellation_requested' : null],
    );
    await subscriptionEvent(tx, ctx, 'customer.subscription.updated', subscriptionId, now);
    return (await load.subscription(tx, subscriptionId))!;
  });
  ctx.afterCommit();
  return sub;
}

/** Ends a subscription at once (no refund). Idempotent on an ended one. */
export async function cancelNow(ctx: BillingContext, subscriptionId: string): Promise<SubscriptionRow> {
  const sub = await withBillingLock(ctx.pool, ctx.schema, async (tx) => {
    const current = await load.subscription(tx, subscriptionId, true);
    if (!current) throw notFound('subscription', subscriptionId);
    if (current.status === 'canceled' || current.status === 'incomplete_expired') return current;
    const now = ctx.clock.now();
    const status = current.status === 'incomplete' ? 'incomplete_expired' : 'canceled';
    await tx.query(
      `UPDATE subscriptions SET status = $2, canceled_at = COALESCE(canceled_at, $3), ended_at = $3,
              cancellation_reason = COALESCE(cancellation_reason, 'cancellation_requested') WHERE id = $1`,
      [subscriptionId, status, now],
    );
    await tx.query(`UPDATE invoices SET status = 'void', next_payment_attempt = NULL WHERE subscription_id = $1 AND status = 'open'`, [subscriptionId]);
    await subscriptionEvent(tx, ctx, 'customer.subscription.deleted', subscriptionId, now);
    return (await load.subscription(tx, subscriptionId))!;
  });
  ctx.afterCommit();
  return sub;
}
