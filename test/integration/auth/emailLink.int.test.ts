/**
 * E-mail link sign-in during purchase (spec sections 5, 7 and 8) through lib/auth against the
 * Auth emulator: the link returns to /purchase/link-callback; activation needs a signed-in user
 * (else 401), a sign-in link and the locally stored address (else "No email link"); the
 * visitor's uid is kept; replays are refused.
 */
import './env';
import { signInAnonymously, signInWithCredential, signOut } from 'firebase/auth';
import { firebaseAuth } from '@/lib/firebase/client';
import { activateEmailLink, sendSignInLink } from '@/lib/auth/emailLink';
import { loadEmailForSignIn, saveEmailForSignIn } from '@/lib/storage/emailForSignIn';
import { mailFromOobCode } from '@/lib/auth/mailbox';
import { localTwitterCredential } from '@/lib/auth/social';
import { signUpWithEmail } from '@/lib/auth/emailAuth';
import { deleteUsers, lastMail, MemoryStorage, SITE, uniqueEmail } from './helpers';

// lib/storage keeps the address in localStorage; node has none, so give it one.
const mockStorage = new MemoryStorage();
jest.mock('@/lib/storage/localStore', () => ({
  readRaw: (k: string) => mockStorage.getItem(k),
  writeRaw: (k: string, v: string) => mockStorage.setItem(k, v),
  removeRaw: (k: string) => mockStorage.removeItem(k),
}));

jest.setTimeout(30_000);

const auth = firebaseAuth();
const created = new Set<string>();

async function visitor(): Promise<string> {
  await signOut(auth);
  const { user } = await signInAnonymously(auth);
  created.add(user.uid);
  return user.uid;
}

/** The URL the local mailbox links to for the last sign-in mail to `email`. */
async function linkFor(email: string): Promise<string> {
  const mail = mailFromOobCode(await lastMail(email, 'EMAIL_SIGNIN'), SITE, 'demo-api-key');
  return `${SITE}${mail!.href}`;
}

beforeEach(() => mockStorage.clear());
afterAll(async () => {
  await signOut(auth).catch(() => undefined);
  await deleteUsers(created);
});

it('sends the link back to /purchase/link-callback with the next page, and stores the address', async () => {
  await visitor();
  const email = uniqueEmail('link');
  expect(await sendSignInLink(email, '/purchase/register-card')).toEqual({ result: true });
  expect(loadEmailForSignIn()).toBe(email);
  const continueOf = async () => new URL((await lastMail(email, 'EMAIL_SIGNIN')).oobLink).searchParams.get('continueUrl');
  expect(await continueOf()).toBe('http://localhost:3100/purchase/link-callback?next=%2Fpurchase%2Fregister-card');
  // An outside "next" is dropped before the mail is even sent.
  await sendSignInLink(email, 'https://evil.example/');
  expect(await continueOf()).toBe('http://localhost:3100/purchase/link-callback');
});

it('links the address to the anonymous visitor, keeping the uid; a replay is refused', async () => {
  const uid = await visitor();
  const email = uniqueEmail('visitor');
  await sendSignInLink(email, '/purchase/register-card');
  const href = await linkFor(email);
  expect(await activateEmailLink(href)).toBe('linked');
  const user = auth.currentUser!;
  expect(user.uid).toBe(uid);
  expect(user.isAnonymous).toBe(false);
  expect(user.email).toBe(email);
  expect(user.emailVerified).toBe(true);
  expect(loadEmailForSignIn()).toBeNull();

  // Replayed callback URL: the stored address is gone → No email link…
  await expect(activateEmailLink(href)).rejects.toThrow('No email link');
  // …and even with the address stored again, the code is used.
  saveEmailForSignIn(email);
  await expect(activateEmailLink(href)).rejects.toMatchObject({ code: expect.stringMatching(/auth\/(invalid-action-code|provider-already-linked)/) });
});

it('fails with "No email link" without the stored address or for a URL that is not a sign-in link', async () => {
  await visitor();
  const email = uniqueEmail('nostore');
  await sendSignInLink(email);
  const href = await linkFor(email);
  mockStorage.clear(); // opened in another browser
  await expect(activateEmailLink(href)).rejects.toThrow('No email link');
  saveEmailForSignIn(email);
  await expect(activateEmailLink(`${SITE}/purchase/link-callback?next=/`)).rejects.toThrow('No email link');
  await expect(activateEmailLink(`${SITE}/purchase/link-callback?mode=signIn&oobCode=FOREIGNcode123&apiKey=k`)).rejects.toMatchObject({
    code: 'auth/invalid-action-code',
  });
});

it('fails with 401 without a signed-in user', async () => {
  await visitor();
  const email = uniqueEmail('nouser');
  await sendSignInLink(email);
  const href = await linkFor(email);
  await signOut(auth);
  await expect(activateEmailLink(href)).rejects.toThrow('401');
});

it('signs a visitor in to the account that already owns the address', async () => {
  // An existing account made from a visitor by the e-mail link.
  const ownerUid = await visitor();
  const email = uniqueEmail('owner');
  await sendSignInLink(email);
  expect(await activateEmailLink(await linkFor(email))).toBe('linked');
  // Another visitor asks for a link to the same address.
  const other = await visitor();
  expect(other).not.toBe(ownerUid);
  await sendSignInLink(email);
  expect(await activateEmailLink(await linkFor(email))).toBe('signedIn');
  expect(auth.currentUser!.uid).toBe(ownerUid);
});

it('adds an address to an X account (verified user without e-mail)', async () => {
  await signOut(auth);
  const { user } = await signInWithCredential(auth, localTwitterCredential({ screenName: `x${Date.now() % 1e9}`, name: 'エックス' }));
  created.add(user.uid);
  const email = uniqueEmail('xmail');
  await sendSignInLink(email, '/purchase/register-card');
  expect(await activateEmailLink(await linkFor(email))).toBe('linked');
  expect(auth.currentUser!.uid).toBe(user.uid);
  expect(auth.currentUser!.email).toBe(email);
  expect(auth.currentUser!.providerData.map((p) => p.providerId).sort()).toEqual(['password', 'twitter.com']);
});

it('a password account cannot take a second address by link (already linked)', async () => {
  await visitor();
  const email = uniqueEmail('pw');
  await signUpWithEmail(email, 'secret-pass-1');
  // signed out by the sign-up; sign in unverified is enough to try the link
  const { signInWithEmailAndPassword } = await import('firebase/auth');
  const { user } = await signInWithEmailAndPassword(auth, email, 'secret-pass-1');
  created.add(user.uid);
  const second = uniqueEmail('second');
  await sendSignInLink(second);
  await expect(activateEmailLink(await linkFor(second))).rejects.toMatchObject({ code: 'auth/provider-already-linked' });
});
