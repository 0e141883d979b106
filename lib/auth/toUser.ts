import type { User as FirebaseUser } from 'firebase/auth';
import type { User } from '@/lib/types/user';

export const PLACEHOLDER_PHOTO_URL = '/images/avatar-placeholder.svg';
/** The e-mail shown for an anonymous user (spec section 3). */
export const ANONYMOUS_EMAIL = 'anonymous@yumecast.invalid';
export const TWITTER_PROVIDER_ID = 'twitter.com';

/** Reads the paymentExpirationTime claim (unix seconds) set by our api; null when absent. */
export function paymentExpirationFromClaims(claims: Record<string, unknown>): number | null {
  const v = claims.paymentExpirationTime;
  const n = typeof v === 'string' ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) ? n : null;
}

/** Builds the spec's User (section 3) from the provider's user and token claims. */
export function toUser(fb: FirebaseUser, claims: Record<string, unknown>, signInMethods: string[] = []): User {
  const email = fb.isAnonymous ? ANONYMOUS_EMAIL : (fb.email ?? '');
  const created = fb.metadata.creationTime ? Date.parse(fb.metadata.creationTime) : NaN;
  return {
    name: fb.displayName || email,
    photoUrl: fb.photoURL || PLACEHOLDER_PHOTO_URL,
    uid: fb.uid,
    email,
    emailVerified: fb.emailVerified,
    paymentExpirationTime: paymentExpirationFromClaims(claims),
    signInMethods: fb.isAnonymous ? [] : signInMethods,
    canTwitterLoggedIn: fb.providerData.some((p) => p.providerId === TWITTER_PROVIDER_ID),
    createdAt: Number.isFinite(created) ? Math.floor(created / 1000) : 0,
    isAnonymous: fb.isAnonymous,
  };
}
