import type { Auth } from 'firebase-admin/auth';
import { ApiError } from '../errors';

/**
 * The paymentExpirationTime custom claim (spec sections 3 and 6): unix seconds until which the
 * subscription is paid. Only the server sets it, with firebase-admin on the account; browsers
 * cannot (custom claims need admin credentials) and pick it up with their next token refresh
 * (lib/auth/tokenManager refreshes 5 minutes before expiry, or at once via refreshUserToken).
 * Server-side decisions read it from the account (getPaymentExpirationTime), not from the token.
 */
export const PAYMENT_CLAIM = 'paymentExpirationTime';
/** Sanity bounds: 2020-01-01 … 2100-01-01. */
export const MIN_PAYMENT_EXPIRATION = 1_577_836_800;
export const MAX_PAYMENT_EXPIRATION = 4_102_444_800;

export function isValidPaymentExpiration(v: unknown): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= MIN_PAYMENT_EXPIRATION && v <= MAX_PAYMENT_EXPIRATION;
}

function mapAdminError(error: unknown): ApiError {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'auth/user-not-found') return new ApiError('not_found', 'ユーザーが見つかりません。', { cause: error });
  if (code === 'app/network-error' || code === 'app/network-timeout') return new ApiError('service_unavailable', undefined, { cause: error });
  return new ApiError('internal', undefined, { cause: error });
}

/**
 * Sets (or, with null, removes) the claim, keeping every other custom claim of the account.
 * Answers the value now on the account.
 */
export async function setPaymentExpirationTime(auth: Auth, uid: string, expiresAt: number | null): Promise<number | null> {
  if (expiresAt !== null && !isValidPaymentExpiration(expiresAt)) throw new ApiError('invalid_request', 'paymentExpirationTime が正しくありません。');
  try {
    const user = await auth.getUser(uid);
    const claims: Record<string, unknown> = { ...(user.customClaims ?? {}) };
    if (expiresAt === null) delete claims[PAYMENT_CLAIM];
    else claims[PAYMENT_CLAIM] = expiresAt;
    await auth.setCustomUserClaims(uid, Object.keys(claims).length ? claims : null);
    return expiresAt;
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw mapAdminError(error);
  }
}

/** The claim as the account holds it (authoritative, unlike a token the caller presents). */
export async function getPaymentExpirationTime(auth: Auth, uid: string): Promise<number | null> {
  try {
    const v = (await auth.getUser(uid)).customClaims?.[PAYMENT_CLAIM];
    return isValidPaymentExpiration(v) ? v : null;
  } catch (error) {
    throw mapAdminError(error);
  }
}
