/**
 * The sandbox's wire objects (wire.ts) → the processor interface's types (../processor.ts),
 * for the HTTP client and its webhook verifier. Pure functions, no I/O.
 */
import type {
  CardSetupSession,
  PaymentAction,
  PaymentFailure,
  PaymentMethodSummary,
  ProcessorCustomer,
  ProcessorEvent,
  ProcessorInvoice,
  ProcessorSubscription,
  SubscriptionStart,
} from '../processor';
import type { WireCustomer, WireError, WireEvent, WireInvoice, WirePaymentIntent, WirePaymentMethod, WireSetupIntent, WireSubscription } from './wire';

export function failureFrom(error: WireError | null | undefined): PaymentFailure | null {
  if (!error) return null;
  return { code: error.code ?? 'card_declined', ...(error.decline_code ? { declineCode: error.decline_code } : {}), message: error.message };
}

export function toCustomer(wire: WireCustomer): ProcessorCustomer {
  return {
    id: wire.id,
    uid: wire.metadata?.uid ?? '',
    email: wire.email,
    defaultPaymentMethodId: wire.invoice_settings?.default_payment_method ?? null,
    created: wire.created,
  };
}

export function toPaymentMethod(wire: WirePaymentMethod): PaymentMethodSummary {
  return {
    id: wire.id,
    customerId: wire.customer,
    brand: wire.card.brand,
    last4: wire.card.last4,
    expMonth: wire.card.exp_month,
    expYear: wire.card.exp_year,
    created: wire.created,
  };
}

export function toCardSetup(wire: WireSetupIntent): CardSetupSession {
  return {
    id: wire.id,
    customerId: wire.customer,
    status: wire.status,
    paymentMethodId: wire.payment_method,
    lastError: failureFrom(wire.last_setup_error),
    mount: { kind: 'sandbox_iframe', url: wire.hosted_form_url, origin: wire.hosted_form_origin },
    created: wire.created,
  };
}

function actionFrom(payment: WirePaymentIntent | null): PaymentAction | null {
  if (!payment || payment.status !== 'requires_action' || !payment.next_action) return null;
  const url = payment.next_action.redirect_to_url.url;
  return { kind: 'sandbox_challenge', url, origin: new URL(url).origin, paymentId: payment.id };
}

export function toSubscription(wire: WireSubscription): ProcessorSubscription {
  return {
    id: wire.id,
    customerId: wire.customer,
    planId: wire.plan.id,
    status: wire.status,
    amountJpy: wire.plan.amount,
    cancelAtPeriodEnd: wire.cancel_at_period_end,
    currentPeriodStart: wire.current_period_start,
    currentPeriodEnd: wire.current_period_end,
    created: wire.created,
    canceledAt: wire.canceled_at,
    endedAt: wire.ended_at,
    cancellationReason: wire.cancellation_details?.reason ?? null,
    defaultPaymentMethodId: wire.default_payment_method,
    latestInvoiceId: wire.latest_invoice,
    pendingAction: wire.status === 'incomplete' ? actionFrom(wire.latest_payment) : null,
    metadata: wire.metadata ?? {},
  };
}

/** What createSubscription tells the api: paid, waiting for 3-D Secure, or declined. */
export function toSubscriptionStart(wire: WireSubscription): SubscriptionStart {
  const subscription = toSubscription(wire);
  if (wire.status === 'active') return { subscription, outcome: 'active', action: null, failure: null };
  if (subscription.pendingAction) return { subscription, outcome: 'requires_action', action: subscription.pendingAction, failure: null };
  return {
    subscription,
    outcome: 'declined',
    action: null,
    failure: failureFrom(wire.latest_payment?.last_payment_error) ?? { code: 'card_declined', message: 'カードが承認されませんでした。' },
  };
}

export function toInvoice(wire: WireInvoice): ProcessorInvoice {
  return {
    id: wire.id,
    customerId: wire.customer,
    subscriptionId: wire.subscription,
    status: wire.status,
    amountDueJpy: wire.amount_due,
    amountPaidJpy: wire.amount_paid,
    billingReason: wire.billing_reason,
    periodStart: wire.period_start,
    periodEnd: wire.period_end,
    created: wire.created,
    paidAt: wire.status_transitions?.paid_at ?? null,
    attemptCount: wire.attempt_count,
    nextPaymentAttempt: wire.next_payment_attempt,
    lastFailure: failureFrom(wire.last_payment_error),
  };
}

/** A parsed, already verified event body → our event; throws on a shape we cannot read. */
export function toEvent(wire: WireEvent): ProcessorEvent {
  if (typeof wire?.id !== 'string' || typeof wire.type !== 'string' || typeof wire.created !== 'number' || wire.object !== 'event') {
    throw new Error('not an event');
  }
  const base = { id: wire.id, created: wire.created };
  const object = wire.data?.object;
  switch (wire.type) {
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted':
      if (object?.object !== 'subscription') throw new Error('subscription event without a subscription');
      return { ...base, type: wire.type, subscription: toSubscription(object) };
    case 'invoice.paid':
    case 'invoice.payment_failed':
      if (object?.object !== 'invoice') throw new Error('invoice event without an invoice');
      return { ...base, type: wire.type, invoice: toInvoice(object) };
    default:
      return { ...base, type: 'other', originalType: wire.type };
  }
}
