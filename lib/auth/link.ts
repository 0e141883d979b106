/**
 * Linking a credential to the signed-in user, keeping the uid (spec section 4). When the
 * provider wants a recent login first (auth/requires-recent-login) and the account has X, the
 * social redirect login runs and the link is retried when the app comes back (retryPendingLink,
 * called by the listener after completeRedirectLogin).
 */
import { EmailAuthProvider, linkWithCredential, type Auth, type AuthCredential } from 'firebase/auth';
import { firebaseAuth } from '@/lib/firebase/client';
import { clearEmailForSignIn } from '@/lib/storage/emailForSignIn';
import { errorCodeOf } from './errors';
import { fail, ok, type AuthResult } from './result';
import { hasTwitter, startRedirect, type PendingLink } from './social';

import { PASSWORD_AGAIN, REDIRECTING, REQUIRES_RECENT_LOGIN } from './codes';

export { PASSWORD_AGAIN, REDIRECTING, REQUIRES_RECENT_LOGIN };

export async function linkWithRecentLogin(credential: AuthCredential, pending: PendingLink, auth: Auth = firebaseAuth()): Promise<AuthResult> {
  const user = auth.currentUser;
  if (!user) return fail('currentUser does not exist');
  try {
    await linkWithCredential(user, credential);
    return ok;
  } catch (error) {
    const code = errorCodeOf(error);
    if (code !== REQUIRES_RECENT_LOGIN || user.isAnonymous || !hasTwitter(user)) return fail(code);
    try {
      await startRedirect('reauth', { retry: pending }, auth);
      return fail(REDIRECTING);
    } catch (second) {
      return fail(errorCodeOf(second));
    }
  }
}

/** The retry after the re-login of spec section 4. */
export async function retryPendingLink(pending: PendingLink, auth: Auth = firebaseAuth()): Promise<AuthResult> {
  const user = auth.currentUser;
  if (!user) return fail('currentUser does not exist');
  if (pending.kind === 'password') return fail(PASSWORD_AGAIN);
  try {
    await linkWithCredential(user, EmailAuthProvider.credentialWithLink(pending.email, pending.link));
    clearEmailForSignIn();
    await user.getIdToken(true);
    return ok;
  } catch (error) {
    return fail(errorCodeOf(error));
  }
}
