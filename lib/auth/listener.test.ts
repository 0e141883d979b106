/**
 * The listener with the SDK mocked: anonymous sign-in and safe-check reset with no user, the
 * sign-out rules, reports held while a flow runs, the redirect completion's outcome.
 */
import * as fa from 'firebase/auth';
import { makeStore } from '@/store';
import { STORAGE_KEYS } from '@/lib/storage/keys';
import { loadSafeCheck, saveSafeCheck } from '@/lib/storage/safeCheck';
import { startAuthListener, handleRedirectCompletion } from './listener';
import { runAuthFlow } from './flow';
import { completeRedirectLogin } from './social';

type Cb = (u: unknown) => void;
let emit: Cb = () => undefined;
const mockAuth: { currentUser: unknown } = { currentUser: null };

jest.mock('@/lib/firebase/client', () => ({ firebaseAuth: () => mockAuth }));
jest.mock('next/router', () => ({ __esModule: true, default: { replace: jest.fn(async () => true) } }));
jest.mock('firebase/auth', () => ({
  onIdTokenChanged: jest.fn((_auth: unknown, cb: Cb) => {
    emit = cb;
    return () => undefined;
  }),
  signInAnonymously: jest.fn(async () => ({})),
  signOut: jest.fn(async () => undefined),
}));
jest.mock('./social', () => ({ completeRedirectLogin: jest.fn(async () => ({ kind: 'none' })) }));
jest.mock('./signInMethods', () => ({
  providerMethods: (fb: { providerData: Array<{ providerId: string }> }) => fb.providerData.map((p) => p.providerId),
  lookupSignInMethods: jest.fn(async () => ['password']),
}));
jest.mock('./link', () => ({ retryPendingLink: jest.fn(async () => ({ result: true })), PASSWORD_AGAIN: 'passwordAgain' }));

const sdk = fa as jest.Mocked<typeof fa>;
const flush = () => new Promise((r) => setTimeout(r, 0));

function fbUser(over: Record<string, unknown> = {}) {
  return {
    uid: 'u1',
    displayName: null,
    email: 'a@example.com',
    emailVerified: true,
    photoURL: null,
    isAnonymous: false,
    providerData: [{ providerId: 'password' }],
    metadata: { creationTime: 'Tue, 01 Jan 2030 00:00:00 GMT' },
    getIdTokenResult: jest.fn(async () => ({ claims: { paymentExpirationTime: 1900000000 }, expirationTime: new Date(Date.now() + 3600_000).toUTCString() })),
    getIdToken: jest.fn(async () => 't'),
    ...over,
  };
}

beforeEach(() => {
  jest.clearAllMocks();
  mockAuth.currentUser = null;
  window.localStorage.clear();
});

it('no user: resets the safe check, reports null, signs the visitor in anonymously', async () => {
  const store = makeStore();
  window.localStorage.setItem(STORAGE_KEYS.safeCheck, JSON.stringify({ confirmed: true, over18: true, isNSFWMode: true }));
  const stop = startAuthListener(store.dispatch);
  await flush();
  emit(null);
  expect(window.localStorage.getItem(STORAGE_KEYS.safeCheck)).toBeNull();
  expect(store.getState().user).toMatchObject({ user: null, authReady: true });
  expect(sdk.signInAnonymously).toHaveBeenCalledTimes(1);
  emit(null); // a second report while the sign-in runs does not start another
  expect(sdk.signInAnonymously).toHaveBeenCalledTimes(1);
  stop();
});

it('no user at the first report keeps an answer the visitor gave on this page; a sign-out resets it', async () => {
  // Auth starts at a visitor's first tap (lib/auth/loader.ts): its first report can follow an answer.
  const store = makeStore();
  const stop = startAuthListener(store.dispatch);
  await flush();
  saveSafeCheck({ confirmed: true, over18: false, isNSFWMode: false });
  emit(null);
  expect(loadSafeCheck()).toEqual({ confirmed: true, over18: false, isNSFWMode: false });
  const u = fbUser({ isAnonymous: true, email: null, providerData: [] });
  mockAuth.currentUser = u;
  emit(u);
  await flush();
  mockAuth.currentUser = null;
  emit(null); // signed out
  expect(window.localStorage.getItem(STORAGE_KEYS.safeCheck)).toBeNull();
  stop();
});

