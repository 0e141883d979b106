/**
 * E-mail and password flows of spec sections 4, 5 and 7 on Firebase Auth. Every helper answers
 * `{result: true}` or `{result: false, code}` with the provider's error code (spec section 8).
 */
import {
  createUserWithEmailAndPassword,
  EmailAuthProvider,
  linkWithCredential,
  reauthenticateWithCredential,
  sendEmailVerification,
  sendPasswordResetEmail,
  signInWithEmailAndPassword,
  signOut,
  updatePassword,
  updateProfile,
  verifyBeforeUpdateEmail,
  type Auth,
  type User as FirebaseUser,
} from 'firebase/auth';
import { firebaseAuth } from '@/lib/firebase/client';
import { config } from '@/lib/config';
import { attempt, fail, ok, type AuthResult } from './result';
import { errorCodeOf } from './errors';
import { runAuthFlow } from './flow';
import { linkWithRecentLogin } from './link';
import { MIN_PASSWORD_LENGTH } from './validation';

/** Where verification and e-mail-change links come back to (spec section 7). */
export const verificationSettings = () => ({ url: `${config.siteUrl}/email/link-callback` });
/** Where a password reset link's "continue" leads: the login page. */
export const passwordResetSettings = () => ({ url: `${config.siteUrl}/email/login` });

export const NOT_EMAIL_VERIFIED = 'notEmailVerified';
export const CURRENT_USER_MISSING = 'currentUser does not exist';
export const NOT_USER = 'not user';

function signedInUser(auth: Auth): FirebaseUser | { error: string } {
  const user = auth.currentUser;
  if (!user) return { error: CURRENT_USER_MISSING };
  if (user.isAnonymous) return { error: NOT_USER };
  return user;
}

/** Log in; an unverified address re-sends the verification mail, signs out and reports notEmailVerified. */
export function loginWithEmail(email: string, password: string, auth: Auth = firebaseAuth()): Promise<AuthResult> {
  return runAuthFlow(async () => {
    try {
      const cred = await signInWithEmailAndPassword(auth, email.trim(), password);
      if (!cred.user) return fail('userCredential does not exist');
      if (!cred.user.emailVerified) {
        await sendEmailVerification(cred.user, verificationSettings()).catch((e) => console.error('verification mail not sent', errorCodeOf(e)));
        await signOut(auth);
        return fail(NOT_EMAIL_VERIFIED);
      }
      return ok;
    } catch (e) {
      return fail(errorCodeOf(e));
    }
  });
}

/**
 * Sign up: an anonymous visitor is linked to the e-mail and password (the uid is kept), any
 * other state creates the account. Then the verification mail (back to /email/link-callback)
 * is sent and the user is signed out at once (spec section 4).
 */
export function signUpWithEmail(email: string, password: string, auth: Auth = firebaseAuth()): Promise<AuthResult> {
  return runAuthFlow(async () => {
    try {
      await auth.authStateReady();
      const address = email.trim();
      const current = auth.currentUser;
      let user: FirebaseUser;
      if (current?.isAnonymous) {
        user = (await linkWithCredential(current, EmailAuthProvider.credential(address, password))).user;
      } else {
        if (current) await signOut(auth);
        user = (await createUserWithEmailAndPassword(auth, address, password)).user;
      }
      if (!user) return fail('userCredential does not exist');
      await sendEmailVerification(user, verificationSettings());
      await signOut(auth);
      return ok;
    } catch (e) {
      return fail(errorCodeOf(e));
    }
  });
}

/** Sends the password reset mail; its link opens /email/link-callback (mode resetPassword). */
export function sendPasswordReset(email: string, auth: Auth = firebaseAuth()): Promise<AuthResult> {
  return attempt(() => sendPasswordResetEmail(auth, email.trim(), passwordResetSettings()));
}

/** Sends the verification mail again to the signed-in user's address. */
export async function resendVerification(auth: Auth = firebaseAuth()): Promise<AuthResult> {
  const user = signedInUser(auth);
  if ('error' in user) return fail(user.error);
  return attempt(() => sendEmailVerification(user, verificationSettings()));
}

/** Log out; the listener then resets the safe check and signs the visitor in anonymously. */
export function logout(auth: Auth = firebaseAuth()): Promise<AuthResult> {
  return attempt(() => signOut(auth));
}

/** Re-authentication with the current password (spec section 5), before sensitive changes. */
export async function reauthenticateWithPassword(password: string, auth: Auth = firebaseAuth()): Promise<AuthResult> {
  const user = signedInUser(auth);
  if ('error' in user) return fail(user.error);
  if (!user.email) return fail('user error');
  return attempt(() => reauthenticateWithCredential(user, EmailAuthProvider.credential(user.email!, password)));
}

/** Password update after re-entering the current password. */
export async function changePassword(currentPassword: string, newPassword: string, auth: Auth = firebaseAuth()): Promise<AuthResult> {
  if (newPassword.length < MIN_PASSWORD_LENGTH) return fail('auth/weak-password');
  const re = await reauthenticateWithPassword(currentPassword, auth);
  if (!re.result) return re;
  return attempt(() => updatePassword(auth.currentUser!, newPassword));
}

/**
 * E-mail update after re-entering the current password: verify-before-update, so the address
 * changes only when the link sent to the new address is opened (back to /email/link-callback).
 */
export async function changeEmail(currentPassword: string, newEmail: string, auth: Auth = firebaseAuth()): Promise<AuthResult> {
  const user = signedInUser(auth);
  if ('error' in user) return fail(user.error);
  const address = newEmail.trim();
  if (user.email && address.toLowerCase() === user.email.toLowerCase()) return fail('sameEmail');
  const re = await reauthenticateWithPassword(currentPassword, auth);
  if (!re.result) return re;
  return attempt(() => verifyBeforeUpdateEmail(auth.currentUser!, address, verificationSettings()));
}

/**
 * A signed-in user without a password (e.g. X only) registers an e-mail and password: the
 * credential is linked (uid kept) and the verification mail is sent. A required recent login
 * runs the X re-login first (see link.ts).
 */
export async function registerEmailPassword(email: string, password: string, auth: Auth = firebaseAuth()): Promise<AuthResult> {
  const user = signedInUser(auth);
  if ('error' in user) return fail(user.error);
  const address = email.trim();
  const linked = await linkWithRecentLogin(EmailAuthProvider.credential(address, password), { kind: 'password', email: address }, auth);
  if (!linked.result) return linked;
  const current = auth.currentUser ?? user;
  await sendEmailVerification(current, verificationSettings()).catch((e) => console.error('verification mail not sent', errorCodeOf(e)));
  await current.getIdToken(true).catch(() => undefined);
  return ok;
}

/** Profile update (spec section 5): the display name is set only when one is given. */
export async function updateUserProfile(profile: { displayName?: string | null; photoURL?: string | null }, auth: Auth = firebaseAuth()): Promise<AuthResult> {
  const user = signedInUser(auth);
  if ('error' in user) return fail(user.error);
  const update: { displayName?: string; photoURL?: string | null } = {};
  const name = profile.displayName?.trim();
  if (name) update.displayName = name;
  if (profile.photoURL !== undefined) update.photoURL = profile.photoURL;
  if (Object.keys(update).length === 0) return ok;
  return attempt(async () => {
    await updateProfile(user, update);
    await user.getIdToken(true);
  });
}
