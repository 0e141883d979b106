/**
 * Every SQL statement of the payments feature (migration 004_payments.sql): plans, the
 * processor's customer of each user, our subscription records, purchase attempts (idempotency
 * keys), the function's payment requests and applied webhook events. Functions take a pool or a
 * client, so the service runs them on the connection that holds the user's lock (locks.ts).
 * Nothing here ever sees a card number: only brand, last 4 and expiry are columns.
 */
import type pg from 'pg';
import type { PlanInterval, SubscriptionStatus } from '../../../../lib/api-types/schemas/payments';

export type Queryable = Pick<pg.Pool, 'query'> | Pick<pg.PoolClient, 'query'>;

async function rows<T>(db: Queryable, sql: string, params: unknown[] = []): Promise<T[]> {
  const result = await db.query(sql, params);
  return result.rows;
}

async function one<T>(db: Queryable, sql: string, params: unknown[] = []): Promise<T | null> {
  return (await rows<T>(db, sql, params))[0] ?? null;
}

// ── plans ────────────────────────────────────────────────────────────────────────────────

export interface PlanRow {
  id: string;
  name: string;
  amount_jpy: number;
  interval: PlanInterval;
  interval_count: number;
  active: boolean;
}

const PLAN_COLUMNS = 'id, name, amount_jpy, interval, interval_count, active';

export function activePlans(db: Queryable): Promise<PlanRow[]> {
  return rows<PlanRow>(db, `SELECT ${PLAN_COLUMNS} FROM plans WHERE active ORDER BY sort, id`);
}

export function planById(db: Queryable, id: string): Promise<PlanRow | null> {
  return one<PlanRow>(db, `SELECT ${PLAN_COLUMNS} FROM plans WHERE id = $1`, [id]);
}

// ── users and customers ──────────────────────────────────────────────────────────────────

/** Our tables reference users (migration 001); the payment routes may be a user's first call. */
export async function ensureUser(db: Queryable, uid: string): Promise<void> {
  await db.query('INSERT INTO users (uid) VALUES ($1) ON CONFLICT (uid) DO NOTHING', [uid]);
}

export interface CustomerRow {
  uid: string;
  processor: string;
  customer_id: string;
  email: string | null;
}

export function customerOf(db: Queryable, uid: string): Promise<CustomerRow | null> {
  return one<CustomerRow>(db, 'SELECT uid, processor, customer_id, email FROM payment_customers WHERE uid = $1', [uid]);
}

export async function uidOfCustomer(db: Queryable, processor: string, customerId: string): Promise<string | null> {
  const row = await one<{ uid: string }>(db, 'SELECT uid FROM payment_customers WHERE processor = $1 AND customer_id = $2', [processor, customerId]);
  return row?.uid ?? null;
}

export async function saveCustomer(db: Queryable, row: CustomerRow): Promise<void> {
  await db.query(
    `INSERT INTO payment_customers (uid, processor, customer_id, email) VALUES ($1, $2, $3, $4)
     ON CONFLICT (uid) DO UPDATE SET processor = EXCLUDED.processor, customer_id = EXCLUDED.customer_id,
       email = EXCLUDED.email, updated_at = now()`,
    [row.uid, row.processor, row.customer_id, row.email],
  );
}

// ── subscriptions ────────────────────────────────────────────────────────────────────────

/** The statuses in which the processor still runs (and may charge) a subscription. */
export const LIVE_STATUSES: readonly SubscriptionStatus[] = ['active', 'trialing', 'past_due'];
/** Never started: the first payment was not made (declined, waiting for 3-D Secure, expired). */
export const UNSTARTED_STATUSES: readonly SubscriptionStatus[] = ['incomplete', 'incomplete_expired'];

