/**
 * The plans, subscriptions and purchase API's wire contract (docs/purchase.md, issue 9), written
 * once as TypeBox schemas: the api validates bodies and serialises answers with them (fields not
 * in a schema are dropped), and their `Static` types are what the browser reads (`import type`
 * only). Answers are snake_case like the rest of the api; request bodies use the camelCase names
 * the purchase pages send ({ planId, setupId, idempotencyKey }). Times are unix seconds; amounts
 * are integers in yen, tax included.
 *
 * Public: GET /v1/plans. Bearer: GET /api/subscriptions (the spec's list). Verified users only
 * (anonymous or unconfirmed e-mail → 403 verified_required): everything under /v1/purchase. Internal (shared token):
 * POST /internal/v1/payment-requests, the contract of the payment-invokePaymentRequest function,
 * whose `result` the function hands to the browser as the callable's data.
 */
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { closed, okAnswer, UuidString } from './common';

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const UnixSeconds = Type.Integer({ minimum: 0 });

// ── plans ──────────────────────────────────────────────────────────────────────────────────

export const PLAN_INTERVALS = ['day', 'week', 'month', 'year'] as const;
export type PlanInterval = (typeof PLAN_INTERVALS)[number];
export const PlanIntervalSchema = Type.Union(PLAN_INTERVALS.map((interval) => Type.Literal(interval)));

/** A plan's id (plans.id): lower-case letters, digits, `_` and `-`. */
export const PLAN_ID_PATTERN = '^[a-z0-9][a-z0-9_-]{0,63}$';

/** One plan as /upgrade shows it: "スタンダードプラン 980円（税込）/ 1か月". */
export const PlanWire = closed({
  id: Type.String(),
  name: Type.String(),
  /** Price of one period in yen, tax included. */
  amount_jpy: Type.Integer(),
  /** Always true: prices are shown and charged tax included. */
  tax_included: Type.Literal(true),
  /** The period: interval_count × interval (e.g. 1 × month). */
  interval: PlanIntervalSchema,
  interval_count: Type.Integer(),
});
export type PlanWire = Static<typeof PlanWire>;

/** GET /v1/plans: the plans on offer, in display order. */
export const PlanListAnswer = okAnswer({ plans: Type.Array(PlanWire) });
export type PlanListAnswer = Static<typeof PlanListAnswer>;

// ── subscriptions ──────────────────────────────────────────────────────────────────────────

/** Stripe's states (server/payments/processor.ts SubscriptionStatus; docs/purchase.md). */
export const SUBSCRIPTION_STATUSES = ['incomplete', 'incomplete_expired', 'active', 'past_due', 'canceled', 'unpaid', 'trialing', 'paused'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];
export const SubscriptionStatusSchema = Type.Union(SUBSCRIPTION_STATUSES.map((status) => Type.Literal(status)));

/** The card a subscription is charged to: never more than brand, last four digits and expiry. */
export const CardWire = closed({
  /** visa, mastercard, amex, jcb, diners, discover, unionpay, unknown */
  brand: Type.String(),
  last4: Type.String(),
  exp_month: Type.Integer(),
  exp_year: Type.Integer(),
});
export type CardWire = Static<typeof CardWire>;

/** One subscription record of the caller (ours: `id` is our UUID, not the processor's id). */
export const SubscriptionWire = closed({
  id: Type.String(),
  status: SubscriptionStatusSchema,
  plan: PlanWire,
  /** When it was started. */
  created: UnixSeconds,
  current_period_start: UnixSeconds,
  /** End of the paid period (the next renewal, or the end after a cancel). */
  current_period_end: UnixSeconds,
  /** Cancelled by the user: ends at current_period_end, no further charge. */
  cancel_at_period_end: Type.Boolean(),
  canceled_at: Nullable(UnixSeconds),
  ended_at: Nullable(UnixSeconds),
  /** True while it grants the plan (active; past_due during the grace period). */
  entitled: Type.Boolean(),
  /** Until when it grants the plan (the paymentExpirationTime claim); null when it grants nothing. */
  access_until: Nullable(UnixSeconds),
  card: Nullable(CardWire),
});
export type SubscriptionWire = Static<typeof SubscriptionWire>;

/**
 * GET /api/subscriptions: the caller's subscriptions that started (the first payment went
 * through), newest `created` first. The spec's client sorts them the same way and uses the first.
 */
export const SubscriptionListAnswer = okAnswer({ subscriptions: Type.Array(SubscriptionWire) });
export type SubscriptionListAnswer = Static<typeof SubscriptionListAnswer>;

// ── the processor's pages the web mounts ───────────────────────────────────────────────────

/**
 * How the page shows the processor's card form (docs/payments-processor.md "What the web page
 * mounts"): the sandbox's form in an iframe from its own origin (results by postMessage from
 * `origin`), or Stripe's Payment Element.
 */
export const CardFormMountWire = Type.Union([
  closed({ kind: Type.Literal('sandbox_iframe'), url: Type.String(), origin: Type.String() }),
  closed({ kind: Type.Literal('stripe_payment_element'), publishable_key: Type.String(), client_secret: Type.String() }),
]);
export type CardFormMountWire = Static<typeof CardFormMountWire>;

