/**
 * The premium plan as the settings pages show it (/settings/account, /settings/purchase): from
 * the `paymentExpirationTime` claim (unix seconds, lib/auth/toUser.ts), a plan is active only
 * while that time is in the future; a past one has expired. One helper, so both pages agree.
 */

export type PlanKind = 'none' | 'active' | 'expired';

export interface PlanStatus {
  kind: PlanKind;
  /** The expiry day in Japanese (e.g. 2026年3月4日); null without a plan. */
  date: string | null;
  /** One line for a table: "2026年3月4日 まで有効", "2026年3月4日 に期限切れ" or "未加入". */
  label: string;
}

/** A unix-seconds time as a Japanese date (year, month, day; the browser's time zone). */
export function formatPlanDate(unixSeconds: number): string {
  return new Date(unixSeconds * 1000).toLocaleDateString('ja-JP', { year: 'numeric', month: 'long', day: 'numeric' });
}

/** The plan at `nowMs`: active strictly before the expiry time, expired from it on. */
export function planStatus(paymentExpirationTime: number | null | undefined, nowMs: number = Date.now()): PlanStatus {
  if (!paymentExpirationTime) return { kind: 'none', date: null, label: '未加入' };
  const date = formatPlanDate(paymentExpirationTime);
  return paymentExpirationTime * 1000 > nowMs ? { kind: 'active', date, label: `${date} まで有効` } : { kind: 'expired', date, label: `${date} に期限切れ` };
}
