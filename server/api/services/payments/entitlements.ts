/**
 * What a user's subscription grants, read from OUR DATABASE (never from the token's claim or
 * anything the browser says): the server-side check behind every benefit /upgrade promises
 * (docs/purchase.md "Benefits"). Plain functions over a pool or a client, so the session start
 * can call them inside its own transaction:
 *
 *   if (game.premium && !(await isActiveSubscriber(client, uid))) throw new ApiError('subscription_required');
 *
 * A subscription entitles while `entitled_until > now()` (rules.ts: active until its period end,
 * plus the grace period as a safety net; past_due until its grace end; nothing else).
 */
import { entitledUntil, type Queryable } from './repository';
import { unixSeconds } from './rules';

export interface Entitlements {
  /** True while a subscription grants the plan (active; past_due within the grace period). */
  subscriber: boolean;
  /** The entitling plan's id (e.g. "standard"); null when none. */
  planId: string | null;
  /** Our record's id of the entitling subscription; null when none. */
  subscriptionId: string | null;
  /** Unix seconds until which it is paid (the paymentExpirationTime claim); null when none. */
  until: number | null;
  /** Premium titles (games.premium) may be started: the one benefit the plan grants. */
  premiumTitles: boolean;
}

/** Everything a user's subscription grants now. */
export async function entitlements(db: Queryable, uid: string): Promise<Entitlements> {
  const entitled = await entitledUntil(db, uid);
  const subscriber = entitled !== null;
  return {
    subscriber,
    planId: entitled?.planId ?? null,
    subscriptionId: entitled?.subscriptionId ?? null,
    until: entitled ? unixSeconds(entitled.until) : null,
    // One plan today, one benefit: premium titles (docs/purchase.md "Benefits").
    premiumTitles: subscriber,
  };
}

/** True while the user has an entitling subscription (one indexed query). */
export async function isActiveSubscriber(db: Queryable, uid: string): Promise<boolean> {
  return (await entitledUntil(db, uid)) !== null;
}
