import { fetchSignInMethodsForEmail, type Auth, type User as FirebaseUser } from 'firebase/auth';
import { normalizeEmailForLookup } from './emailNormalize';

/** Sign-in methods known from the user's own providers ("password", "twitter.com", ...). */
export function providerMethods(fb: Pick<FirebaseUser, 'providerData'>): string[] {
  return [...new Set(fb.providerData.map((p) => p.providerId))];
}

/**
 * The sign-in methods registered for an e-mail (spec section 3 signInMethods), looked up with
 * the address normalised first (spec section 5). Projects with e-mail enumeration protection
 * answer an empty list, and the lookup may fail offline: the caller then keeps the methods
 * known from the user's own providers.
 */
export async function lookupSignInMethods(auth: Auth, email: string): Promise<string[]> {
  try {
    return await fetchSignInMethodsForEmail(auth, normalizeEmailForLookup(email));
  } catch {
    return [];
  }
}
