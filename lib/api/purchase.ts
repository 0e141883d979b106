/**
 * The purchase client (issue 9; wire shapes from lib/api-types/schemas/payments.ts, docs/purchase.md):
 * plans (public), the spec's GET /api/subscriptions (newest created first, the first is used),
 * and the verified user's purchase calls: card setup, subscribe, confirm after 3-D Secure,
 * cancel at period end, resume, change card, the settings summary. Every call goes through the
 * one api client (lib/api/client.ts: bearer, timeouts, Japanese messages). Answers are checked
 * and mapped to camelCase here; a malformed answer is `bad_response`. Amounts and plans always
 * come from the server: the browser sends only ids and its idempotency key.
 */
import type {
  CardFormMountWire,
  CardSetupAnswer,
  CardWire,
  InvoiceWire,
  PaymentActionWire,
  PlanListAnswer,
  PlanWire,
  PurchaseAnswer,
  PurchaseSummaryAnswer,
  SubscriptionAnswer,
  SubscriptionListAnswer,
  SubscriptionStatus,
  SubscriptionWire,
} from '@/lib/api-types/schemas/payments';
import type { AgeRating } from '@/lib/api-types/schemas/catalog';
import { apiRequest, clientError } from './client';
import { catalogBaseUrl, fetchTitles } from './catalog';

export type { SubscriptionStatus };

export interface Plan {
  id: string;
  name: string;
  /** One period's price in yen, tax included. */
  amountJpy: number;
  interval: PlanWire['interval'];
  intervalCount: number;
}

export interface Card {
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
}

export interface Subscription {
  id: string;
  status: SubscriptionStatus;
  plan: Plan;
  /** Unix seconds. */
  created: number;
  currentPeriodStart: number;
  currentPeriodEnd: number;
  cancelAtPeriodEnd: boolean;
  canceledAt: number | null;
  endedAt: number | null;
  /** The server's decision: true while it grants the plan. */
  entitled: boolean;
  /** Until when it grants the plan (the claim's value); null when it grants nothing. */
  accessUntil: number | null;
  card: Card | null;
}

export type CardFormMount = { kind: 'sandbox_iframe'; url: string; origin: string } | { kind: 'stripe_payment_element'; publishableKey: string; clientSecret: string };

export type PaymentAction =
  | { kind: 'sandbox_challenge'; url: string; origin: string; paymentId: string }
  | { kind: 'stripe_confirm_payment'; publishableKey: string; clientSecret: string };

export interface CardSetup {
  setupId: string;
  mount: CardFormMount;
}

export interface PurchaseResult {
  result: 'active' | 'requires_action';
  subscription: Subscription;
  action: PaymentAction | null;
}

export interface Invoice {
  id: string;
  status: InvoiceWire['status'];
  amountDueJpy: number;
  amountPaidJpy: number;
  billingReason: string | null;
  periodStart: number;
  periodEnd: number;
  created: number;
  paidAt: number | null;
  failureMessage: string | null;
}

export interface PurchaseSummary {
  entitled: boolean;
  accessUntil: number | null;
  subscription: Subscription | null;
  card: Card | null;
  invoices: Invoice[];
}

/** A premium title, as the purchase pages link to it. */
export interface PremiumTitle {
  id: string;
  title: string;
  keyArt: string;
  ageRating: AgeRating;
}

// ── checks and mappings ────────────────────────────────────────────────────────────────────

const bad = () => clientError('bad_response');
const isStr = (v: unknown): v is string => typeof v === 'string';
const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);
const isTime = (v: unknown): v is number => isInt(v) && v >= 0;
const isTimeOrNull = (v: unknown): v is number | null => v === null || isTime(v);

function need(ok: boolean): void {
  if (!ok) throw bad();
}

export function toPlan(w: PlanWire): Plan {
  need(!!w && isStr(w.id) && isStr(w.name) && isInt(w.amount_jpy) && w.amount_jpy >= 0 && isStr(w.interval) && isInt(w.interval_count));
  return { id: w.id, name: w.name, amountJpy: w.amount_jpy, interval: w.interval, intervalCount: w.interval_count };
}

