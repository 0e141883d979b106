/**
 * Which subscription grants the plan, and until when (docs/purchase.md "States"). Pure
 * functions over the processor's state and our clock, used when a record is written
 * (sync.ts stores `grace_until` and `entitled_until`) so that every later check is a plain
 * `entitled_until > now()` in SQL (entitlements.ts).
 *
 *   active, trialing   grants until current_period_end (the claim's value); the record keeps
 *                      granting for the grace period past it in case a renewal webhook is late
 *   past_due           a renewal failed and the processor retries: grants until grace_until
 *                      (our clock: when we first saw it past_due + the grace period)
 *   anything else      grants nothing (incomplete: not paid yet; canceled, incomplete_expired,
 *                      unpaid, paused: ended)
 */
import type { SubscriptionStatus } from '../../../../lib/api-types/schemas/payments';

export interface GrantInput {
  status: SubscriptionStatus;
  currentPeriodEnd: Date;
  /** grace_until already stored for this subscription (kept while it stays past_due). */
  storedGraceUntil: Date | null;
  /** What it was before this write (null for a new record). */
  previousStatus: SubscriptionStatus | null;
  graceSeconds: number;
  now: Date;
}

export interface Grant {
  graceUntil: Date | null;
  entitledUntil: Date | null;
}

export function isGrantingStatus(status: SubscriptionStatus): boolean {
  return status === 'active' || status === 'trialing' || status === 'past_due';
}

export function grantOf(input: GrantInput): Grant {
  const graceMs = input.graceSeconds * 1000;
  switch (input.status) {
    case 'active':
    case 'trialing':
      return { graceUntil: null, entitledUntil: new Date(input.currentPeriodEnd.getTime() + graceMs) };
    case 'past_due': {
      const keep = input.previousStatus === 'past_due' && input.storedGraceUntil !== null;
      const graceUntil = keep && input.storedGraceUntil ? input.storedGraceUntil : new Date(input.now.getTime() + graceMs);
      return { graceUntil, entitledUntil: graceUntil };
    }
    default:
      return { graceUntil: null, entitledUntil: null };
  }
}

/** Unix seconds of a Date (the wire's and the claim's unit). */
export function unixSeconds(date: Date): number {
  return Math.floor(date.getTime() / 1000);
}

/** A Date from the processor's unix seconds. */
export function fromUnix(seconds: number): Date {
  return new Date(seconds * 1000);
}
