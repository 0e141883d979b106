/**
 * The pieces every billing flow shares: opening an invoice, attempting its payment with a saved
 * card (the simulated issuer answers from the card's behaviour), and recording the resulting
 * events with the objects as they are after the change. Callers hold the billing lock (db.ts).
 */
import type { PaymentFailure } from '../processor';
import { failure } from '../failures';
import type { SandboxClock } from './clock';
import type { Db, Tx } from './db';
import { wireFailure } from './errors';
import { recordEvent, type EventSink } from './events';
import { newClientSecret, newId } from './ids';
import { invoiceJson, subscriptionJson, type Urls } from './objects';
import { load, type InvoiceRow, type PaymentIntentRow, type SubscriptionRow } from './store';
import type { WireError, WireEventType } from './wire';

export interface BillingContext {
  pool: Db;
  schema: string;
  clock: SandboxClock;
  urls: Urls;
  sink: EventSink;
  /** Seconds after a renewal's first failure at which it is retried; after the last, canceled. */
  retryScheduleSeconds: number[];
  incompleteExpirySeconds: number;
  /** Called after a transaction that recorded events has committed (wakes the deliverer). */
  afterCommit(): void;
}

export type PaymentOutcome = 'succeeded' | 'requires_action' | 'failed';

export function cardErrorWire(problem: PaymentFailure): WireError {
  return { type: 'card_error', ...wireFailure(problem) };
}

export async function openInvoice(
  tx: Tx,
  sub: SubscriptionRow,
  reason: InvoiceRow['billing_reason'],
  periodStart: number,
  periodEnd: number,
  now: number,
): Promise<InvoiceRow> {
  const id = newId('in');
  await tx.query(
    `INSERT INTO invoices (id, customer_id, subscription_id, status, amount_due, billing_reason, period_start, period_end, created)
     VALUES ($1, $2, $3, 'open', $4, $5, $6, $7, $8)`,
    [id, sub.customer_id, sub.id, sub.amount, reason, periodStart, periodEnd, now],
  );
  await tx.query('UPDATE subscriptions SET latest_invoice = $2 WHERE id = $1', [sub.id, id]);
  return (await load.invoice(tx, id))!;
}

export interface AttemptOptions {
  /** The cardholder is present (first payment): a 3-D Secure card asks for authentication. */
  onSession: boolean;
  /** The cardholder has just passed 3-D Secure for this payment. */
  authenticated?: boolean;
  origin?: string | null;
  returnUrl?: string | null;
  now: number;
}

/** Charges `invoice` to `paymentMethodId` once; updates the invoice and its payment intent. */
export async function attemptPayment(tx: Tx, invoice: InvoiceRow, paymentMethodId: string | null, options: AttemptOptions): Promise<{ outcome: PaymentOutcome; intent: PaymentIntentRow }> {
  const card = paymentMethodId ? await load.paymentMethod(tx, paymentMethodId) : null;
  let outcome: PaymentOutcome;
  let problem: PaymentFailure | null = null;
  if (!card) {
    outcome = 'failed';
    problem = failure('card_declined', 'generic_decline');
  } else if (card.behaviour === 'decline') {
    outcome = 'failed';
    problem = failure('card_declined', 'generic_decline');
  } else if (card.behaviour === 'require_3ds' && options.onSession && !options.authenticated) {
    outcome = 'requires_action';
  } else {
    outcome = 'succeeded';
  }
  const status: PaymentIntentRow['status'] =
    outcome === 'succeeded' ? 'succeeded' : outcome === 'requires_action' ? 'requires_action' : 'requires_payment_method';
  const lastError = problem ? cardErrorWire(problem) : null;

  let intentId = invoice.payment_intent;
  if (!intentId) {
    intentId = newId('pi');
    await tx.query(
      `INSERT INTO payment_intents (id, invoice_id, customer_id, amount, status, payment_method_id, client_secret, origin, return_url, last_error, created)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      [intentId, invoice.id, invoice.customer_id, invoice.amount_due, status, paymentMethodId, newClientSecret(intentId), options.origin ?? null, options.returnUrl ?? null, lastError, options.now],
    );
  } else {
    await tx.query(
      `UPDATE payment_intents SET status = $2, payment_method_id = $3, last_error = $4,
              origin = COALESCE($5, origin), return_url = COALESCE($6, return_url) WHERE id = $1`,
      [intentId, status, paymentMethodId, lastError, options.origin ?? null, options.returnUrl ?? null],
    );
  }
  if (outcome === 'succeeded') {
    await tx.query(
      `UPDATE invoices SET status = 'paid', amount_paid = amount_due, paid_at = $2, attempt_count = attempt_count + 1,
              next_payment_attempt = NULL, last_error = NULL, payment_intent = $3 WHERE id = $1`,
      [invoice.id, options.now, intentId],
    );
  } else if (outcome === 'failed') {
    await tx.query(
      `UPDATE invoices SET attempt_count = attempt_count + 1, last_error = $2, payment_intent = $3,
              first_failed_at = COALESCE(first_failed_at, $4) WHERE id = $1`,
      [invoice.id, lastError, intentId, options.now],
    );
  } else {
    await tx.query('UPDATE invoices SET attempt_count = attempt_count + 1, payment_intent = $2 WHERE id = $1', [invoice.id, intentId]);
  }
  return { outcome, intent: (await load.paymentIntent(tx, intentId))! };
}

/** The latest invoice's payment intent of a subscription (for its `latest_payment`). */
export async function latestPayment(tx: Pick<Db, 'query'> | Tx, sub: SubscriptionRow): Promise<PaymentIntentRow | null> {
  if (!sub.latest_invoice) return null;
  const invoice = await load.invoice(tx, sub.latest_invoice);
  return invoice?.payment_intent ? load.paymentIntent(tx, invoice.payment_intent) : null;
}

export async function subscriptionEvent(tx: Tx, ctx: BillingContext, type: WireEventType, subscriptionId: string, at: number): Promise<void> {
  const sub = (await load.subscription(tx, subscriptionId))!;
  await recordEvent(tx, ctx.sink, type, subscriptionJson(sub, await latestPayment(tx, sub), ctx.urls), at);
}

export async function invoiceEvent(tx: Tx, ctx: BillingContext, type: WireEventType, invoiceId: string, at: number): Promise<void> {
  const invoice = (await load.invoice(tx, invoiceId))!;
  await recordEvent(tx, ctx.sink, type, invoiceJson(invoice), at);
}
