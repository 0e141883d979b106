/**
 * After a purchase: force a fresh ID token so the paymentExpirationTime claim the api just set is
 * in the browser at once (issue 9 §1: the header, /settings/purchase and analytics read it from
 * the store, which follows onIdTokenChanged). The claim is written by the api before it answers
 * `active`; a few spaced retries cover a claim that lands a moment later (a webhook).
 * (When the api refuses a premium title, lib/purchase/syncClaim.ts fetches the current claim.)
 */
import { firebaseAuth } from '@/lib/firebase/client';

export interface ClaimRefreshOptions {
  attempts?: number;
  delayMs?: number;
  nowMs?: () => number;
  /** Test seam: the user whose token is refreshed. */
  user?: { getIdToken(force: boolean): Promise<string>; getIdTokenResult(): Promise<{ claims: Record<string, unknown> }> } | null;
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves with the claim (unix seconds) once it is in the future, or null after the last try. */
export async function refreshPaymentClaim({ attempts = 4, delayMs = 1_000, nowMs = Date.now, user }: ClaimRefreshOptions = {}): Promise<number | null> {
  const current = user === undefined ? firebaseAuth().currentUser : user;
  if (!current) return null;
  for (let i = 0; i < attempts; i += 1) {
    try {
      await current.getIdToken(true);
      const claim = (await current.getIdTokenResult()).claims.paymentExpirationTime;
      if (typeof claim === 'number' && claim * 1000 > nowMs()) return claim;
    } catch {
      // a network blip: try again below
    }
    if (i < attempts - 1) await wait(delayMs);
  }
  return null;
}

