/**
 * E-mail and password flows of spec section 4 on Firebase Auth.
 */
import {
  createUserWithEmailAndPassword,
  sendEmailVerification,
  sendPasswordResetEmail,
  signInWithEmailAndPassword,
  signOut,
} from 'firebase/auth';
import { firebaseAuth } from '@/lib/firebase/client';
import { config } from '@/lib/config';
import { attempt, fail, type AuthResult } from './result';
import { errorCodeOf } from './errors';

/** Where verification and e-mail-change links come back to. */
export const verificationSettings = () => ({ url: `${config.siteUrl}/email/link-callback` });

/** Log in; an unverified address re-sends the verification mail, signs out and reports notEmailVerified. */
export async function loginWithEmail(email: string, password: string): Promise<AuthResult> {
  const auth = firebaseAuth();
  try {
    const cred = await signInWithEmailAndPassword(auth, email.trim(), password);
    if (!cred.user.emailVerified) {
      await sendEmailVerification(cred.user, verificationSettings()).catch(() => undefined);
      await signOut(auth);
      return fail('notEmailVerified');
    }
    return { result: true };
  } catch (e) {
    return fail(errorCodeOf(e));
  }
}

/** Sign up: sends the verification mail (back to /email/link-callback) and signs out at once. */
export async function signUpWithEmail(email: string, password: string): Promise<AuthResult> {
  const auth = firebaseAuth();
  return attempt(async () => {
    const cred = await createUserWithEmailAndPassword(auth, email.trim(), password);
    await sendEmailVerification(cred.user, verificationSettings());
    await signOut(auth);
  });
}

export function sendPasswordReset(email: string): Promise<AuthResult> {
  return attempt(() => sendPasswordResetEmail(firebaseAuth(), email.trim(), { url: `${config.siteUrl}/email/login` }));
}

export function logout(): Promise<AuthResult> {
  return attempt(() => signOut(firebaseAuth()));
}
