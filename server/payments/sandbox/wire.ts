/**
 * The sandbox's wire format: the JSON its HTTP API answers and its webhooks carry, shaped like
 * Stripe's objects (snake_case, `object` names, unix-second times, amounts as integers in the
 * currency's smallest unit, which for JPY is the yen). Shared by the server (objects.ts builds
 * these from rows) and the client (client-mapping.ts reads them), so the two cannot drift.
 */

export interface WireError {
  type: 'card_error' | 'invalid_request_error' | 'idempotency_error' | 'authentication_error' | 'api_error';
  code?: string;
  decline_code?: string;
  /** Japanese for card errors (shown to the user); English for programming errors. */
  message: string;
  param?: string;
}

export interface WireList<T> {
  object: 'list';
  data: T[];
  has_more: boolean;
  url: string;
}

export interface WireCustomer {
  id: string;
  object: 'customer';
  email: string | null;
  metadata: Record<string, string>;
  invoice_settings: { default_payment_method: string | null };
  created: number;
}

export interface WirePaymentMethod {
  id: string;
  object: 'payment_method';
  type: 'card';
  customer: string | null;
  card: { brand: string; last4: string; exp_month: number; exp_year: number };
  created: number;
}

export interface WireSetupIntent {
  id: string;
  object: 'setup_intent';
  customer: string;
  status: 'requires_payment_method' | 'succeeded' | 'canceled';
  client_secret: string;
  payment_method: string | null;
  last_setup_error: WireError | null;
  /** Sandbox: the hosted card form for this setup (frame it, or open it as a page). */
  hosted_form_url: string;
  hosted_form_origin: string;
  created: number;
}

export interface WireNextAction {
  type: 'redirect_to_url';
  redirect_to_url: { url: string; return_url: string | null };
}

export interface WirePaymentIntent {
  id: string;
  object: 'payment_intent';
  amount: number;
  currency: 'jpy';
  status: 'requires_action' | 'succeeded' | 'requires_payment_method';
  invoice: string;
  payment_method: string | null;
  last_payment_error: WireError | null;
  next_action: WireNextAction | null;
  created: number;
}

export interface WirePlan {
  /** Our plan key. */
  id: string | null;
  name: string | null;
  amount: number;
  currency: 'jpy';
  interval: 'day' | 'week' | 'month' | 'year';
  interval_count: number;
}

export type WireSubscriptionStatus = 'incomplete' | 'incomplete_expired' | 'active' | 'past_due' | 'canceled';

export interface WireSubscription {
  id: string;
  object: 'subscription';
  customer: string;
  status: WireSubscriptionStatus;
  plan: WirePlan;
  cancel_at_period_end: boolean;
  current_period_start: number;
  current_period_end: number;
  billing_cycle_anchor: number;
  created: number;
  canceled_at: number | null;
  ended_at: number | null;
  cancellation_details: { reason: 'cancellation_requested' | 'payment_failed' | null };
  default_payment_method: string | null;
  latest_invoice: string | null;
  /** The latest invoice's payment (its 3-D Secure step while `requires_action`). */
  latest_payment: WirePaymentIntent | null;
  metadata: Record<string, string>;
}

export type WireInvoiceStatus = 'open' | 'paid' | 'uncollectible' | 'void';

export interface WireInvoice {
  id: string;
  object: 'invoice';
  customer: string;
  subscription: string | null;
  status: WireInvoiceStatus;
  amount_due: number;
  amount_paid: number;
  currency: 'jpy';
  billing_reason: 'subscription_create' | 'subscription_cycle';
  period_start: number;
  period_end: number;
  created: number;
  status_transitions: { paid_at: number | null };
  attempt_count: number;
  next_payment_attempt: number | null;
  payment_intent: string | null;
  last_payment_error: WireError | null;
}

export type WireEventType =
  | 'customer.subscription.created'
  | 'customer.subscription.updated'
  | 'customer.subscription.deleted'
  | 'invoice.paid'
  | 'invoice.payment_failed'
  | 'setup_intent.succeeded'
  | 'setup_intent.setup_failed';

export interface WireEvent {
  id: string;
  object: 'event';
  api_version: string;
  created: number;
  type: WireEventType;
  livemode: false;
  data: { object: WireSubscription | WireInvoice | WireSetupIntent };
}

export const SANDBOX_API_VERSION = 'sandbox-2026-01';