/** What the processor says, plus our own fields; written by sync.ts only. */
export interface SubscriptionWrite {
  uid: string;
  processor: string;
  processorSubscriptionId: string;
  processorCustomerId: string;
  planId: string;
  status: SubscriptionStatus;
  amountJpy: number;
  currentPeriodStart: Date;
  currentPeriodEnd: Date;
  cancelAtPeriodEnd: boolean;
  cancellationReason: string | null;
  created: Date;
  canceledAt: Date | null;
  endedAt: Date | null;
  graceUntil: Date | null;
  entitledUntil: Date | null;
  defaultPaymentMethodId: string | null;
  card: { brand: string; last4: string; expMonth: number; expYear: number } | null;
}

export interface SubscriptionRow {
  id: string;
  uid: string;
  processor: string;
  processor_subscription_id: string;
  processor_customer_id: string;
  plan_id: string;
  status: SubscriptionStatus;
  amount_jpy: number;
  current_period_start: Date;
  current_period_end: Date;
  cancel_at_period_end: boolean;
  cancellation_reason: string | null;
  created: Date;
  canceled_at: Date | null;
  ended_at: Date | null;
  grace_until: Date | null;
  entitled_until: Date | null;
  default_payment_method_id: string | null;
  card_brand: string | null;
  card_last4: string | null;
  card_exp_month: number | null;
  card_exp_year: number | null;
  plan_name: string;
  plan_interval: PlanInterval;
  plan_interval_count: number;
  /** entitled_until > now() on the database's clock. */
  entitled: boolean;
}

const SELECT_SUBSCRIPTION = `
  SELECT s.id, s.uid, s.processor, s.processor_subscription_id, s.processor_customer_id, s.plan_id, s.status, s.amount_jpy,
         s.current_period_start, s.current_period_end, s.cancel_at_period_end, s.cancellation_reason, s.created,
         s.canceled_at, s.ended_at, s.grace_until, s.entitled_until, s.default_payment_method_id,
         s.card_brand, s.card_last4, s.card_exp_month, s.card_exp_year,
         p.name AS plan_name, p.interval AS plan_interval, p.interval_count AS plan_interval_count,
         COALESCE(s.entitled_until > now(), false) AS entitled
    FROM subscriptions s JOIN plans p ON p.id = s.plan_id`;

/** The user's subscriptions that started (not incomplete / incomplete_expired), newest first. */
export function startedSubscriptions(db: Queryable, uid: string): Promise<SubscriptionRow[]> {
  return rows<SubscriptionRow>(
    db,
    `${SELECT_SUBSCRIPTION} WHERE s.uid = $1 AND NOT (s.status = ANY($2::text[])) ORDER BY s.created DESC, s.inserted_at DESC`,
    [uid, UNSTARTED_STATUSES],
  );
}

/** One of the user's subscriptions by our id; another user's is null, like an unknown id. */
export function subscriptionOf(db: Queryable, uid: string, id: string): Promise<SubscriptionRow | null> {
  return one<SubscriptionRow>(db, `${SELECT_SUBSCRIPTION} WHERE s.uid = $1 AND s.id = $2`, [uid, id]);
}

export function subscriptionByProcessorId(db: Queryable, processorSubscriptionId: string): Promise<SubscriptionRow | null> {
  return one<SubscriptionRow>(db, `${SELECT_SUBSCRIPTION} WHERE s.processor_subscription_id = $1`, [processorSubscriptionId]);
}

/** The user's running subscription (active, trialing, past_due), the newest if several. */
export function liveSubscription(db: Queryable, uid: string): Promise<SubscriptionRow | null> {
  return one<SubscriptionRow>(db, `${SELECT_SUBSCRIPTION} WHERE s.uid = $1 AND s.status = ANY($2::text[]) ORDER BY s.created DESC LIMIT 1`, [
    uid,
    LIVE_STATUSES,
  ]);
}

