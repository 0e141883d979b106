/**
 * E-mail and password flows of spec sections 4, 5 and 7 through lib/auth, with the firebase JS
 * SDK against the Auth emulator: sign-up (linking the visitor), verification, log in, wrong
 * input, password change, e-mail change, password reset, profile, logout.
 */
import './env';
import { signInAnonymously, signInWithEmailAndPassword, signOut } from 'firebase/auth';
import { firebaseAuth } from '@/lib/firebase/client';
import {
  changeEmail,
  changePassword,
  loginWithEmail,
  logout,
  resendVerification,
  sendPasswordReset,
  signUpWithEmail,
  updateUserProfile,
} from '@/lib/auth/emailAuth';
import { applyEmailAction, checkPasswordResetCode, resetPasswordWithCode } from '@/lib/auth/actionCode';
import { lookupSignInMethods } from '@/lib/auth/signInMethods';
import { sessionRule } from '@/lib/auth/sessionRules';
import { toUser } from '@/lib/auth/toUser';
import { deleteUsers, lastMail, mailsTo, uniqueEmail } from './helpers';

jest.setTimeout(30_000);

const auth = firebaseAuth();
const created = new Set<string>();
const PASSWORD = 'first-pass-1';

async function visitor(): Promise<string> {
  await signOut(auth);
  const { user } = await signInAnonymously(auth);
  created.add(user.uid);
  return user.uid;
}

/** A signed-up and verified account (through the real flows), signed out. */
async function verifiedAccount(email = uniqueEmail()): Promise<{ email: string; uid: string }> {
  const uid = await visitor();
  expect(await signUpWithEmail(email, PASSWORD)).toEqual({ result: true });
  const mail = await lastMail(email, 'VERIFY_EMAIL');
  expect((await applyEmailAction('verifyEmail', mail.oobCode)).result).toBe(true);
  return { email, uid };
}

afterAll(async () => {
  await signOut(auth).catch(() => undefined);
  await deleteUsers(created);
});

describe('sign up → verify → log in', () => {
  it('links the anonymous visitor (uid kept), mails the verification link to /email/link-callback and signs out', async () => {
    const email = uniqueEmail('signup');
    const uid = await visitor();
    expect(await signUpWithEmail(email, PASSWORD)).toEqual({ result: true });
    expect(auth.currentUser).toBeNull();
    const mail = await lastMail(email, 'VERIFY_EMAIL');
    expect(decodeURIComponent(mail.oobLink)).toContain('continueUrl=http://localhost:3100/email/link-callback');

    // Log in before verifying: the mail is sent again, the user signed out, notEmailVerified.
    expect(await loginWithEmail(email, PASSWORD)).toEqual({ result: false, code: 'notEmailVerified' });
    expect(auth.currentUser).toBeNull();
    expect((await mailsTo(email)).filter((m) => m.requestType === 'VERIFY_EMAIL')).toHaveLength(2);

    const latest = await lastMail(email, 'VERIFY_EMAIL');
    const applied = await applyEmailAction('verifyEmail', latest.oobCode);
    expect(applied).toMatchObject({ result: true, email });

    expect(await loginWithEmail(email, PASSWORD)).toEqual({ result: true });
    const user = auth.currentUser!;
    expect(user.uid).toBe(uid);
    expect(user.isAnonymous).toBe(false);
    expect(user.emailVerified).toBe(true);
    const u = toUser(user, (await user.getIdTokenResult()).claims, await lookupSignInMethods(auth, email));
    expect(u).toMatchObject({ uid, email, name: email, emailVerified: true, isAnonymous: false, signInMethods: ['password'], canTwitterLoggedIn: false, paymentExpirationTime: null });
    expect(u.createdAt).toBeGreaterThan(1_600_000_000);
    expect(sessionRule(user)).toEqual({ action: 'keep' });
  });

  it('a signed-up but unverified user without a name falls under the sign-out rule', async () => {
    const email = uniqueEmail('rule');
    await visitor();
    await signUpWithEmail(email, PASSWORD);
    const { user } = await signInWithEmailAndPassword(auth, email, PASSWORD);
    expect(sessionRule(user)).toEqual({ action: 'signOut', code: null });
    await signOut(auth);
  });

  it('creates a new account when there is no visitor', async () => {
    await signOut(auth);
    const email = uniqueEmail('fresh');
    expect(await signUpWithEmail(email, PASSWORD)).toEqual({ result: true });
    expect(await lastMail(email, 'VERIFY_EMAIL')).toBeDefined();
  });
});

