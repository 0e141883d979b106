/**
 * Rows of the sandbox's tables (migrations/001_init.sql) and the small queries every part of
 * the sandbox shares (load by id, list by customer). Writes that belong to one flow live with the
 * flow (billing.ts, routes/*). pg returns bigint columns as strings: rows are converted here so
 * the rest of the sandbox sees numbers.
 */
import type pg from 'pg';
import type { CardBehaviour } from './cards';
import type { WireError, WirePlan, WireSubscriptionStatus, WireInvoiceStatus } from './wire';

type Queryable = Pick<pg.Pool, 'query'> | Pick<pg.PoolClient, 'query'>;

export interface CustomerRow {
  id: string;
  uid: string | null;
  email: string | null;
  default_payment_method: string | null;
  metadata: Record<string, string>;
  created: number;
}

export interface PaymentMethodRow {
  id: string;
  customer_id: string | null;
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
  behaviour: CardBehaviour;
  created: number;
}

export interface SetupIntentRow {
  id: string;
  customer_id: string;
  client_secret: string;
  status: 'requires_payment_method' | 'succeeded' | 'canceled';
  payment_method_id: string | null;
  origin: string;
  return_url: string | null;
  last_error: WireError | null;
  created: number;
}

export interface SubscriptionRow {
  id: string;
  customer_id: string;
  status: WireSubscriptionStatus;
  plan_id: string | null;
  plan_name: string | null;
  amount: number;
  currency: 'jpy';
  interval: WirePlan['interval'];
  interval_count: number;
  default_payment_method: string | null;
  cancel_at_period_end: boolean;
  billing_cycle_anchor: number;
  current_period_start: number;
  current_period_end: number;
  created: number;
  canceled_at: number | null;
  ended_at: number | null;
  cancellation_reason: 'cancellation_requested' | 'payment_failed' | null;
  latest_invoice: string | null;
  metadata: Record<string, string>;
}

export interface InvoiceRow {
  id: string;
  customer_id: string;
  subscription_id: string | null;
  status: WireInvoiceStatus;
  amount_due: number;
  amount_paid: number;
  currency: 'jpy';
  billing_reason: 'subscription_create' | 'subscription_cycle';
  period_start: number;
  period_end: number;
  created: number;
  paid_at: number | null;
  attempt_count: number;
  first_failed_at: number | null;
  next_payment_attempt: number | null;
  payment_intent: string | null;
  last_error: WireError | null;
}

export interface PaymentIntentRow {
  id: string;
  invoice_id: string;
  customer_id: string;
  amount: number;
  currency: 'jpy';
  status: 'requires_action' | 'succeeded' | 'requires_payment_method';
  payment_method_id: string | null;
  client_secret: string;
  origin: string | null;
  return_url: string | null;
  last_error: WireError | null;
  created: number;
}

const BIGINT_COLUMNS = [
  'created',
  'billing_cycle_anchor',
  'current_period_start',
  'current_period_end',
  'canceled_at',
  'ended_at',
  'period_start',
  'period_end',
  'paid_at',
  'first_failed_at',
  'next_payment_attempt',
];

/** Turns pg's bigint strings into numbers (null stays null). */
export function numbers<T>(row: Record<string, unknown>): T {
  const out: Record<string, unknown> = { ...row };
  for (const column of BIGINT_COLUMNS) {
    if (typeof out[column] === 'string') out[column] = Number(out[column]);
  }
  return out as T;
}

async function one<T>(db: Queryable, sql: string, params: unknown[]): Promise<T | null> {
  const { rows } = await db.query(sql, params);
  return rows.length > 0 ? numbers<T>(rows[0]) : null;
}

async function many<T>(db: Queryable, sql: string, params: unknown[]): Promise<T[]> {
  const { rows } = await db.query(sql, params);
  return rows.map((row) => numbers<T>(row));
}

/** `FOR UPDATE` variants lock the row inside a billing transaction. */
export const load = {
  customer: (db: Queryable, id: string) => one<CustomerRow>(db, 'SELECT * FROM customers WHERE id = $1', [id]),
  paymentMethod: (db: Queryable, id: string) => one<PaymentMethodRow>(db, 'SELECT * FROM payment_methods WHERE id = $1', [id]),
  setupIntent: (db: Queryable, id: string) => one<SetupIntentRow>(db, 'SELECT * FROM setup_intents WHERE id = $1', [id]),
  subscription: (db: Queryable, id: string, forUpdate = false) =>
    one<SubscriptionRow>(db, `SELECT * FROM subscriptions WHERE id = $1${forUpdate ? ' FOR UPDATE' : ''}`, [id]),
  invoice: (db: Queryable, id: string, forUpdate = false) =>
    one<InvoiceRow>(db, `SELECT * FROM invoices WHERE id = $1${forUpdate ? ' FOR UPDATE' : ''}`, [id]),
  paymentIntent: (db: Queryable, id: string, forUpdate = false) =>
    one<PaymentIntentRow>(db, `SELECT * FROM payment_intents WHERE id = $1${forUpdate ? ' FOR UPDATE' : ''}`, [id]),
};

export const list = {
  customersByUid: (db: Queryable, uid: string) =>
    many<CustomerRow>(db, 'SELECT * FROM customers WHERE uid = $1 ORDER BY created, id', [uid]),
  paymentMethods: (db: Queryable, customerId: string) =>
    many<PaymentMethodRow>(db, 'SELECT * FROM payment_methods WHERE customer_id = $1 ORDER BY created DESC, id', [customerId]),
  subscriptions: (db: Queryable, customerId: string) =>
    many<SubscriptionRow>(db, 'SELECT * FROM subscriptions WHERE customer_id = $1 ORDER BY created DESC, id', [customerId]),
  invoices: (db: Queryable, filter: { customerId?: string; subscriptionId?: string }, limit: number) =>
    many<InvoiceRow>(
      db,
      `SELECT * FROM invoices
        WHERE ($1::text IS NULL OR customer_id = $1) AND ($2::text IS NULL OR subscription_id = $2)
        ORDER BY created DESC, period_start DESC, id LIMIT $3`,
      [filter.customerId ?? null, filter.subscriptionId ?? null, limit],
    ),
};
