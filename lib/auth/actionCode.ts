/**
 * The custom action handler behind /email/link-callback (spec section 7): verification,
 * e-mail change (verify-and-change), e-mail recovery and password reset links land here with
 * ?mode=…&oobCode=…, as Firebase's hosted handler would receive them.
 */
import {
  applyActionCode,
  checkActionCode,
  confirmPasswordReset,
  reload,
  signOut,
  verifyPasswordResetCode,
  type Auth,
} from 'firebase/auth';
import { firebaseAuth } from '@/lib/firebase/client';
import { errorCodeOf } from './errors';
import { fail, type AuthResult } from './result';
import { MIN_PASSWORD_LENGTH } from './validation';

export type ActionMode = 'verifyEmail' | 'verifyAndChangeEmail' | 'recoverEmail' | 'resetPassword' | 'signIn';
const MODES: readonly string[] = ['verifyEmail', 'verifyAndChangeEmail', 'recoverEmail', 'resetPassword', 'signIn'];

export const MISSING_ACTION_CODE = 'auth/missing-action-code';
export const UNKNOWN_ACTION_MODE = 'auth/invalid-action-mode';

export function parseActionMode(v: unknown): ActionMode | null {
  return typeof v === 'string' && MODES.includes(v) ? (v as ActionMode) : null;
}

/** An oobCode looks like base64url text; anything else is refused before any network call. */
export function isPlausibleActionCode(v: unknown): v is string {
  return typeof v === 'string' && v.length >= 6 && v.length <= 512 && /^[A-Za-z0-9_-]+$/.test(v);
}

export type ApplyOutcome = { result: true; email: string | null; previousEmail: string | null; signedOut: boolean } | { result: false; code: string };

/**
 * Applies a verifyEmail / verifyAndChangeEmail / recoverEmail code. The code is checked first
 * (so a code of another kind is refused), then applied; the signed-in user is refreshed so the
 * app shows the new state at once. An e-mail change ends the sessions of the account on real
 * Firebase: when the refresh fails for that reason, this tab signs out as well.
 */
export async function applyEmailAction(mode: ActionMode, oobCode: unknown, auth: Auth = firebaseAuth()): Promise<ApplyOutcome> {
  if (!isPlausibleActionCode(oobCode)) return { result: false, code: MISSING_ACTION_CODE };
  const expected = { verifyEmail: 'VERIFY_EMAIL', verifyAndChangeEmail: 'VERIFY_AND_CHANGE_EMAIL', recoverEmail: 'RECOVER_EMAIL' } as Record<string, string>;
  if (!expected[mode]) return { result: false, code: UNKNOWN_ACTION_MODE };
  try {
    const info = await checkActionCode(auth, oobCode);
    if (info.operation !== expected[mode]) return { result: false, code: 'auth/invalid-action-code' };
    await applyActionCode(auth, oobCode);
    let signedOut = false;
    await auth.authStateReady();
    const user = auth.currentUser;
    if (user && !user.isAnonymous) {
      try {
        await reload(user);
        await user.getIdToken(true);
      } catch (e) {
        const code = errorCodeOf(e);
        if (code === 'auth/user-token-expired' || code === 'auth/user-disabled' || code === 'auth/user-not-found' || code === 'auth/invalid-user-token') {
          await signOut(auth);
          signedOut = true;
        }
      }
    }
    return { result: true, email: info.data.email ?? null, previousEmail: info.data.previousEmail ?? null, signedOut };
  } catch (e) {
    return { result: false, code: errorCodeOf(e) };
  }
}

/** Checks a password reset code; answers the account's e-mail for the form. */
export async function checkPasswordResetCode(oobCode: unknown, auth: Auth = firebaseAuth()): Promise<{ result: true; email: string } | { result: false; code: string }> {
  if (!isPlausibleActionCode(oobCode)) return { result: false, code: MISSING_ACTION_CODE };
  try {
    return { result: true, email: await verifyPasswordResetCode(auth, oobCode) };
  } catch (e) {
    return { result: false, code: errorCodeOf(e) };
  }
}

/** Sets the new password of a reset link (minimum 6 characters, the provider's rule). */
export async function resetPasswordWithCode(oobCode: unknown, newPassword: string, auth: Auth = firebaseAuth()): Promise<AuthResult> {
  if (!isPlausibleActionCode(oobCode)) return fail(MISSING_ACTION_CODE);
  if (newPassword.length < MIN_PASSWORD_LENGTH) return fail('auth/weak-password');
  try {
    await confirmPasswordReset(auth, oobCode, newPassword);
    return { result: true };
  } catch (e) {
    return fail(errorCodeOf(e));
  }
}