function toCard(w: CardWire | null | undefined): Card | null {
  if (!w) return null;
  need(isStr(w.brand) && isStr(w.last4) && isInt(w.exp_month) && isInt(w.exp_year));
  return { brand: w.brand, last4: w.last4, expMonth: w.exp_month, expYear: w.exp_year };
}

export function toSubscription(w: SubscriptionWire): Subscription {
  need(
    !!w &&
      isStr(w.id) &&
      isStr(w.status) &&
      isTime(w.created) &&
      isTime(w.current_period_start) &&
      isTime(w.current_period_end) &&
      typeof w.cancel_at_period_end === 'boolean' &&
      typeof w.entitled === 'boolean' &&
      isTimeOrNull(w.access_until) &&
      isTimeOrNull(w.canceled_at ?? null) &&
      isTimeOrNull(w.ended_at ?? null),
  );
  return {
    id: w.id,
    status: w.status,
    plan: toPlan(w.plan),
    created: w.created,
    currentPeriodStart: w.current_period_start,
    currentPeriodEnd: w.current_period_end,
    cancelAtPeriodEnd: w.cancel_at_period_end,
    canceledAt: w.canceled_at ?? null,
    endedAt: w.ended_at ?? null,
    entitled: w.entitled,
    accessUntil: w.access_until,
    card: toCard(w.card),
  };
}

function toMount(w: CardFormMountWire): CardFormMount {
  if (w?.kind === 'sandbox_iframe' && isStr(w.url) && isStr(w.origin)) return { kind: 'sandbox_iframe', url: w.url, origin: w.origin };
  if (w?.kind === 'stripe_payment_element' && isStr(w.publishable_key) && isStr(w.client_secret)) {
    return { kind: 'stripe_payment_element', publishableKey: w.publishable_key, clientSecret: w.client_secret };
  }
  throw bad();
}

function toAction(w: PaymentActionWire | null | undefined): PaymentAction | null {
  if (!w) return null;
  if (w.kind === 'sandbox_challenge' && isStr(w.url) && isStr(w.origin) && isStr(w.payment_id)) {
    return { kind: 'sandbox_challenge', url: w.url, origin: w.origin, paymentId: w.payment_id };
  }
  if (w.kind === 'stripe_confirm_payment' && isStr(w.publishable_key) && isStr(w.client_secret)) {
    return { kind: 'stripe_confirm_payment', publishableKey: w.publishable_key, clientSecret: w.client_secret };
  }
  throw bad();
}

function toInvoice(w: InvoiceWire): Invoice {
  need(!!w && isStr(w.id) && isStr(w.status) && isInt(w.amount_due_jpy) && isInt(w.amount_paid_jpy) && isTime(w.created) && isTimeOrNull(w.paid_at));
  return {
    id: w.id,
    status: w.status,
    amountDueJpy: w.amount_due_jpy,
    amountPaidJpy: w.amount_paid_jpy,
    billingReason: w.billing_reason ?? null,
    periodStart: w.period_start,
    periodEnd: w.period_end,
    created: w.created,
    paidAt: w.paid_at,
    failureMessage: w.failure_message ?? null,
  };
}

function toPurchase(r: PurchaseAnswer): PurchaseResult {
  need(r.result === 'active' || r.result === 'requires_action');
  const action = toAction(r.action);
  if (r.result === 'requires_action' && !action) throw bad();
  return { result: r.result, subscription: toSubscription(r.subscription), action };
}

/** Newest created first (the spec: the product sorts the list so and uses the first). */
export function newestFirst<T extends { created: number }>(list: readonly T[]): T[] {
  return [...list].sort((a, b) => b.created - a.created);
}

// ── calls ──────────────────────────────────────────────────────────────────────────────────

/** The Next.js server renders /upgrade for a waiting visitor: give up sooner than the browser. */
const SERVER_TIMEOUT_MS = 8_000;

