/**
 * The payment processor, behind one interface (issue 9 §2, DESIGN.md §2 "Payments through a
 * processor interface"). The api and the Firebase function talk to a `PaymentProcessor`; two
 * implementations exist:
 *   - `sandbox` (server/payments/sandbox/client.ts): the local default, a separate process that
 *     behaves like a real processor (hosted card form on its own origin, Stripe's test cards,
 *     3-D Secure, renewals, signed webhooks, a clock tests can move);
 *   - `stripe` (server/payments/stripe/processor.ts): the official SDK, for production.
 * `createProcessor(env)` (./index.ts) picks one by PAYMENTS_PROCESSOR.
 *
 * Rules every implementation keeps:
 *   - our servers never see a card number, CVC or expiry: the card is typed into a form served
 *     by the processor from its own origin; we only ever hold ids, brand, last 4, exp month/year;
 *   - amounts are integers in JPY (the yen has no minor unit), taken from our plans, never from
 *     the browser;
 *   - times are unix seconds on the PROCESSOR's clock (the sandbox's clock can be moved by tests);
 *   - every call that creates or charges takes an idempotency key, so a retry or a double click
 *     returns the first result instead of charging twice.
 * docs/payments-processor.md describes the flows, the browser messages and the environment.
 */

/** An amount in Japanese yen: an integer, tax included. */
export type Jpy = number;

/** Which implementation answered. */
export type ProcessorName = 'sandbox' | 'stripe';

// ── customers ────────────────────────────────────────────────────────────────────────────

/** The processor's record of one of our users (one per Firebase uid). */
export interface ProcessorCustomer {
  id: string;
  /** Our Firebase uid (kept in the processor's metadata). */
  uid: string;
  /** Billing e-mail (receipts); null until registered. */
  email: string | null;
  /** The card renewals are charged to, when one is set. */
  defaultPaymentMethodId: string | null;
  created: number;
}

export interface EnsureCustomerInput {
  uid: string;
  email: string | null;
  /**
   * The customer id we stored earlier, when we have one (always pass it: looking a customer up
   * by uid is only a fallback, and Stripe's search index lags behind writes).
   */
  customerId?: string | null;
}

// ── card setup (the hosted card form) ────────────────────────────────────────────────────

/**
 * What the web page needs to show the processor's card form. The form runs on the
 * processor's origin; the card number goes from the browser straight to the processor.
 */
export type CardFormMount =
  | {
      /** Embed `url` in an iframe (or open it as a page); results arrive by postMessage from `origin`. */
      kind: 'sandbox_iframe';
      url: string;
      origin: string;
    }
  | {
      /** Mount Stripe's Payment Element with this key and secret; confirm with stripe.confirmSetup. */
      kind: 'stripe_payment_element';
      publishableKey: string;
      clientSecret: string;
    };

export type CardSetupStatus = 'requires_payment_method' | 'requires_action' | 'processing' | 'succeeded' | 'canceled';

/** One attempt to save a card for a customer (Stripe: a SetupIntent). */
export interface CardSetupSession {
  id: string;
  customerId: string;
  status: CardSetupStatus;
  /** The saved card once `status` is `succeeded`. */
  paymentMethodId: string | null;
  /** Why the last card was refused (shown to the user in Japanese by the form itself). */
  lastError: PaymentFailure | null;
  mount: CardFormMount;
  created: number;
}

export interface CreateCardSetupInput {
  customerId: string;
  /**
   * Origin of our web page that shows the form (e.g. "http://127.0.0.1:3000"): the only origin
   * the sandbox's form may be framed by and may post its result to. Ignored by Stripe.
   */
  webOrigin: string;
  /** Where the form goes after success when it was opened as a page rather than framed. */
  returnUrl?: string;
  idempotencyKey?: string;
}

/** A saved card, as much as we may know of it. Never the number. */
export interface PaymentMethodSummary {
  id: string;
  customerId: string | null;
  /** visa, mastercard, amex, jcb, diners, discover, unionpay, unknown. */
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
  created: number;
}

// ── subscriptions ────────────────────────────────────────────────────────────────────────

/**
 * Stripe's subscription states:
 *   incomplete          the first payment has not succeeded yet (declined, or waiting for
 *                       3-D Secure: see `pendingAction`); grants nothing;
 *   incomplete_expired  the first payment never succeeded within 23 hours; terminal;
 *   active              paid for the current period;
 *   past_due            a renewal payment failed; retried during the grace period;
 *   canceled            ended (at period end after a cancel, or after the grace period); terminal;
 *   unpaid, trialing, paused: Stripe states this product does not use (mapped for completeness).
 */
export type SubscriptionStatus =
  | 'incomplete'
  | 'incomplete_expired'
  | 'active'
  | 'past_due'
  | 'canceled'
  | 'unpaid'
  | 'trialing'
  | 'paused';

