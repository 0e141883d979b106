/**
 * What the sandbox's clock sets off, in time order, each at the moment it fell due:
 *   - a period ends: a subscription set to cancel at period end is canceled; an active one is
 *     renewed (new period, new invoice charged off-session to the saved card); a declined
 *     renewal makes it `past_due`;
 *   - a failed renewal's retry falls due (retryScheduleSeconds after the first failure): paid →
 *     `active` again; the last retry failing → `canceled` (reason payment_failed, invoice
 *     uncollectible): the grace period is over;
 *   - an `incomplete` subscription (first payment never made) turns `incomplete_expired` after
 *     23 hours.
 * `runDue(upTo)` handles everything due up to `upTo`, one item per transaction, so moving the
 * clock a year ahead renews twelve times with the right dates.
 */
import { attemptPayment, invoiceEvent, openInvoice, subscriptionEvent, type BillingContext } from './charges';
import { withBillingLock, type Tx } from './db';
import { nextPeriodEnd } from './periods';
import { load } from './store';

type DueItem = { kind: 'period_end' | 'expire_incomplete'; id: string; at: number } | { kind: 'retry'; id: string; at: number };

const MAX_ITEMS_PER_RUN = 10_000;

async function nextDue(tx: Tx, ctx: BillingContext, upTo: number): Promise<DueItem | null> {
  const { rows } = await tx.query<{ kind: DueItem['kind']; id: string; at: string }>(
    `(SELECT 'period_end' AS kind, id, current_period_end AS at FROM subscriptions
       WHERE (status = 'active' OR (status = 'past_due' AND cancel_at_period_end)) AND current_period_end <= $1)
     UNION ALL
     (SELECT 'retry' AS kind, id, next_payment_attempt AS at FROM invoices
       WHERE status = 'open' AND next_payment_attempt IS NOT NULL AND next_payment_attempt <= $1)
     UNION ALL
     (SELECT 'expire_incomplete' AS kind, id, created + $2 AS at FROM subscriptions
       WHERE status = 'incomplete' AND created + $2 <= $1)
     ORDER BY at, kind, id LIMIT 1`,
    [upTo, ctx.incompleteExpirySeconds],
  );
  return rows.length > 0 ? { kind: rows[0].kind, id: rows[0].id, at: Number(rows[0].at) } : null;
}

async function periodEnd(tx: Tx, ctx: BillingContext, subscriptionId: string, at: number): Promise<void> {
  const sub = (await load.subscription(tx, subscriptionId, true))!;
  if (sub.cancel_at_period_end) {
    await tx.query(`UPDATE subscriptions SET status = 'canceled', ended_at = $2 WHERE id = $1`, [sub.id, sub.current_period_end]);
    await tx.query(`UPDATE invoices SET status = 'void', next_payment_attempt = NULL WHERE subscription_id = $1 AND status = 'open'`, [sub.id]);
    await subscriptionEvent(tx, ctx, 'customer.subscription.deleted', sub.id, at);
    return;
  }
  const start = sub.current_period_end;
  const end = nextPeriodEnd(sub.billing_cycle_anchor, sub.interval, sub.interval_count, start);
  await tx.query('UPDATE subscriptions SET current_period_start = $2, current_period_end = $3 WHERE id = $1', [sub.id, start, end]);
  const invoice = await openInvoice(tx, { ...sub, current_period_start: start, current_period_end: end }, 'subscription_cycle', start, end, at);
  const { outcome } = await attemptPayment(tx, invoice, sub.default_payment_method, { onSession: false, now: at });
  if (outcome === 'succeeded') {
    await invoiceEvent(tx, ctx, 'invoice.paid', invoice.id, at);
  } else {
    const firstRetry = ctx.retryScheduleSeconds[0];
    await tx.query('UPDATE invoices SET next_payment_attempt = $2 WHERE id = $1', [invoice.id, firstRetry === undefined ? null : at + firstRetry]);
    await tx.query(`UPDATE subscriptions SET status = 'past_due' WHERE id = $1`, [sub.id]);
    await invoiceEvent(tx, ctx, 'invoice.payment_failed', invoice.id, at);
    if (firstRetry === undefined) {
      await endForNonPayment(tx, ctx, sub.id, invoice.id, at);
      return;
    }
  }
  await subscriptionEvent(tx, ctx, 'customer.subscription.updated', sub.id, at);
}

