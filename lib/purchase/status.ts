/**
 * The subscription's state as /settings/purchase and the purchase pages tell it, from the
 * newest subscription (GET /api/subscriptions, the first after sorting newest created first) and
 * the paymentExpirationTime claim. Built on lib/purchase/plan.ts `planStatus`, so a date in the
 * past is never called valid (有効); the server's `entitled` decides whether the plan is granted
 * at all (an ended subscription is never active, whatever its dates say).
 */
import type { Subscription } from '@/lib/api/purchase';
import { formatPlanDate, planStatus, type PlanKind } from './plan';

export interface PurchaseStatus {
  kind: PlanKind;
  /** One line: "2026年3月4日 まで有効", "2026年3月4日 に期限切れ", "未加入". */
  label: string;
  /** Next charge day while it renews; null otherwise. */
  renewsOn: string | null;
  /** Last day of use when it will not renew (cancelled), or when it ended; null otherwise. */
  endsOn: string | null;
  cancelScheduled: boolean;
  /** A renewal failed: the plan runs on during the grace period while payment is retried. */
  pastDue: boolean;
}

const NONE: PurchaseStatus = { kind: 'none', label: '未加入', renewsOn: null, endsOn: null, cancelScheduled: false, pastDue: false };

/**
 * `sub` is the newest subscription (or null), `claim` the token's paymentExpirationTime.
 * Without a subscription record the claim alone speaks (e.g. the list could not be read).
 */
export function purchaseStatus(sub: Subscription | null, claim: number | null | undefined, nowMs: number = Date.now()): PurchaseStatus {
  if (!sub) {
    const p = planStatus(claim, nowMs);
    return p.kind === 'none' ? NONE : { ...NONE, kind: p.kind, label: p.label, endsOn: p.kind === 'expired' ? p.date : null };
  }
  const until = sub.entitled ? (sub.accessUntil ?? sub.currentPeriodEnd) : null;
  const p = until ? planStatus(until, nowMs) : null;
  if (p && p.kind === 'active') {
    const cancelScheduled = sub.cancelAtPeriodEnd;
    return {
      kind: 'active',
      label: p.label,
      renewsOn: cancelScheduled ? null : formatPlanDate(sub.currentPeriodEnd),
      endsOn: cancelScheduled ? p.date : null,
      cancelScheduled,
      pastDue: sub.status === 'past_due',
    };
  }
  // Not granted (ended, expired, or its paid time is behind us): the last day it was granted.
  const ended = Math.min(sub.endedAt ?? sub.accessUntil ?? sub.currentPeriodEnd, Math.floor(nowMs / 1000));
  const date = formatPlanDate(ended);
  return { kind: 'expired', label: `${date} に期限切れ`, renewsOn: null, endsOn: date, cancelScheduled: false, pastDue: false };
}

/** Whether the newest subscription can be cancelled (renewing, not yet ended). */
export function canCancel(sub: Subscription | null): boolean {
  return !!sub && sub.entitled && !sub.cancelAtPeriodEnd && (sub.status === 'active' || sub.status === 'past_due' || sub.status === 'trialing');
}

/** Whether a scheduled cancel can still be undone (before the period end). */
export function canResume(sub: Subscription | null): boolean {
  return !!sub && sub.entitled && sub.cancelAtPeriodEnd && sub.status !== 'canceled';
}