/** What the cardholder must do in the browser before a payment can complete (3-D Secure). */
export type PaymentAction =
  | {
      /** Show `url` (the sandbox's challenge page) in an iframe or a page; result by postMessage from `origin`. */
      kind: 'sandbox_challenge';
      url: string;
      origin: string;
      paymentId: string;
    }
  | {
      /** Stripe.js: `stripe.confirmPayment({clientSecret, ...})` / `handleNextAction({clientSecret})`. */
      kind: 'stripe_confirm_payment';
      publishableKey: string;
      clientSecret: string;
    };

/** Why a payment or a card was refused; `message` is Japanese, for the user. */
export interface PaymentFailure {
  /** card_declined, insufficient_funds, expired_card, incorrect_cvc, incorrect_number,
   *  authentication_failed, processing_error, … */
  code: string;
  /** The issuer's reason when there is one (generic_decline, insufficient_funds, …). */
  declineCode?: string;
  message: string;
}

/** Our plan as the processor must charge it (from our database, never from the browser). */
export interface PlanPrice {
  /** Our plan key, e.g. "standard". Stripe maps it to a Price id (STRIPE_PRICE_IDS). */
  planId: string;
  amountJpy: Jpy;
  interval: 'day' | 'week' | 'month' | 'year';
  intervalCount: number;
  /** Shown on the processor's invoices, e.g. "スタンダードプラン". */
  name?: string;
}

export interface ProcessorSubscription {
  id: string;
  customerId: string;
  /** Our plan key (from the price's mapping or metadata); null when the price is not one of ours. */
  planId: string | null;
  status: SubscriptionStatus;
  amountJpy: Jpy;
  cancelAtPeriodEnd: boolean;
  currentPeriodStart: number;
  /** End of the paid period: the value of the paymentExpirationTime claim while it is active. */
  currentPeriodEnd: number;
  created: number;
  canceledAt: number | null;
  endedAt: number | null;
  /** Why it ended or will end: the user's cancel, or failed payments (null while it runs normally). */
  cancellationReason: 'cancellation_requested' | 'payment_failed' | null;
  defaultPaymentMethodId: string | null;
  latestInvoiceId: string | null;
  /** Non-null while the first payment waits for the cardholder (3-D Secure). */
  pendingAction: PaymentAction | null;
  metadata: Record<string, string>;
}

export interface CreateSubscriptionInput {
  customerId: string;
  plan: PlanPrice;
  /** The card saved by the card form (CardSetupSession.paymentMethodId). */
  paymentMethodId: string;
  /** Required: the same key returns the same subscription and charges once. */
  idempotencyKey: string;
  /** See CreateCardSetupInput.webOrigin: the 3-D Secure page posts its result there. */
  webOrigin: string;
  returnUrl?: string;
  /** Copied to the processor (uid is always added by the api). */
  metadata?: Record<string, string>;
}

/** The result of starting a subscription. */
export interface SubscriptionStart {
  subscription: ProcessorSubscription;
  /**
   * active            paid: grant the plan;
   * requires_action   run `action` in the browser (3-D Secure), then wait for the webhook or
   *                   read the subscription again;
   * declined          the first payment was refused (`failure`); the subscription stays
   *                   `incomplete`, grants nothing and expires; the user may try another card.
   */
  outcome: 'active' | 'requires_action' | 'declined';
  action: PaymentAction | null;
  failure: PaymentFailure | null;
}

// ── payment history ──────────────────────────────────────────────────────────────────────

export type InvoiceStatus = 'draft' | 'open' | 'paid' | 'uncollectible' | 'void';

/** One bill (the first payment or a renewal) and how its payment went. */
export interface ProcessorInvoice {
  id: string;
  customerId: string;
  subscriptionId: string | null;
  status: InvoiceStatus;
  amountDueJpy: Jpy;
  amountPaidJpy: Jpy;
  /** subscription_create (first payment), subscription_cycle (renewal), manual, … */
  billingReason: string | null;
  periodStart: number;
  periodEnd: number;
  created: number;
  /** When it was paid; null while unpaid. */
  paidAt: number | null;
  attemptCount: number;
  /** The next automatic retry of a failed renewal, if one is scheduled. */
  nextPaymentAttempt: number | null;
  lastFailure: PaymentFailure | null;
}

// ── webhooks ─────────────────────────────────────────────────────────────────────────────

export type SubscriptionEventType =
  | 'customer.subscription.created'
  | 'customer.subscription.updated'
  | 'customer.subscription.deleted';
export type InvoiceEventType = 'invoice.paid' | 'invoice.payment_failed';

