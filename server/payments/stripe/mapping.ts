/**
 * Stripe's objects (SDK types, API version of the installed `stripe` package) → the processor
 * interface's types. Written to read webhook payloads of older API versions too (a webhook
 * endpoint renders events in its own pinned version): the period of a subscription is read from
 * its first item (2025-03-31 and later) or from the subscription itself (earlier), and an
 * invoice's subscription from `parent.subscription_details` or the older `subscription` field.
 */
import type Stripe from 'stripe';
import { failure } from '../failures';
import type {
  CardSetupSession,
  CardSetupStatus,
  InvoiceStatus,
  PaymentAction,
  PaymentMethodSummary,
  ProcessorCustomer,
  ProcessorInvoice,
  ProcessorSubscription,
  SubscriptionStatus,
} from '../processor';

type Ref<T extends { id: string }> = string | T | null | undefined;

export function idOf<T extends { id: string }>(ref: Ref<T>): string | null {
  if (!ref) return null;
  return typeof ref === 'string' ? ref : ref.id;
}

export function toCustomer(customer: Stripe.Customer): ProcessorCustomer {
  return {
    id: customer.id,
    uid: customer.metadata?.uid ?? '',
    email: customer.email ?? null,
    defaultPaymentMethodId: idOf(customer.invoice_settings?.default_payment_method),
    created: customer.created,
  };
}

export function toPaymentMethod(method: Stripe.PaymentMethod): PaymentMethodSummary {
  const card = method.card;
  return {
    id: method.id,
    customerId: idOf(method.customer),
    brand: card?.brand ?? 'unknown',
    last4: card?.last4 ?? '',
    expMonth: card?.exp_month ?? 0,
    expYear: card?.exp_year ?? 0,
    created: method.created,
  };
}

const SETUP_STATUS: Record<string, CardSetupStatus> = {
  requires_payment_method: 'requires_payment_method',
  requires_confirmation: 'requires_payment_method',
  requires_action: 'requires_action',
  processing: 'processing',
  succeeded: 'succeeded',
  canceled: 'canceled',
};

export function toCardSetup(intent: Stripe.SetupIntent, publishableKey: string): CardSetupSession {
  const error = intent.last_setup_error;
  return {
    id: intent.id,
    customerId: idOf(intent.customer) ?? '',
    status: SETUP_STATUS[intent.status] ?? 'requires_payment_method',
    paymentMethodId: intent.status === 'succeeded' ? idOf(intent.payment_method) : null,
    lastError: error ? failure(error.code ?? 'card_declined', error.decline_code ?? undefined) : null,
    mount: { kind: 'stripe_payment_element', publishableKey, clientSecret: intent.client_secret ?? '' },
    created: intent.created,
  };
}

const STATUSES: SubscriptionStatus[] = ['incomplete', 'incomplete_expired', 'active', 'past_due', 'canceled', 'unpaid', 'trialing', 'paused'];

/** The pieces of a subscription that moved between API versions, read from wherever they are. */
function period(subscription: Stripe.Subscription): { start: number; end: number } {
  const item = subscription.items?.data?.[0] as (Stripe.SubscriptionItem & { current_period_start?: number; current_period_end?: number }) | undefined;
  const legacy = subscription as unknown as { current_period_start?: number; current_period_end?: number };
  return {
    start: item?.current_period_start ?? legacy.current_period_start ?? subscription.start_date,
    end: item?.current_period_end ?? legacy.current_period_end ?? subscription.start_date,
  };
}

export interface PlanLookup {
  /** Stripe Price id → our plan key. */
  planForPrice(priceId: string): string | null;
  publishableKey: string;
}

/** The browser step of an incomplete subscription's first invoice (default_incomplete). */
export function pendingActionOf(subscription: Stripe.Subscription, publishableKey: string): PaymentAction | null {
  if (subscription.status !== 'incomplete') return null;
  const invoice = subscription.latest_invoice;
  if (!invoice || typeof invoice === 'string' || invoice.status !== 'open') return null;
  const secret = invoice.confirmation_secret?.client_secret;
  return secret ? { kind: 'stripe_confirm_payment', publishableKey, clientSecret: secret } : null;
}

export function toSubscription(subscription: Stripe.Subscription, plans: PlanLookup): ProcessorSubscription {
  const item = subscription.items?.data?.[0];
  const price = item?.price;
  const { start, end } = period(subscription);
  const reason = subscription.cancellation_details?.reason ?? null;
  const cancelAt = subscription.cancel_at ?? null;
  return {
    id: subscription.id,
    customerId: idOf(subscription.customer) ?? '',
    planId: (price && plans.planForPrice(price.id)) ?? price?.lookup_key ?? subscription.metadata?.plan ?? null,
    status: (STATUSES as string[]).includes(subscription.status) ? (subscription.status as SubscriptionStatus) : 'incomplete',
    amountJpy: (price?.unit_amount ?? 0) * (item?.quantity ?? 1),
    cancelAtPeriodEnd: subscription.cancel_at_period_end || (cancelAt !== null && cancelAt <= end),
    currentPeriodStart: start,
    currentPeriodEnd: end,
    created: subscription.created,
    canceledAt: subscription.canceled_at ?? null,
    endedAt: subscription.ended_at ?? null,
    cancellationReason: reason === null ? null : reason === 'cancellation_requested' ? 'cancellation_requested' : 'payment_failed',
    defaultPaymentMethodId: idOf(subscription.default_payment_method),
    latestInvoiceId: idOf(subscription.latest_invoice),
    pendingAction: pendingActionOf(subscription, plans.publishableKey),
    metadata: { ...(subscription.metadata ?? {}) },
  };
}

const INVOICE_STATUSES: InvoiceStatus[] = ['draft', 'open', 'paid', 'uncollectible', 'void'];

export function toInvoice(invoice: Stripe.Invoice): ProcessorInvoice {
  const legacy = invoice as unknown as { subscription?: string | { id: string } | null };
  const subscriptionRef = invoice.parent?.subscription_details?.subscription ?? legacy.subscription ?? null;
  // The service period is on the line; the invoice's own period_* is the usage period before it.
  const line = invoice.lines?.data?.[0];
  return {
    id: invoice.id ?? '',
    customerId: idOf(invoice.customer as Ref<{ id: string }>) ?? '',
    subscriptionId: idOf(subscriptionRef),
    status: INVOICE_STATUSES.includes(invoice.status as InvoiceStatus) ? (invoice.status as InvoiceStatus) : 'draft',
    amountDueJpy: invoice.amount_due,
    amountPaidJpy: invoice.amount_paid,
    billingReason: invoice.billing_reason ?? null,
    periodStart: line?.period?.start ?? invoice.period_start,
    periodEnd: line?.period?.end ?? invoice.period_end,
    created: invoice.created,
    paidAt: invoice.status_transitions?.paid_at ?? null,
    attemptCount: invoice.attempt_count,
    nextPaymentAttempt: invoice.next_payment_attempt ?? null,
    lastFailure: null,
  };
}
