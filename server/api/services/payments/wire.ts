/** Payments records and processor objects → the wire shapes of lib/api-types/schemas/payments.ts. */
import type {
  CardFormMountWire,
  CardWire,
  InvoiceWire,
  PaymentActionWire,
  PlanWire,
  SubscriptionWire,
} from '../../../../lib/api-types/schemas/payments';
import type { CardFormMount, PaymentAction, PlanPrice, ProcessorInvoice } from '../../../payments';
import type { PlanRow, SubscriptionRow } from './repository';
import { unixSeconds } from './rules';

export function planWire(plan: PlanRow): PlanWire {
  return { id: plan.id, name: plan.name, amount_jpy: plan.amount_jpy, tax_included: true, interval: plan.interval, interval_count: plan.interval_count };
}

/** What the processor is told to charge: from our plans table only, never from a request. */
export function planPrice(plan: PlanRow): PlanPrice {
  return { planId: plan.id, name: plan.name, amountJpy: plan.amount_jpy, interval: plan.interval, intervalCount: plan.interval_count };
}

export function cardWire(row: SubscriptionRow): CardWire | null {
  if (!row.card_brand || !row.card_last4) return null;
  return { brand: row.card_brand, last4: row.card_last4, exp_month: row.card_exp_month ?? 0, exp_year: row.card_exp_year ?? 0 };
}

/** The claim-style end of what the record grants (the period end; the grace end when past due). */
export function accessUntil(row: SubscriptionRow): number | null {
  if (!row.entitled) return null;
  const until = row.status === 'past_due' ? row.grace_until : row.current_period_end;
  return until ? unixSeconds(until) : null;
}

export function subscriptionWire(row: SubscriptionRow): SubscriptionWire {
  return {
    id: row.id,
    status: row.status,
    // The plan as this subscription is charged (its amount, even if the plan's price changed since).
    plan: { id: row.plan_id, name: row.plan_name, amount_jpy: row.amount_jpy, tax_included: true, interval: row.plan_interval, interval_count: row.plan_interval_count },
    created: unixSeconds(row.created),
    current_period_start: unixSeconds(row.current_period_start),
    current_period_end: unixSeconds(row.current_period_end),
    cancel_at_period_end: row.cancel_at_period_end,
    canceled_at: row.canceled_at ? unixSeconds(row.canceled_at) : null,
    ended_at: row.ended_at ? unixSeconds(row.ended_at) : null,
    entitled: row.entitled,
    access_until: accessUntil(row),
    card: cardWire(row),
  };
}

export function mountWire(mount: CardFormMount): CardFormMountWire {
  return mount.kind === 'sandbox_iframe'
    ? { kind: 'sandbox_iframe', url: mount.url, origin: mount.origin }
    : { kind: 'stripe_payment_element', publishable_key: mount.publishableKey, client_secret: mount.clientSecret };
}

export function actionWire(action: PaymentAction): PaymentActionWire {
  return action.kind === 'sandbox_challenge'
    ? { kind: 'sandbox_challenge', url: action.url, origin: action.origin, payment_id: action.paymentId }
    : { kind: 'stripe_confirm_payment', publishable_key: action.publishableKey, client_secret: action.clientSecret };
}

export function invoiceWire(invoice: ProcessorInvoice): InvoiceWire {
  return {
    id: invoice.id,
    status: invoice.status,
    amount_due_jpy: invoice.amountDueJpy,
    amount_paid_jpy: invoice.amountPaidJpy,
    billing_reason: invoice.billingReason,
    period_start: invoice.periodStart,
    period_end: invoice.periodEnd,
    created: invoice.created,
    paid_at: invoice.paidAt,
    failure_message: invoice.lastFailure?.message ?? null,
  };
}