interface EventBase {
  /** Unique per event (the processor may deliver one event several times: dedupe by id). */
  id: string;
  /** When it happened on the processor's clock; events may arrive out of order. */
  created: number;
}

export type ProcessorEvent =
  | (EventBase & { type: SubscriptionEventType; subscription: ProcessorSubscription })
  | (EventBase & { type: InvoiceEventType; invoice: ProcessorInvoice })
  /** Any other event type: acknowledge it (2xx) and ignore it. */
  | (EventBase & { type: 'other'; originalType: string });

export type WebhookErrorCode =
  /** No Stripe-Signature header. */
  | 'missing_signature'
  /** The header cannot be parsed (no t= or no v1=). */
  | 'malformed_signature'
  /** No v1 signature matches the body with our secret: forged or altered. */
  | 'bad_signature'
  /** Signed too long ago (or in the future): a replay. */
  | 'timestamp_out_of_tolerance'
  /** Signed correctly but not an event we can read. */
  | 'malformed_payload';

export type WebhookResult = { ok: true; event: ProcessorEvent } | { ok: false; error: WebhookErrorCode; message: string };

export interface VerifyWebhookInput {
  /** The request body exactly as received (before any JSON parsing). */
  rawBody: string | Buffer;
  /** The Stripe-Signature header. */
  signature: string | string[] | undefined;
}

// ── errors ───────────────────────────────────────────────────────────────────────────────

export type ProcessorErrorCode =
  | 'not_found'
  | 'invalid_request'
  /** The same idempotency key was used with different parameters, or is still in progress. */
  | 'idempotency_conflict'
  /** Our secret key was refused: a configuration error. */
  | 'authentication_failed'
  /** A card was refused while we called the processor (details in `failure`). */
  | 'card_error'
  | 'rate_limited'
  /** The processor could not be reached or answered 5xx: retry later with the same key. */
  | 'processor_unavailable'
  | 'configuration';

/** Every failed call rejects with this; `status` is the processor's HTTP status when there was one. */
export class PaymentProcessorError extends Error {
  readonly code: ProcessorErrorCode;
  readonly status?: number;
  readonly failure?: PaymentFailure;

  constructor(code: ProcessorErrorCode, message: string, details: { status?: number; failure?: PaymentFailure; cause?: unknown } = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'PaymentProcessorError';
    this.code = code;
    this.status = details.status;
    this.failure = details.failure;
  }
}

// ── the interface ────────────────────────────────────────────────────────────────────────

export interface PaymentProcessor {
  readonly name: ProcessorName;

  /** The customer for `uid`: the stored one (e-mail updated when it changed), else a new one. */
  ensureCustomer(input: EnsureCustomerInput): Promise<ProcessorCustomer>;
  getCustomer(customerId: string): Promise<ProcessorCustomer>;
  /** The billing e-mail (the function's `updateEmail`). */
  updateCustomerEmail(customerId: string, email: string): Promise<ProcessorCustomer>;

  /** Starts saving a card: what the web page mounts to show the processor's form. */
  createCardSetup(input: CreateCardSetupInput): Promise<CardSetupSession>;
  /** Reads a card setup (after the form said it finished: trust this, not the browser). */
  getCardSetup(setupId: string): Promise<CardSetupSession>;
  getPaymentMethod(paymentMethodId: string): Promise<PaymentMethodSummary>;
  listPaymentMethods(customerId: string): Promise<PaymentMethodSummary[]>;
  /** Makes a saved card the one future renewals use (the customer's and, if given, the subscription's). */
  setDefaultPaymentMethod(customerId: string, paymentMethodId: string, subscriptionId?: string): Promise<void>;

  /** Starts a subscription and attempts its first payment (JPY, from `plan`). */
  createSubscription(input: CreateSubscriptionInput): Promise<SubscriptionStart>;
  getSubscription(subscriptionId: string): Promise<ProcessorSubscription>;
  listSubscriptions(customerId: string): Promise<ProcessorSubscription[]>;
  /** Keeps the plan until current_period_end, then ends it (no more charges). */
  cancelAtPeriodEnd(subscriptionId: string, idempotencyKey?: string): Promise<ProcessorSubscription>;
  /** Undoes cancelAtPeriodEnd before the period ends. */
  resumeSubscription(subscriptionId: string, idempotencyKey?: string): Promise<ProcessorSubscription>;
  /** Ends it at once (account deletion, fraud); no refund is made here. */
  cancelNow(subscriptionId: string, idempotencyKey?: string): Promise<ProcessorSubscription>;

  /** Payment history, newest first. */
  listInvoices(customerId: string, options?: { limit?: number }): Promise<ProcessorInvoice[]>;

  /** Verifies a webhook's signature and age, then reads its event. Never throws. */
  verifyWebhook(input: VerifyWebhookInput): WebhookResult;
}
