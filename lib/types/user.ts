import type { GameSummary } from './game';

/** The User of spec section 3, built from the sign-in provider's user (see lib/auth). */
export interface User {
  /** Display name, otherwise the e-mail. */
  name: string;
  /** A default placeholder image when the provider has none. */
  photoUrl: string;
  uid: string;
  email: string;
  emailVerified: boolean;
  /** Unix seconds from the `paymentExpirationTime` custom claim; null when absent. */
  paymentExpirationTime: number | null;
  /** Sign-in methods registered for the e-mail (e.g. "password", "emailLink"). */
  signInMethods: string[];
  /** True if a social network (Twitter/X) link exists. */
  canTwitterLoggedIn: boolean;
  /** Account creation time in unix seconds. */
  createdAt: number;
  isAnonymous: boolean;
}

/**
 * The four authentication states of spec section 4.
 * - undefined: the first auth report has not arrived yet (loading)
 * - none: no user
 * - anonymous: an anonymous visitor, treated as not verified
 * - verified: signed in and not anonymous
 */
export type AuthState = 'undefined' | 'none' | 'anonymous' | 'verified';

export function authStateOf(user: User | null | undefined): AuthState {
  if (user === undefined) return 'undefined';
  if (user === null) return 'none';
  return user.isAnonymous ? 'anonymous' : 'verified';
}

/** One entry of the user's play history (written by the api when a session ends). */
export interface PlayHistory {
  gameId: string;
  title: string;
  /** ms since the epoch */
  lastPlayedAt: number;
  totalSeconds: number;
  playCount: number;
  /** The title's catalogue entry: the card's key art and its age rating. */
  game: GameSummary;
}