/** The 3-D Secure step: the sandbox's challenge page, or Stripe.js handleNextAction. */
export const PaymentActionWire = Type.Union([
  closed({ kind: Type.Literal('sandbox_challenge'), url: Type.String(), origin: Type.String(), payment_id: Type.String() }),
  closed({ kind: Type.Literal('stripe_confirm_payment'), publishable_key: Type.String(), client_secret: Type.String() }),
]);
export type PaymentActionWire = Static<typeof PaymentActionWire>;

// ── purchase (verified users) ──────────────────────────────────────────────────────────────

/** A card setup id from /v1/purchase/card-setup (the processor's, e.g. seti_…). */
const SetupId = Type.String({ minLength: 1, maxLength: 255, pattern: '^[A-Za-z0-9_]+$' });

/** POST /v1/purchase/card-setup: mount `mount`, then send `setup_id` to subscribe (or /card). */
export const CardSetupAnswer = okAnswer({ setup_id: Type.String(), mount: CardFormMountWire });
export type CardSetupAnswer = Static<typeof CardSetupAnswer>;

/** POST /v1/purchase/subscribe. A new idempotencyKey per "pay" press: a repeat of it charges once. */
export const SubscribeBody = closed({
  planId: Type.String({ pattern: PLAN_ID_PATTERN }),
  setupId: SetupId,
  idempotencyKey: UuidString,
});
export type SubscribeBody = Static<typeof SubscribeBody>;

/**
 * The answer of subscribe and confirm: `result` active (the plan is granted now: refresh the ID
 * token for the claim) or requires_action (run `action`, the 3-D Secure step, then call confirm).
 * A refused payment is an error instead (402 card_declined / payment_failed, Japanese message).
 */
export const PurchaseAnswer = okAnswer({
  result: Type.Union([Type.Literal('active'), Type.Literal('requires_action')]),
  subscription: SubscriptionWire,
  action: Nullable(PaymentActionWire),
});
export type PurchaseAnswer = Static<typeof PurchaseAnswer>;

/** POST /v1/purchase/confirm: after the 3-D Secure page; `subscriptionId` is subscription.id. */
export const ConfirmBody = closed({ subscriptionId: UuidString });
export type ConfirmBody = Static<typeof ConfirmBody>;

/** POST /v1/purchase/card: make the card saved by a new card setup the one renewals use. */
export const ChangeCardBody = closed({ setupId: SetupId });
export type ChangeCardBody = Static<typeof ChangeCardBody>;

/** POST /v1/purchase/cancel, /resume and /card: the subscription as it is now. */
export const SubscriptionAnswer = okAnswer({ subscription: SubscriptionWire });
export type SubscriptionAnswer = Static<typeof SubscriptionAnswer>;

export const INVOICE_STATUSES = ['draft', 'open', 'paid', 'uncollectible', 'void'] as const;

/** One bill of the payment history (the first payment or a renewal). */
export const InvoiceWire = closed({
  id: Type.String(),
  status: Type.Union(INVOICE_STATUSES.map((status) => Type.Literal(status))),
  amount_due_jpy: Type.Integer(),
  amount_paid_jpy: Type.Integer(),
  /** subscription_create (first payment), subscription_cycle (renewal), … */
  billing_reason: Nullable(Type.String()),
  period_start: UnixSeconds,
  period_end: UnixSeconds,
  created: UnixSeconds,
  paid_at: Nullable(UnixSeconds),
  /** Why the last attempt was refused (Japanese), when it was. */
  failure_message: Nullable(Type.String()),
});
export type InvoiceWire = Static<typeof InvoiceWire>;

/** GET /v1/purchase/summary: what /settings/purchase shows. */
export const PurchaseSummaryAnswer = okAnswer({
  /** True while the caller has the plan's benefits (the server's decision, from our database). */
  entitled: Type.Boolean(),
  access_until: Nullable(UnixSeconds),
  /** The newest subscription that started; null when none did. */
  subscription: Nullable(SubscriptionWire),
  /** The card renewals are charged to. */
  card: Nullable(CardWire),
  /** Payment history, newest first. */
  invoices: Type.Array(InvoiceWire),
});
export type PurchaseSummaryAnswer = Static<typeof PurchaseSummaryAnswer>;

// ── payment-invokePaymentRequest ⇄ api (internal) ──────────────────────────────────────────

export const PAYMENT_REQUEST_METHODS = ['updateEmail'] as const;

/** POST /internal/v1/payment-requests (X-Internal-Token), sent by the Firebase function. */
export const PaymentRequestBody = closed({
  uid: Type.String({ minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9_-]+$' }),
  email: Type.String({ minLength: 3, maxLength: 254, pattern: '^[^\\s@]+@[^\\s@]+$' }),
  method: Type.Union(PAYMENT_REQUEST_METHODS.map((method) => Type.Literal(method))),
  requestId: UuidString,
});
export type PaymentRequestBody = Static<typeof PaymentRequestBody>;

/** The request's result; the same for a repeated requestId. */
export const PaymentRequestResult = closed({ customerId: Type.String(), email: Type.String() });
export type PaymentRequestResult = Static<typeof PaymentRequestResult>;

export const PaymentRequestAnswer = okAnswer({ result: PaymentRequestResult });
export type PaymentRequestAnswer = Static<typeof PaymentRequestAnswer>;