async function endForNonPayment(tx: Tx, ctx: BillingContext, subscriptionId: string, invoiceId: string, at: number): Promise<void> {
  await tx.query(`UPDATE invoices SET status = 'uncollectible', next_payment_attempt = NULL WHERE id = $1`, [invoiceId]);
  await tx.query(
    `UPDATE subscriptions SET status = 'canceled', canceled_at = $2, ended_at = $2, cancellation_reason = 'payment_failed' WHERE id = $1`,
    [subscriptionId, at],
  );
  await subscriptionEvent(tx, ctx, 'customer.subscription.deleted', subscriptionId, at);
}

async function retry(tx: Tx, ctx: BillingContext, invoiceId: string, at: number): Promise<void> {
  const invoice = (await load.invoice(tx, invoiceId, true))!;
  const sub = invoice.subscription_id ? await load.subscription(tx, invoice.subscription_id, true) : null;
  if (!sub || (sub.status !== 'past_due' && sub.status !== 'active')) {
    await tx.query('UPDATE invoices SET next_payment_attempt = NULL WHERE id = $1', [invoice.id]);
    return;
  }
  // Charged to the subscription's card as it is now (the user may have changed it meanwhile).
  const { outcome } = await attemptPayment(tx, invoice, sub.default_payment_method, { onSession: false, now: at });
  if (outcome === 'succeeded') {
    await invoiceEvent(tx, ctx, 'invoice.paid', invoice.id, at);
    if (sub.status === 'past_due') {
      await tx.query(`UPDATE subscriptions SET status = 'active' WHERE id = $1`, [sub.id]);
      await subscriptionEvent(tx, ctx, 'customer.subscription.updated', sub.id, at);
    }
    return;
  }
  const retriesDone = invoice.attempt_count; // attempts before this one = first try + earlier retries
  const nextOffset = ctx.retryScheduleSeconds[retriesDone];
  const firstFailed = invoice.first_failed_at ?? at;
  if (nextOffset !== undefined) {
    await tx.query('UPDATE invoices SET next_payment_attempt = $2 WHERE id = $1', [invoice.id, Math.max(at + 1, firstFailed + nextOffset)]);
    await invoiceEvent(tx, ctx, 'invoice.payment_failed', invoice.id, at);
    return;
  }
  await invoiceEvent(tx, ctx, 'invoice.payment_failed', invoice.id, at);
  await endForNonPayment(tx, ctx, sub.id, invoice.id, at);
}

async function expireIncomplete(tx: Tx, ctx: BillingContext, subscriptionId: string, at: number): Promise<void> {
  await tx.query(`UPDATE subscriptions SET status = 'incomplete_expired', ended_at = $2 WHERE id = $1`, [subscriptionId, at]);
  await tx.query(`UPDATE invoices SET status = 'void', next_payment_attempt = NULL WHERE subscription_id = $1 AND status = 'open'`, [subscriptionId]);
  await tx.query(
    `UPDATE payment_intents SET status = 'requires_payment_method'
      WHERE status = 'requires_action' AND invoice_id IN (SELECT id FROM invoices WHERE subscription_id = $1)`,
    [subscriptionId],
  );
  await subscriptionEvent(tx, ctx, 'customer.subscription.deleted', subscriptionId, at);
}

/** Runs everything due up to `upTo` (sandbox seconds); returns how many items ran. */
export async function runDue(ctx: BillingContext, upTo: number = ctx.clock.now()): Promise<number> {
  let count = 0;
  for (; count < MAX_ITEMS_PER_RUN; count++) {
    const ran = await withBillingLock(ctx.pool, ctx.schema, async (tx) => {
      const item = await nextDue(tx, ctx, upTo);
      if (!item) return false;
      if (item.kind === 'period_end') await periodEnd(tx, ctx, item.id, item.at);
      else if (item.kind === 'retry') await retry(tx, ctx, item.id, item.at);
      else await expireIncomplete(tx, ctx, item.id, item.at);
      return true;
    });
    if (!ran) break;
    ctx.afterCommit();
  }
  return count;
}
