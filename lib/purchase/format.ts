/**
 * How the purchase pages write plans, prices, cards and payments in Japanese: "980円（税込）",
 * "1か月ごと", "VISA •••• 4242", subscription and invoice states, and the messages of the card
 * forms. Prices always come from the api's plans (GET /v1/plans); this module only formats them.
 */
import type { Card, Invoice, Plan, SubscriptionStatus } from '@/lib/api/purchase';
import { formatPlanDate } from './plan';

export { formatPlanDate };

/** 980 → "980円" (yen have no minor unit). */
export function formatYen(amount: number): string {
  return `${amount.toLocaleString('ja-JP')}円`;
}

const UNIT: Record<Plan['interval'], string> = { day: '日', week: '週間', month: 'か月', year: '年' };

/** The period of one charge: "1か月", "3か月", "1年". */
export function periodLabel(plan: Pick<Plan, 'interval' | 'intervalCount'>): string {
  return `${plan.intervalCount}${UNIT[plan.interval]}`;
}

/** "月額 980円（税込）", or "3か月ごと 2,700円（税込）". */
export function priceLabel(plan: Pick<Plan, 'interval' | 'intervalCount' | 'amountJpy'>): string {
  const price = `${formatYen(plan.amountJpy)}（税込）`;
  if (plan.intervalCount === 1 && plan.interval === 'month') return `月額 ${price}`;
  if (plan.intervalCount === 1 && plan.interval === 'year') return `年額 ${price}`;
  return `${periodLabel(plan)}ごと ${price}`;
}

const BRANDS: Record<string, string> = {
  visa: 'VISA',
  mastercard: 'Mastercard',
  amex: 'American Express',
  jcb: 'JCB',
  diners: 'Diners Club',
  discover: 'Discover',
  unionpay: 'UnionPay',
};

export function brandLabel(brand: string): string {
  return BRANDS[brand.toLowerCase()] ?? 'カード';
}

/** "VISA •••• 4242（有効期限 12/30）" */
export function cardLabel(card: Card, withExpiry = true): string {
  const base = `${brandLabel(card.brand)} •••• ${card.last4}`;
  return withExpiry ? `${base}（有効期限 ${String(card.expMonth).padStart(2, '0')}/${String(card.expYear % 100).padStart(2, '0')}）` : base;
}

export const SUBSCRIPTION_STATUS_LABELS: Record<SubscriptionStatus, string> = {
  active: '有効',
  past_due: 'お支払いを確認できていません',
  incomplete: 'お支払い待ち',
  incomplete_expired: 'お支払いが完了しませんでした',
  canceled: '終了',
  unpaid: 'お支払いを確認できていません',
  trialing: '有効',
  paused: '一時停止中',
};

const INVOICE_STATUS: Record<Invoice['status'], string> = {
  paid: '支払い済み',
  open: '未払い',
  draft: '準備中',
  uncollectible: 'お支払い不可',
  void: '取消',
};

export function invoiceStatusLabel(status: Invoice['status']): string {
  return INVOICE_STATUS[status] ?? status;
}

/** What a bill was for: the first payment or a renewal. */
export function invoiceReasonLabel(reason: string | null): string {
  if (reason === 'subscription_create') return '初回のお支払い';
  if (reason === 'subscription_cycle') return '自動更新';
  return 'お支払い';
}

// ── the processor's forms (the sandbox's iframes, Stripe.js) ──────────────────────────────────

/** Stripe.js or its Payment Element did not load (offline, an extension, the network). */
export const STRIPE_LOAD_FAILED_MESSAGE =
  'カード入力フォームを読み込めませんでした。通信環境を確認して、もう一度お試しください。広告ブロックなどの拡張機能が決済フォームを止めている場合は、無効にしてからお試しください。';

/** Stripe.js did not load for the 3-D Secure step (nothing was charged yet). */
export const STRIPE_CHALLENGE_LOAD_FAILED_MESSAGE =
  '本人認証（3-Dセキュア）の画面を読み込めませんでした。通信環境を確認して、もう一度お試しください。お支払いはまだ完了していません。';

/** Saving the card failed for a reason Stripe does not word for the cardholder. */
export const CARD_SETUP_FAILED_MESSAGE = 'カードを登録できませんでした。時間をおいてもう一度お試しいただくか、別のカードをお使いください。';