/** Subscriptions still waiting for their first payment (3-D Secure left open, a declined card). */
export function incompleteSubscriptions(db: Queryable, uid: string): Promise<SubscriptionRow[]> {
  return rows<SubscriptionRow>(db, `${SELECT_SUBSCRIPTION} WHERE s.uid = $1 AND s.status = 'incomplete'`, [uid]);
}

/** Inserts or updates the record of a processor subscription (updated_at moves only on a change); answers it as read back. */
export async function saveSubscription(db: Queryable, w: SubscriptionWrite): Promise<SubscriptionRow> {
  const saved = await one<{ id: string }>(
    db,
    `INSERT INTO subscriptions (uid, processor, processor_subscription_id, processor_customer_id, plan_id, status, amount_jpy,
        current_period_start, current_period_end, cancel_at_period_end, cancellation_reason, created, canceled_at, ended_at,
        grace_until, entitled_until, default_payment_method_id, card_brand, card_last4, card_exp_month, card_exp_year)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21)
     ON CONFLICT (processor_subscription_id) DO UPDATE SET
       plan_id = EXCLUDED.plan_id, status = EXCLUDED.status, amount_jpy = EXCLUDED.amount_jpy,
       current_period_start = EXCLUDED.current_period_start, current_period_end = EXCLUDED.current_period_end,
       cancel_at_period_end = EXCLUDED.cancel_at_period_end, cancellation_reason = EXCLUDED.cancellation_reason,
       canceled_at = EXCLUDED.canceled_at, ended_at = EXCLUDED.ended_at, grace_until = EXCLUDED.grace_until,
       entitled_until = EXCLUDED.entitled_until, default_payment_method_id = EXCLUDED.default_payment_method_id,
       card_brand = EXCLUDED.card_brand, card_last4 = EXCLUDED.card_last4, card_exp_month = EXCLUDED.card_exp_month,
       card_exp_year = EXCLUDED.card_exp_year,
       updated_at = CASE WHEN (subscriptions.plan_id, subscriptions.status, subscriptions.amount_jpy, subscriptions.current_period_start,
                              subscriptions.current_period_end, subscriptions.cancel_at_period_end, subscriptions.cancellation_reason,
                              subscriptions.canceled_at, subscriptions.ended_at, subscriptions.grace_until, subscriptions.entitled_until,
                              subscriptions.default_payment_method_id, subscriptions.card_brand, subscriptions.card_last4,
                              subscriptions.card_exp_month, subscriptions.card_exp_year)
                             IS DISTINCT FROM
                             (EXCLUDED.plan_id, EXCLUDED.status, EXCLUDED.amount_jpy, EXCLUDED.current_period_start,
                              EXCLUDED.current_period_end, EXCLUDED.cancel_at_period_end, EXCLUDED.cancellation_reason,
                              EXCLUDED.canceled_at, EXCLUDED.ended_at, EXCLUDED.grace_until, EXCLUDED.entitled_until,
                              EXCLUDED.default_payment_method_id, EXCLUDED.card_brand, EXCLUDED.card_last4,
                              EXCLUDED.card_exp_month, EXCLUDED.card_exp_year)
                        THEN now() ELSE subscriptions.updated_at END
     RETURNING id`,
    [
      w.uid, w.processor, w.processorSubscriptionId, w.processorCustomerId, w.planId, w.status, w.amountJpy,
      w.currentPeriodStart, w.currentPeriodEnd, w.cancelAtPeriodEnd, w.cancellationReason, w.created, w.canceledAt, w.endedAt,
      w.graceUntil, w.entitledUntil, w.defaultPaymentMethodId, w.card?.brand ?? null, w.card?.last4 ?? null,
      w.card?.expMonth ?? null, w.card?.expYear ?? null,
    ],
  );
  const row = saved ? await subscriptionOf(db, w.uid, saved.id) : null;
  if (!row) throw new Error(`subscription ${w.processorSubscriptionId} was not saved`);
  return row;
}