describe('bad input gets the provider code (mapped to Japanese in the UI)', () => {
  let email: string;
  beforeAll(async () => {
    ({ email } = await verifiedAccount());
  });

  it('wrong password', async () => {
    const r = await loginWithEmail(email, 'not-the-password');
    expect(r.result).toBe(false);
    expect(['auth/wrong-password', 'auth/invalid-credential']).toContain(!r.result && r.code);
  });

  it('unknown user', async () => {
    const r = await loginWithEmail(uniqueEmail('nobody'), 'whatever-1');
    expect(['auth/user-not-found', 'auth/invalid-credential']).toContain(!r.result && r.code);
  });

  it('weak password, malformed e-mail, address in use', async () => {
    await visitor();
    expect(await signUpWithEmail(uniqueEmail('weak'), '12345')).toEqual({ result: false, code: 'auth/weak-password' });
    expect(await signUpWithEmail('not-an-email', 'secret-12')).toEqual({ result: false, code: 'auth/invalid-email' });
    expect(await loginWithEmail('not-an-email', 'secret-12')).toEqual({ result: false, code: 'auth/invalid-email' });
    expect(await signUpWithEmail(email, 'secret-12')).toEqual({ result: false, code: 'auth/email-already-in-use' });
  });

  it('used, foreign, missing and wrong-kind action codes', async () => {
    const e2 = uniqueEmail('codes');
    await visitor();
    await signUpWithEmail(e2, PASSWORD);
    const mail = await lastMail(e2, 'VERIFY_EMAIL');
    expect((await applyEmailAction('verifyEmail', mail.oobCode)).result).toBe(true);
    expect(await applyEmailAction('verifyEmail', mail.oobCode)).toEqual({ result: false, code: 'auth/invalid-action-code' }); // replayed
    expect(await applyEmailAction('verifyEmail', 'AAAAforeignCODE123')).toEqual({ result: false, code: 'auth/invalid-action-code' });
    expect(await applyEmailAction('verifyEmail', undefined)).toEqual({ result: false, code: 'auth/missing-action-code' });
    expect(await applyEmailAction('verifyEmail', 'bad code!')).toEqual({ result: false, code: 'auth/missing-action-code' });
    await sendPasswordReset(e2);
    const reset = await lastMail(e2, 'PASSWORD_RESET');
    // A reset code opened as a verification link is refused and stays usable for its own purpose.
    expect(await applyEmailAction('verifyEmail', reset.oobCode)).toEqual({ result: false, code: 'auth/invalid-action-code' });
    expect(await checkPasswordResetCode(reset.oobCode)).toEqual({ result: true, email: e2 });
  });
});