it('a user: reported with the claim and the looked-up sign-in methods', async () => {
  const store = makeStore();
  const stop = startAuthListener(store.dispatch);
  await flush();
  const u = fbUser();
  mockAuth.currentUser = u;
  emit(u);
  await flush();
  expect(store.getState().user.user).toMatchObject({ uid: 'u1', paymentExpirationTime: 1900000000, signInMethods: ['password'], isAnonymous: false });
  stop();
});

it('sign-out rules: no name + unverified → out; no name + no e-mail → out with auth/unexpected-error', async () => {
  const store = makeStore();
  const stop = startAuthListener(store.dispatch);
  await flush();
  emit(fbUser({ emailVerified: false }));
  await flush();
  expect(sdk.signOut).toHaveBeenCalledTimes(1);
  expect(store.getState().user.loginErrorCode).toBeNull();
  emit(fbUser({ email: null, providerData: [{ providerId: 'twitter.com' }] }));
  await flush();
  expect(sdk.signOut).toHaveBeenCalledTimes(2);
  expect(store.getState().user.loginErrorCode).toBe('auth/unexpected-error');
  expect(store.getState().user.user).toBeUndefined();
  stop();
});

it('holds reports while a flow runs and reports the user as the flow left it', async () => {
  const store = makeStore();
  const stop = startAuthListener(store.dispatch);
  await flush();
  let finish: () => void = () => undefined;
  const flow = runAuthFlow(() => new Promise<void>((r) => (finish = r)));
  const linked = fbUser({ emailVerified: false }); // a just-linked visitor (would be signed out)
  mockAuth.currentUser = linked;
  emit(linked);
  await flush();
  expect(store.getState().user.user).toBeUndefined();
  expect(sdk.signOut).not.toHaveBeenCalled();
  mockAuth.currentUser = null; // the flow signs out at its end
  finish();
  await flow;
  await flush();
  expect(store.getState().user.user).toBeNull();
  expect(sdk.signInAnonymously).toHaveBeenCalledTimes(1);
  stop();
});

it('the redirect completion runs as a flow when the listener starts', async () => {
  (completeRedirectLogin as jest.Mock).mockResolvedValueOnce({ kind: 'failure', purpose: 'login', code: 'auth/redirect-cancelled-by-user', retry: null });
  const log = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  const store = makeStore();
  const stop = startAuthListener(store.dispatch);
  await flush();
  expect(store.getState().user.loginErrorCode).toBe('auth/redirect-cancelled-by-user');
  expect(log).toHaveBeenCalledWith('social login failed', 'auth/redirect-cancelled-by-user');
  expect(store.getState().toast.stack).toEqual([]); // no message (spec step 6)
  log.mockRestore();
  stop();
});

it('success: a toast, the follow-up path, and the retry of a pending link', async () => {
  const Router = (await import('next/router')).default as unknown as { replace: jest.Mock };
  const store = makeStore();
  await handleRedirectCompletion({ kind: 'success', purpose: 'login', followUp: '/mylist', retry: null, user: fbUser() as unknown as fa.User }, store.dispatch);
  expect(store.getState().toast.stack.map((t) => t.props.message)).toEqual(['ログインしました']);
  expect(Router.replace).toHaveBeenCalledWith('/mylist');
  await handleRedirectCompletion(
    { kind: 'success', purpose: 'reauth', followUp: null, retry: { kind: 'emailLink', email: 'a@example.com', link: 'x' }, user: fbUser() as unknown as fa.User },
    store.dispatch,
  );
  expect(store.getState().toast.stack.map((t) => t.props.message)).toContain('メールアドレスを登録しました。');
});
