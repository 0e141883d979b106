/**
 * Rows → the sandbox's Stripe-shaped JSON (wire.ts), as the HTTP API answers and webhooks
 * carry them. Hosted page addresses (the card form, the 3-D Secure page) are built from the
 * sandbox's public origin, so browsers load them from the processor's origin, not ours.
 */
import type { PaymentIntentRow, CustomerRow, InvoiceRow, PaymentMethodRow, SetupIntentRow, SubscriptionRow } from './store';
import type {
  WireCustomer,
  WireInvoice,
  WirePaymentIntent,
  WirePaymentMethod,
  WireSetupIntent,
  WireSubscription,
} from './wire';

export interface Urls {
  /** The sandbox's public origin, e.g. http://127.0.0.1:8300. */
  publicUrl: string;
}

export function cardFormUrl(urls: Urls, clientSecret: string): string {
  return `${urls.publicUrl}/hosted/card-form?client_secret=${encodeURIComponent(clientSecret)}`;
}

export function challengeUrl(urls: Urls, clientSecret: string): string {
  return `${urls.publicUrl}/hosted/3ds?client_secret=${encodeURIComponent(clientSecret)}`;
}

export function customerJson(row: CustomerRow): WireCustomer {
  return {
    id: row.id,
    object: 'customer',
    email: row.email,
    metadata: row.metadata ?? {},
    invoice_settings: { default_payment_method: row.default_payment_method },
    created: row.created,
  };
}

export function paymentMethodJson(row: PaymentMethodRow): WirePaymentMethod {
  return {
    id: row.id,
    object: 'payment_method',
    type: 'card',
    customer: row.customer_id,
    card: { brand: row.brand, last4: row.last4, exp_month: row.exp_month, exp_year: row.exp_year },
    created: row.created,
  };
}

export function setupIntentJson(row: SetupIntentRow, urls: Urls): WireSetupIntent {
  return {
    id: row.id,
    object: 'setup_intent',
    customer: row.customer_id,
    status: row.status,
    client_secret: row.client_secret,
    payment_method: row.payment_method_id,
    last_setup_error: row.last_error,
    hosted_form_url: cardFormUrl(urls, row.client_secret),
    hosted_form_origin: urls.publicUrl,
    created: row.created,
  };
}

export function paymentIntentJson(row: PaymentIntentRow, urls: Urls): WirePaymentIntent {
  return {
    id: row.id,
    object: 'payment_intent',
    amount: row.amount,
    currency: 'jpy',
    status: row.status,
    invoice: row.invoice_id,
    payment_method: row.payment_method_id,
    last_payment_error: row.last_error,
    next_action:
      row.status === 'requires_action'
        ? { type: 'redirect_to_url', redirect_to_url: { url: challengeUrl(urls, row.client_secret), return_url: row.return_url } }
        : null,
    created: row.created,
  };
}

export function subscriptionJson(row: SubscriptionRow, latestPayment: PaymentIntentRow | null, urls: Urls): WireSubscription {
  return {
    id: row.id,
    object: 'subscription',
    customer: row.customer_id,
    status: row.status,
    plan: {
      id: row.plan_id,
      name: row.plan_name,
      amount: row.amount,
      currency: 'jpy',
      interval: row.interval,
      interval_count: row.interval_count,
    },
    cancel_at_period_end: row.cancel_at_period_end,
    current_period_start: row.current_period_start,
    current_period_end: row.current_period_end,
    billing_cycle_anchor: row.billing_cycle_anchor,
    created: row.created,
    canceled_at: row.canceled_at,
    ended_at: row.ended_at,
    cancellation_details: { reason: row.cancellation_reason },
    default_payment_method: row.default_payment_method,
    latest_invoice: row.latest_invoice,
    latest_payment: latestPayment ? paymentIntentJson(latestPayment, urls) : null,
    metadata: row.metadata ?? {},
  };
}

export function invoiceJson(row: InvoiceRow): WireInvoice {
  return {
    id: row.id,
    object: 'invoice',
    customer: row.customer_id,
    subscription: row.subscription_id,
    status: row.status,
    amount_due: row.amount_due,
    amount_paid: row.amount_paid,
    currency: 'jpy',
    billing_reason: row.billing_reason,
    period_start: row.period_start,
    period_end: row.period_end,
    created: row.created,
    status_transitions: { paid_at: row.paid_at },
    attempt_count: row.attempt_count,
    next_payment_attempt: row.next_payment_attempt,
    payment_intent: row.payment_intent,
    last_payment_error: row.last_error,
  };
}