describe('settings: password, e-mail, profile (re-authentication first)', () => {
  it('changes the password after re-entering the current one', async () => {
    const { email } = await verifiedAccount();
    expect(await loginWithEmail(email, PASSWORD)).toEqual({ result: true });
    expect((await changePassword('wrong-current', 'second-pass-2')).result).toBe(false);
    expect(await changePassword(PASSWORD, '123')).toEqual({ result: false, code: 'auth/weak-password' });
    expect(await changePassword(PASSWORD, 'second-pass-2')).toEqual({ result: true });
    await logout();
    expect((await loginWithEmail(email, PASSWORD)).result).toBe(false);
    expect(await loginWithEmail(email, 'second-pass-2')).toEqual({ result: true });
  });

  it('changes the e-mail by verify-before-update, back through /email/link-callback', async () => {
    const { email, uid } = await verifiedAccount();
    const next = uniqueEmail('new');
    expect(await loginWithEmail(email, PASSWORD)).toEqual({ result: true });
    expect((await changeEmail('wrong-current', next)).result).toBe(false);
    expect(await changeEmail(PASSWORD, email)).toEqual({ result: false, code: 'sameEmail' });
    expect(await changeEmail(PASSWORD, next)).toEqual({ result: true });
    expect(auth.currentUser!.email).toBe(email); // nothing changes before the link is opened
    const mail = await lastMail(next, 'VERIFY_AND_CHANGE_EMAIL');
    expect(mail.newEmail).toBe(next);
    expect(decodeURIComponent(mail.oobLink)).toContain('continueUrl=http://localhost:3100/email/link-callback');
    const applied = await applyEmailAction('verifyAndChangeEmail', mail.oobCode);
    expect(applied).toMatchObject({ result: true, email: next, previousEmail: email });
    await logout();
    expect(await loginWithEmail(next, PASSWORD)).toEqual({ result: true });
    expect(auth.currentUser!.uid).toBe(uid);
    expect((await applyEmailAction('verifyAndChangeEmail', mail.oobCode)).result).toBe(false);
  });

  it('settings helpers refuse anonymous and absent users', async () => {
    await visitor();
    expect(await changePassword('a-pass-1', 'b-pass-2')).toEqual({ result: false, code: 'not user' });
    expect(await resendVerification()).toEqual({ result: false, code: 'not user' });
    await signOut(auth);
    expect(await changeEmail('a-pass-1', uniqueEmail())).toEqual({ result: false, code: 'currentUser does not exist' });
  });

  it('sets the display name only when one is given', async () => {
    const { email } = await verifiedAccount();
    await loginWithEmail(email, PASSWORD);
    expect(await updateUserProfile({ displayName: '  ' })).toEqual({ result: true });
    expect(auth.currentUser!.displayName).toBeNull();
    expect(await updateUserProfile({ displayName: 'ゆめみ' })).toEqual({ result: true });
    expect(auth.currentUser!.displayName).toBe('ゆめみ');
    expect(await updateUserProfile({})).toEqual({ result: true });
    expect(auth.currentUser!.displayName).toBe('ゆめみ');
    expect(toUser(auth.currentUser!, {}).name).toBe('ゆめみ');
  });
});

describe('password reset from /email/password/reset', () => {
  it('mails a reset link, sets a new password once, refuses a replay and weak passwords', async () => {
    const { email } = await verifiedAccount();
    expect(await sendPasswordReset(email)).toEqual({ result: true });
    const mail = await lastMail(email, 'PASSWORD_RESET');
    expect(decodeURIComponent(mail.oobLink)).toContain('continueUrl=http://localhost:3100/email/login');
    expect(await checkPasswordResetCode(mail.oobCode)).toEqual({ result: true, email });
    expect(await resetPasswordWithCode(mail.oobCode, '12345')).toEqual({ result: false, code: 'auth/weak-password' });
    expect(await resetPasswordWithCode(mail.oobCode, 'reset-pass-3')).toEqual({ result: true });
    expect(await resetPasswordWithCode(mail.oobCode, 'reset-pass-4')).toEqual({ result: false, code: 'auth/invalid-action-code' });
    expect(await checkPasswordResetCode(mail.oobCode)).toEqual({ result: false, code: 'auth/invalid-action-code' });
    expect((await loginWithEmail(email, PASSWORD)).result).toBe(false);
    expect(await loginWithEmail(email, 'reset-pass-3')).toEqual({ result: true });
    await logout();
  });

  it('reports an unknown address', async () => {
    expect(await sendPasswordReset(uniqueEmail('nobody'))).toEqual({ result: false, code: 'auth/user-not-found' });
  });
});

describe('logout', () => {
  it('signs the user out', async () => {
    const { email } = await verifiedAccount();
    await loginWithEmail(email, PASSWORD);
    expect(await logout()).toEqual({ result: true });
    expect(auth.currentUser).toBeNull();
  });
});
