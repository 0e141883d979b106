/**
 * Recorded-style Stripe objects for the adapter's tests, shaped as the API version pinned by the
 * installed SDK returns them (subscription periods on the item, the invoice's subscription under
 * parent.subscription_details, confirmation_secret on the invoice), plus the older shapes a
 * webhook endpoint pinned to an earlier version still sends. Amounts are JPY (zero-decimal).
 */
export const T0 = 1_790_000_000;
export const MONTH_END = T0 + 30 * 86_400;
export const PRICE_ID = 'price_1StdJpy980';
export const CLIENT_SECRET = 'pi_3PayIntent_secret_abc123';

export function customer(overrides: Record<string, unknown> = {}) {
  return {
    id: 'cus_Test123',
    object: 'customer',
    created: T0,
    email: 'buyer@example.com',
    metadata: { uid: 'uid-1' },
    invoice_settings: { default_payment_method: null },
    livemode: false,
    ...overrides,
  };
}

export function price(overrides: Record<string, unknown> = {}) {
  return {
    id: PRICE_ID,
    object: 'price',
    active: true,
    currency: 'jpy',
    unit_amount: 980,
    recurring: { interval: 'month', interval_count: 1, usage_type: 'licensed' },
    lookup_key: null,
    product: 'prod_Std',
    type: 'recurring',
    ...overrides,
  };
}

export function setupIntent(overrides: Record<string, unknown> = {}) {
  return {
    id: 'seti_Test123',
    object: 'setup_intent',
    client_secret: 'seti_Test123_secret_xyz',
    created: T0,
    customer: 'cus_Test123',
    last_setup_error: null,
    payment_method: null,
    status: 'requires_payment_method',
    usage: 'off_session',
    ...overrides,
  };
}

export function paymentMethod(overrides: Record<string, unknown> = {}) {
  return {
    id: 'pm_Card4242',
    object: 'payment_method',
    type: 'card',
    created: T0,
    customer: 'cus_Test123',
    card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2030, country: 'JP', funding: 'credit' },
    ...overrides,
  };
}

export function invoice(overrides: Record<string, unknown> = {}) {
  return {
    id: 'in_First',
    object: 'invoice',
    amount_due: 980,
    amount_paid: 0,
    amount_remaining: 980,
    attempt_count: 0,
    billing_reason: 'subscription_create',
    confirmation_secret: { client_secret: CLIENT_SECRET, type: 'payment_intent' },
    created: T0,
    currency: 'jpy',
    customer: 'cus_Test123',
    lines: { object: 'list', data: [{ id: 'il_1', object: 'line_item', amount: 980, currency: 'jpy', period: { start: T0, end: MONTH_END } }], has_more: false },
    next_payment_attempt: null,
    parent: { type: 'subscription_details', subscription_details: { subscription: 'sub_Test123', metadata: {} }, quote_details: null },
    period_end: T0,
    period_start: T0,
    status: 'open',
    status_transitions: { finalized_at: T0, paid_at: null, voided_at: null },
    ...overrides,
  };
}

export function subscription(overrides: Record<string, unknown> = {}) {
  return {
    id: 'sub_Test123',
    object: 'subscription',
    billing_cycle_anchor: T0,
    cancel_at: null,
    cancel_at_period_end: false,
    canceled_at: null,
    cancellation_details: { comment: null, feedback: null, reason: null },
    collection_method: 'charge_automatically',
    created: T0,
    currency: 'jpy',
    customer: 'cus_Test123',
    default_payment_method: 'pm_Card4242',
    ended_at: null,
    items: {
      object: 'list',
      data: [{ id: 'si_1', object: 'subscription_item', current_period_start: T0, current_period_end: MONTH_END, price: price(), quantity: 1 }],
      has_more: false,
    },
    latest_invoice: invoice(),
    metadata: { plan: 'standard', uid: 'uid-1' },
    start_date: T0,
    status: 'incomplete',
    ...overrides,
  };
}

/** A subscription as an endpoint pinned to an API version before 2025-03-31 renders it. */
export function legacySubscription(overrides: Record<string, unknown> = {}) {
  const modern = subscription(overrides);
  return {
    ...modern,
    current_period_start: T0,
    current_period_end: MONTH_END,
    items: { ...modern.items, data: [{ id: 'si_1', object: 'subscription_item', price: price(), quantity: 1 }] },
    latest_invoice: 'in_First',
  };
}

export function list(data: unknown[], url: string) {
  return { object: 'list', data, has_more: false, url };
}

export function event(type: string, object: unknown, overrides: Record<string, unknown> = {}) {
  return { id: `evt_${type.replace(/\W/g, '')}`, object: 'event', api_version: '2026-10-28.endive', created: T0 + 5, type, livemode: false, pending_webhooks: 1, data: { object }, ...overrides };
}

export function stripeError(status: number, error: Record<string, unknown>) {
  return { status, body: { error: { message: 'recorded error', ...error } } };
}