/**
 * The latest end of the user's entitling subscriptions as the claim carries it: the period end
 * of an active one, the grace end of a past_due one; null when none entitles now.
 */
export async function entitledUntil(db: Queryable, uid: string): Promise<{ planId: string; until: Date; subscriptionId: string } | null> {
  const row = await one<{ plan_id: string; until: Date; id: string }>(
    db,
    `SELECT plan_id, id, CASE WHEN status = 'past_due' THEN grace_until ELSE current_period_end END AS until
       FROM subscriptions WHERE uid = $1 AND entitled_until > now()
      ORDER BY until DESC NULLS LAST LIMIT 1`,
    [uid],
  );
  return row ? { planId: row.plan_id, until: row.until, subscriptionId: row.id } : null;
}

// ── purchase attempts (idempotency keys of subscribe) ────────────────────────────────────

export type AttemptOutcome = 'active' | 'requires_action' | 'declined';

export interface AttemptRow {
  idempotency_key: string;
  uid: string;
  plan_id: string;
  setup_id: string;
  subscription_id: string | null;
  outcome: AttemptOutcome | null;
  failure_message: string | null;
}

export function attemptByKey(db: Queryable, key: string): Promise<AttemptRow | null> {
  return one<AttemptRow>(
    db,
    'SELECT idempotency_key, uid, plan_id, setup_id, subscription_id, outcome, failure_message FROM purchase_attempts WHERE idempotency_key = $1',
    [key],
  );
}

/** False when the key is already taken (by a request of another user racing this one). */
export async function insertAttempt(db: Queryable, a: { key: string; uid: string; planId: string; setupId: string }): Promise<boolean> {
  const result = await db.query(
    `INSERT INTO purchase_attempts (idempotency_key, uid, plan_id, setup_id) VALUES ($1, $2, $3, $4)
     ON CONFLICT (idempotency_key) DO NOTHING`,
    [a.key, a.uid, a.planId, a.setupId],
  );
  return result.rowCount === 1;
}

export async function finishAttempt(db: Queryable, key: string, subscriptionId: string, outcome: AttemptOutcome, failureMessage: string | null): Promise<void> {
  await db.query('UPDATE purchase_attempts SET subscription_id = $2, outcome = $3, failure_message = $4 WHERE idempotency_key = $1', [
    key,
    subscriptionId,
    outcome,
    failureMessage,
  ]);
}

// ── payment requests (the Firebase function) ────────────────────────────────────────────

export interface PaymentRequestRow {
  request_id: string;
  uid: string;
  method: string;
  result: unknown;
}

export function paymentRequest(db: Queryable, requestId: string): Promise<PaymentRequestRow | null> {
  return one<PaymentRequestRow>(db, 'SELECT request_id, uid, method, result FROM payment_requests WHERE request_id = $1', [requestId]);
}

/** False when the id is already taken. */
export async function insertPaymentRequest(db: Queryable, r: { requestId: string; uid: string; method: string; result: object }): Promise<boolean> {
  const result = await db.query(
    `INSERT INTO payment_requests (request_id, uid, method, result) VALUES ($1, $2, $3, $4) ON CONFLICT (request_id) DO NOTHING`,
    [r.requestId, r.uid, r.method, JSON.stringify(r.result)],
  );
  return result.rowCount === 1;
}

// ── webhook events ───────────────────────────────────────────────────────────────────────

export async function eventApplied(db: Queryable, eventId: string): Promise<boolean> {
  return (await one<{ event_id: string }>(db, 'SELECT event_id FROM webhook_events WHERE event_id = $1', [eventId])) !== null;
}

export async function recordEvent(db: Queryable, e: { id: string; type: string; processor: string }): Promise<void> {
  await db.query('INSERT INTO webhook_events (event_id, type, processor) VALUES ($1, $2, $3) ON CONFLICT (event_id) DO NOTHING', [
    e.id,
    e.type,
    e.processor,
  ]);
}
