/**
 * E-mail link sign-in during purchase (spec sections 5 and 7). The link is sent to the address
 * (which is stored on this device), comes back to /purchase/link-callback, and is activated
 * there: that requires a signed-in user (else "401"), a sign-in link and the stored address
 * (else "No email link"). The link is linked to the signed-in user, keeping the uid; when the
 * visitor is anonymous and the address already has an account, that account is signed in.
 */
import {
  EmailAuthProvider,
  isSignInWithEmailLink,
  sendSignInLinkToEmail,
  signInWithEmailLink,
  type Auth,
} from 'firebase/auth';
import { firebaseAuth } from '@/lib/firebase/client';
import { config } from '@/lib/config';
import { clearEmailForSignIn, loadEmailForSignIn, saveEmailForSignIn } from '@/lib/storage/emailForSignIn';
import { lookupSignInMethods } from './signInMethods';
import { attempt, type AuthResult } from './result';
import { linkWithRecentLogin, REDIRECTING } from './link';
import { safeRedirectPath } from './safeRedirect';

export const NO_EMAIL_LINK = 'No email link';
export const UNAUTHORIZED = '401';
export const PURCHASE_LINK_CALLBACK = '/purchase/link-callback';

/** Where the sign-in link comes back to; `next` (a same-origin path) is where to go afterwards. */
export function signInLinkSettings(next?: string | null) {
  const safe = safeRedirectPath(next, config.siteUrl);
  const url = `${config.siteUrl}${PURCHASE_LINK_CALLBACK}${safe ? `?next=${encodeURIComponent(safe)}` : ''}`;
  return { url, handleCodeInApp: true };
}

/** Sends the sign-in link and stores the address on this device (spec section 9, one key). */
export function sendSignInLink(email: string, next?: string | null, auth: Auth = firebaseAuth()): Promise<AuthResult> {
  const address = email.trim();
  return attempt(async () => {
    await sendSignInLinkToEmail(auth, address, signInLinkSettings(next));
    saveEmailForSignIn(address);
  });
}

export type ActivationOutcome = 'linked' | 'signedIn' | 'redirecting';

/**
 * Activates the e-mail link in `href`. Throws Error("401"), Error("No email link") or the
 * provider's error (spec section 8); resolves with what happened.
 */
export async function activateEmailLink(href: string, auth: Auth = firebaseAuth()): Promise<ActivationOutcome> {
  await auth.authStateReady();
  const user = auth.currentUser;
  if (!user) throw new Error(UNAUTHORIZED);
  if (!isSignInWithEmailLink(auth, href)) throw new Error(NO_EMAIL_LINK);
  const email = loadEmailForSignIn();
  if (!email) throw new Error(NO_EMAIL_LINK);

  // A visitor whose address already has an account signs in to it (a link would be refused,
  // and a refused link uses the one-time code up). Projects with e-mail enumeration protection
  // answer no methods: the link is then tried and reports auth/email-already-in-use.
  if (user.isAnonymous && (await lookupSignInMethods(auth, email)).length > 0) {
    await signInWithEmailLink(auth, email, href);
    clearEmailForSignIn();
    return 'signedIn';
  }

  const linked = await linkWithRecentLogin(EmailAuthProvider.credentialWithLink(email, href), { kind: 'emailLink', email, link: href }, auth);
  if (linked.result) {
    clearEmailForSignIn();
    await auth.currentUser?.getIdToken(true).catch(() => undefined);
    return 'linked';
  }
  if (linked.code === REDIRECTING) return 'redirecting';
  throw Object.assign(new Error(linked.code), { code: linked.code });
}