/** GET /v1/plans (public): the plans on offer, in display order. Works on the Next.js server too. */
export async function fetchPlans(): Promise<Plan[]> {
  const r = await apiRequest<PlanListAnswer>('/v1/plans', {
    auth: false,
    baseUrl: catalogBaseUrl(),
    timeoutMs: typeof window === 'undefined' ? SERVER_TIMEOUT_MS : undefined,
  });
  need(Array.isArray(r.plans));
  return r.plans.map(toPlan);
}

/** The premium titles of the catalogue (public, lib/api/catalog.ts), for the plan's benefits and "play now" links. */
export async function fetchPremiumTitles(limit = 100): Promise<PremiumTitle[]> {
  const { items } = await fetchTitles({ sort: 'popular', limit });
  return items.filter((t) => t.premium).map(({ id, title, keyArt, ageRating }) => ({ id, title, keyArt, ageRating }));
}

/** GET /api/subscriptions (spec section 7): the caller's subscriptions, newest created first. */
export async function fetchSubscriptions(): Promise<Subscription[]> {
  const r = await apiRequest<SubscriptionListAnswer>('/api/subscriptions');
  need(Array.isArray(r.subscriptions));
  return newestFirst(r.subscriptions.map(toSubscription));
}

/** The subscription the product uses: the newest created (spec section 3), or null. */
export async function fetchCurrentSubscription(): Promise<Subscription | null> {
  return (await fetchSubscriptions())[0] ?? null;
}

/** POST /v1/purchase/card-setup: a card form session for the caller. */
export async function createCardSetup(): Promise<CardSetup> {
  const r = await apiRequest<CardSetupAnswer>('/v1/purchase/card-setup', { method: 'POST', body: {} });
  need(isStr(r.setup_id) && !!r.setup_id);
  return { setupId: r.setup_id, mount: toMount(r.mount) };
}

/**
 * POST /v1/purchase/subscribe. The same idempotencyKey replays the first answer (a double click
 * or a retry after a timeout charges once). A refused card throws ApiClientError card_declined /
 * payment_failed with the processor's Japanese message.
 */
export async function subscribe(input: { planId: string; setupId: string; idempotencyKey: string }): Promise<PurchaseResult> {
  return toPurchase(await apiRequest<PurchaseAnswer>('/v1/purchase/subscribe', { method: 'POST', body: input }));
}

/** POST /v1/purchase/confirm: after the 3-D Secure step. */
export async function confirmPurchase(subscriptionId: string): Promise<PurchaseResult> {
  return toPurchase(await apiRequest<PurchaseAnswer>('/v1/purchase/confirm', { method: 'POST', body: { subscriptionId } }));
}

async function subscriptionCall(path: string, body: object = {}): Promise<Subscription> {
  const r = await apiRequest<SubscriptionAnswer>(path, { method: 'POST', body });
  return toSubscription(r.subscription);
}

/** POST /v1/purchase/cancel: ends at the period end; no further charge. */
export function cancelSubscription(): Promise<Subscription> {
  return subscriptionCall('/v1/purchase/cancel');
}

/** POST /v1/purchase/resume: undoes a cancel before the period end. */
export function resumeSubscription(): Promise<Subscription> {
  return subscriptionCall('/v1/purchase/resume');
}

/** POST /v1/purchase/card: renewals are charged to the card saved by this setup. */
export function changeCard(setupId: string): Promise<Subscription> {
  return subscriptionCall('/v1/purchase/card', { setupId });
}

/** GET /v1/purchase/summary: plan, card and payment history for /settings/purchase. */
export async function fetchPurchaseSummary(): Promise<PurchaseSummary> {
  const r = await apiRequest<PurchaseSummaryAnswer>('/v1/purchase/summary');
  need(typeof r.entitled === 'boolean' && isTimeOrNull(r.access_until) && Array.isArray(r.invoices));
  return {
    entitled: r.entitled,
    accessUntil: r.access_until,
    subscription: r.subscription ? toSubscription(r.subscription) : null,
    card: toCard(r.card),
    invoices: r.invoices.map(toInvoice),
  };
}
