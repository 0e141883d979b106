/**
 * The signed-in user's Firebase ID token, the bearer of every call to our api (spec section 6).
 * lib/api/client.ts sends it; it lives with the auth code because it reads the Firebase user.
 */
import type { Auth } from 'firebase/auth';

/** The error message thrown when no token can be had (spec section 8). */
export const CANNOT_GET_USER_TOKEN = 'Cannot get user token';

/**
 * The signed-in user's ID token, fetched fresh (the SDK refreshes it when it is about to
 * expire; `force` refreshes it regardless). Throws "Cannot get user token" when there is no
 * user or the token cannot be had.
 */
export async function getFreshIdToken(force = false, auth?: Auth): Promise<string> {
  const a = auth ?? (await import('@/lib/firebase/client')).firebaseAuth();
  const user = a.currentUser;
  if (!user) throw new Error(CANNOT_GET_USER_TOKEN);
  try {
    return await user.getIdToken(force);
  } catch (error) {
    throw new Error(CANNOT_GET_USER_TOKEN, { cause: error });
  }
}
