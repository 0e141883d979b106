/**
 * Twitter/X with the emulator credential the local consent form uses (DESIGN §6): a visitor
 * is linked (uid kept), the same handle later is the same account, linking to a signed-in
 * account, re-authentication, the sign-out rules, and e-mail + password registration of an
 * X account.
 */
import './env';
import { signInAnonymously, signInWithCredential, signOut, TwitterAuthProvider } from 'firebase/auth';
import { firebaseAuth } from '@/lib/firebase/client';
import { applySocialCredential, localTwitterCredential, syncEmailFromProvider } from '@/lib/auth/social';
import { registerEmailPassword, loginWithEmail } from '@/lib/auth/emailAuth';
import { applyEmailAction } from '@/lib/auth/actionCode';
import { sessionRule } from '@/lib/auth/sessionRules';
import { toUser } from '@/lib/auth/toUser';
import { providerMethods } from '@/lib/auth/signInMethods';
import { errorCodeOf } from '@/lib/auth/errors';
import { deleteUsers, lastMail, uniqueEmail } from './helpers';

jest.setTimeout(30_000);

const auth = firebaseAuth();
const created = new Set<string>();
const handle = (tag: string) => `${tag}${Math.floor(Math.random() * 1e9)}`.slice(0, 15);

async function visitor(): Promise<string> {
  await signOut(auth);
  const { user } = await signInAnonymously(auth);
  created.add(user.uid);
  return user.uid;
}

afterAll(async () => {
  await signOut(auth).catch(() => undefined);
  await deleteUsers(created);
});

it('links X to the visitor, keeping the uid; the user becomes verified with canTwitterLoggedIn', async () => {
  const uid = await visitor();
  const name = handle('yume');
  const user = await applySocialCredential('login', localTwitterCredential({ screenName: name, name: 'ゆめ' }));
  expect(user.uid).toBe(uid);
  expect(user.isAnonymous).toBe(false);
  // Linking does not copy X's name onto the account; step 4 does (else the sign-out rule hits).
  expect(sessionRule(user)).toEqual({ action: 'signOut', code: 'auth/unexpected-error' });
  await syncEmailFromProvider(user);
  const u = toUser(user, (await user.getIdTokenResult()).claims, providerMethods(user));
  expect(u).toMatchObject({ uid, name: 'ゆめ', canTwitterLoggedIn: true, isAnonymous: false, signInMethods: ['twitter.com'] });
  expect(sessionRule(user)).toEqual({ action: 'keep' });

  // Later, another visitor (another device) with the same handle gets that same account.
  const other = await visitor();
  expect(other).not.toBe(uid);
  const again = await applySocialCredential('login', localTwitterCredential({ screenName: name, name: 'ゆめ' }));
  expect(again.uid).toBe(uid);
});

it('signs in without a visitor, links to a signed-in account, and re-authenticates', async () => {
  await signOut(auth);
  const signedIn = await applySocialCredential('login', localTwitterCredential({ screenName: handle('solo'), name: 'ソロ' }));
  created.add(signedIn.uid);
  expect(signedIn.providerData[0].providerId).toBe('twitter.com');

  const name = handle('re');
  await signOut(auth);
  const first = await applySocialCredential('login', localTwitterCredential({ screenName: name, name: 'リ' }));
  created.add(first.uid);
  expect((await applySocialCredential('reauth', localTwitterCredential({ screenName: name, name: 'リ' }))).uid).toBe(first.uid);
  // Re-authenticating as another X account is refused.
  await expect(applySocialCredential('reauth', localTwitterCredential({ screenName: handle('intruder'), name: 'x' }))).rejects.toMatchObject({
    code: expect.stringMatching(/auth\/(user-mismatch|user-not-found|invalid-credential)/),
  });
});

it('a link of an X account that belongs to someone else is refused for purpose "link"', async () => {
  const owned = handle('own');
  await signOut(auth);
  const owner = await applySocialCredential('login', localTwitterCredential({ screenName: owned, name: 'オーナー' }));
  created.add(owner.uid);
  await signOut(auth);
  const { user } = await signInWithCredential(auth, localTwitterCredential({ screenName: handle('me'), name: 'ミー' }));
  created.add(user.uid);
  await expect(applySocialCredential('link', localTwitterCredential({ screenName: owned, name: 'オーナー' }))).rejects.toMatchObject({
    code: expect.stringMatching(/auth\/(credential-already-in-use|provider-already-linked)/),
  });
});

it('takes the e-mail X shares (step 4, e-mail update)', async () => {
  await visitor();
  const email = uniqueEmail('xshare');
  const user = await applySocialCredential('login', localTwitterCredential({ screenName: handle('mail'), name: 'メール', email }));
  await syncEmailFromProvider(user);
  expect(auth.currentUser!.email).toBe(email);
  expect(toUser(auth.currentUser!, {}).email).toBe(email);
});

it('the sign-out rules: no name and no e-mail → auth/unexpected-error; no name and unverified e-mail → out', async () => {
  await signOut(auth);
  const bare = await signInWithCredential(auth, TwitterAuthProvider.credential(JSON.stringify({ sub: `bare-${Date.now()}`, screen_name: 'bare' }), 'secret'));
  created.add(bare.user.uid);
  expect(sessionRule(bare.user)).toEqual({ action: 'signOut', code: 'auth/unexpected-error' });
  await signOut(auth);
  const unverified = await signInWithCredential(
    auth,
    TwitterAuthProvider.credential(JSON.stringify({ sub: `nv-${Date.now()}`, screen_name: 'nv', email: uniqueEmail('nv') }), 'secret'),
  );
  created.add(unverified.user.uid);
  expect(sessionRule(unverified.user)).toEqual({ action: 'signOut', code: null });
});

it('an X account registers an e-mail and password (linked, uid kept) and can then log in with them', async () => {
  await signOut(auth);
  const { user } = await signInWithCredential(auth, localTwitterCredential({ screenName: handle('reg'), name: '登録' }));
  created.add(user.uid);
  const email = uniqueEmail('xreg');
  expect(await registerEmailPassword(email, '12345')).toEqual({ result: false, code: 'auth/weak-password' });
  expect(await registerEmailPassword(email, 'x-pass-123')).toEqual({ result: true });
  expect(auth.currentUser!.uid).toBe(user.uid);
  expect(auth.currentUser!.providerData.map((p) => p.providerId).sort()).toEqual(['password', 'twitter.com']);
  const mail = await lastMail(email, 'VERIFY_EMAIL');
  expect((await applyEmailAction('verifyEmail', mail.oobCode)).result).toBe(true);
  await signOut(auth);
  expect(await loginWithEmail(email, 'x-pass-123')).toEqual({ result: true });
  expect(auth.currentUser!.uid).toBe(user.uid);
  expect(errorCodeOf(await registerEmailPassword(uniqueEmail(), 'x-pass-123').then((r) => (r.result ? null : { code: r.code })))).toBe(
    'auth/provider-already-linked',
  );
});
