/**
 * The redirect login of spec section 4 with the Firebase SDK mocked: which SDK call each case
 * makes, what survives the page change, the follow-up, failures, and the retry of a link that
 * needed a recent login (the emulator never asks for one, so this is where it is tested).
 */
import * as fa from 'firebase/auth';
import {
  approveLocalConsent,
  cancelLocalConsent,
  completeRedirectLogin,
  loadRedirectIntent,
  logoutBeforeSocialLogin,
  navigation,
  REDIRECT_CANCELLED,
  REDIRECT_INTENT_KEY,
  REDIRECT_INTENT_TTL_MS,
  saveRedirectIntent,
  startRedirect,
} from './social';
import { linkWithRecentLogin, REDIRECTING, retryPendingLink, PASSWORD_AGAIN } from './link';

let mockLocal = true;
jest.mock('@/lib/config', () => {
  const actual = jest.requireActual('@/lib/config');
  return {
    ...actual,
    get isLocalMode() {
      return mockLocal;
    },
  };
});

const mockAuth: { currentUser: unknown; authStateReady: () => Promise<void> } = { currentUser: null, authStateReady: async () => undefined };
jest.mock('@/lib/firebase/client', () => ({ firebaseAuth: () => mockAuth }));

jest.mock('firebase/auth', () => {
  class TwitterAuthProvider {
    static credential = jest.fn((idToken: string, secret: string) => ({ providerId: 'twitter.com', idToken, secret }));
    static credentialFromError = jest.fn(() => ({ providerId: 'twitter.com', fromError: true }));
    setCustomParameters = jest.fn();
  }
  return {
    TwitterAuthProvider,
    EmailAuthProvider: { credentialWithLink: jest.fn((email: string, link: string) => ({ providerId: 'password', email, link })), credential: jest.fn() },
    browserPopupRedirectResolver: { resolver: 'popup-redirect' },
    getRedirectResult: jest.fn(),
    linkWithCredential: jest.fn(),
    linkWithRedirect: jest.fn(),
    reauthenticateWithCredential: jest.fn(),
    reauthenticateWithRedirect: jest.fn(),
    reload: jest.fn(async () => undefined),
    signInWithCredential: jest.fn(),
    signInWithRedirect: jest.fn(),
    signOut: jest.fn(async () => undefined),
    updateEmail: jest.fn(async () => undefined),
  };
});

const sdk = fa as jest.Mocked<typeof fa>;
const err = (code: string) => Object.assign(new Error(code), { code });

function user(over: Record<string, unknown> = {}) {
  return { uid: 'u1', isAnonymous: false, email: null, providerData: [] as Array<{ providerId: string; email?: string | null }>, getIdToken: jest.fn(async () => 't'), ...over };
}

let assigned: string[] = [];
beforeEach(() => {
  jest.clearAllMocks();
  window.sessionStorage.clear();
  mockLocal = true;
  mockAuth.currentUser = null;
  assigned = [];
  navigation.assign = (url: string) => {
    assigned.push(url);
  };
  window.history.replaceState(null, '', '/title/hajimari-no-eki');
});

describe('step 2: logout before the social login', () => {
  it('logs out a signed-in user but keeps an anonymous visitor (to link its uid)', async () => {
    mockAuth.currentUser = user();
    await logoutBeforeSocialLogin();
    expect(sdk.signOut).toHaveBeenCalledTimes(1);
    mockAuth.currentUser = user({ isAnonymous: true });
    await logoutBeforeSocialLogin();
    expect(sdk.signOut).toHaveBeenCalledTimes(1);
  });
});

describe('step 3: the redirect login', () => {
  it('local mode: stores the intent and opens the local consent form', async () => {
    mockAuth.currentUser = user({ isAnonymous: true });
    await startRedirect('login', { followUp: '/mylist' });
    expect(assigned).toEqual(['/dev/x-consent?purpose=login']);
    expect(loadRedirectIntent()).toMatchObject({ purpose: 'login', returnTo: '/title/hajimari-no-eki', followUp: '/mylist', retry: null });
    expect(sdk.signInWithRedirect).not.toHaveBeenCalled();
  });

  it('refuses a follow-up or return path outside this site', async () => {
    await startRedirect('login', { followUp: 'https://evil.example/', returnTo: '//evil.example' });
    expect(loadRedirectIntent()).toMatchObject({ followUp: null, returnTo: '/title/hajimari-no-eki' });
  });

  it('production: links an anonymous visitor, signs in otherwise, re-authenticates for reauth', async () => {
    mockLocal = false;
    mockAuth.currentUser = user({ isAnonymous: true });
    await startRedirect('login');
    expect(sdk.linkWithRedirect).toHaveBeenCalledTimes(1);
    mockAuth.currentUser = null;
    await startRedirect('login');
    expect(sdk.signInWithRedirect).toHaveBeenCalledTimes(1);
    mockAuth.currentUser = user({ providerData: [{ providerId: 'twitter.com' }] });
    await startRedirect('reauth');
    expect(sdk.reauthenticateWithRedirect).toHaveBeenCalledTimes(1);
    expect(assigned).toEqual([]);
  });

  it('production: a failing redirect clears the intent and throws', async () => {
    mockLocal = false;
    sdk.signInWithRedirect.mockRejectedValueOnce(err('auth/network-request-failed'));
    await expect(startRedirect('login')).rejects.toMatchObject({ code: 'auth/network-request-failed' });
    expect(loadRedirectIntent()).toBeNull();
  });

  it('reauth and link need a signed-in user', async () => {
    await expect(startRedirect('reauth')).rejects.toThrow('currentUser does not exist');
    mockAuth.currentUser = user({ isAnonymous: true });
    await expect(startRedirect('link')).rejects.toThrow('currentUser does not exist');
  });
});

describe('the intent that survives the page change', () => {
  it('expires after 10 minutes and ignores garbage', () => {
    const now = Date.now();
    saveRedirectIntent({ purpose: 'login', returnTo: '/', followUp: null, retry: null, createdAt: now - REDIRECT_INTENT_TTL_MS - 1 });
    expect(loadRedirectIntent(now)).toBeNull();
    window.sessionStorage.setItem(REDIRECT_INTENT_KEY, '{"purpose":"steal","createdAt":1}');
    expect(loadRedirectIntent()).toBeNull();
    window.sessionStorage.setItem(REDIRECT_INTENT_KEY, 'not json');
    expect(loadRedirectIntent()).toBeNull();
  });

  it('never stores a password', async () => {
    mockAuth.currentUser = user({ providerData: [{ providerId: 'twitter.com' }] });
    sdk.linkWithCredential.mockRejectedValueOnce(err('auth/requires-recent-login'));
    await linkWithRecentLogin({ providerId: 'password' } as fa.AuthCredential, { kind: 'password', email: 'a@example.com' });
    const raw = window.sessionStorage.getItem(REDIRECT_INTENT_KEY)!;
    expect(JSON.parse(raw).retry).toEqual({ kind: 'password', email: 'a@example.com' });
  });
});

describe('local consent form', () => {
  it('links X to the anonymous visitor (same uid) and records the outcome', async () => {
    const visitor = user({ isAnonymous: true });
    mockAuth.currentUser = visitor;
    await startRedirect('login', { followUp: '/mylist' });
    sdk.linkWithCredential.mockResolvedValueOnce({ user: visitor } as unknown as fa.UserCredential);
    const { returnTo, outcome } = await approveLocalConsent({ screenName: 'Yume_1', name: 'ゆめ' });
    expect(returnTo).toBe('/title/hajimari-no-eki');
    expect(outcome).toEqual({ ok: true });
    expect(sdk.linkWithCredential).toHaveBeenCalledWith(visitor, expect.objectContaining({ providerId: 'twitter.com' }));
    expect(JSON.parse((fa.TwitterAuthProvider.credential as jest.Mock).mock.calls[0][0])).toEqual({ sub: 'local-x-yume_1', screen_name: 'Yume_1', name: 'ゆめ' });
    expect(sdk.signInWithCredential).not.toHaveBeenCalled();
  });

  it('signs in to the existing account when that X account already has one', async () => {
    mockAuth.currentUser = user({ isAnonymous: true });
    await startRedirect('login');
    sdk.linkWithCredential.mockRejectedValueOnce(err('auth/credential-already-in-use'));
    sdk.signInWithCredential.mockResolvedValueOnce({ user: user({ uid: 'existing' }) } as unknown as fa.UserCredential);
    const { outcome } = await approveLocalConsent({ screenName: 'yume', name: 'ゆめ' });
    expect(outcome).toEqual({ ok: true });
    expect(sdk.signInWithCredential).toHaveBeenCalledTimes(1);
  });

  it('cancel goes back and reports a cancelled login', async () => {
    mockAuth.currentUser = user({ isAnonymous: true });
    await startRedirect('login');
    expect(cancelLocalConsent()).toBe('/title/hajimari-no-eki');
    expect(loadRedirectIntent()?.outcome).toEqual({ ok: false, code: REDIRECT_CANCELLED });
  });
});

describe('steps 4–5 on return (completeRedirectLogin)', () => {
  it('local: updates the e-mail from X and hands back the follow-up', async () => {
    const u = user({ providerData: [{ providerId: 'twitter.com', email: 'x@example.com' }] });
    mockAuth.currentUser = u;
    saveRedirectIntent({ purpose: 'login', returnTo: '/', followUp: '/mylist', retry: null, outcome: { ok: true }, createdAt: Date.now() });
    const done = await completeRedirectLogin();
    expect(done).toMatchObject({ kind: 'success', purpose: 'login', followUp: '/mylist' });
    expect(sdk.reload).toHaveBeenCalledWith(u);
    expect(sdk.updateEmail).toHaveBeenCalledWith(u, 'x@example.com');
    expect(u.getIdToken).toHaveBeenCalledWith(true);
    expect(loadRedirectIntent()).toBeNull();
  });

  it('local: coming back without deciding is a cancelled login', async () => {
    saveRedirectIntent({ purpose: 'login', returnTo: '/', followUp: null, retry: null, createdAt: Date.now() });
    expect(await completeRedirectLogin()).toEqual({ kind: 'failure', purpose: 'login', code: REDIRECT_CANCELLED, retry: null });
  });

  it('does nothing without an intent, or on the consent page itself', async () => {
    expect(await completeRedirectLogin()).toEqual({ kind: 'none' });
    saveRedirectIntent({ purpose: 'login', returnTo: '/', followUp: null, retry: null, createdAt: Date.now() });
    window.history.replaceState(null, '', '/dev/x-consent?purpose=login');
    expect(await completeRedirectLogin()).toEqual({ kind: 'none' });
    expect(loadRedirectIntent()).not.toBeNull();
  });

  it('production: with no intent, getRedirectResult is not asked (it would load the Google iframe script)', async () => {
    mockLocal = false;
    expect(await completeRedirectLogin()).toEqual({ kind: 'none' });
    expect(sdk.getRedirectResult).not.toHaveBeenCalled();
  });

  it('production: getRedirectResult gives the user; credential-already-in-use signs in to that account', async () => {
    mockLocal = false;
    const u = user({ email: 'a@example.com' });
    saveRedirectIntent({ purpose: 'login', returnTo: '/', followUp: null, retry: null, createdAt: Date.now() });
    sdk.getRedirectResult.mockResolvedValueOnce({ user: u } as unknown as fa.UserCredential);
    expect(await completeRedirectLogin()).toMatchObject({ kind: 'success', user: u });
    expect(sdk.updateEmail).not.toHaveBeenCalled();

    saveRedirectIntent({ purpose: 'login', returnTo: '/', followUp: null, retry: null, createdAt: Date.now() });
    sdk.getRedirectResult.mockRejectedValueOnce(err('auth/credential-already-in-use'));
    sdk.signInWithCredential.mockResolvedValueOnce({ user: u } as unknown as fa.UserCredential);
    expect(await completeRedirectLogin()).toMatchObject({ kind: 'success' });
    expect(sdk.signInWithCredential).toHaveBeenCalledWith(mockAuth, { providerId: 'twitter.com', fromError: true });
  });

  it('production: an error is a failure with the provider code; no result after leaving is a cancel', async () => {
    mockLocal = false;
    saveRedirectIntent({ purpose: 'login', returnTo: '/', followUp: null, retry: null, createdAt: Date.now() });
    sdk.getRedirectResult.mockRejectedValueOnce(err('auth/user-disabled'));
    expect(await completeRedirectLogin()).toMatchObject({ kind: 'failure', code: 'auth/user-disabled' });
    saveRedirectIntent({ purpose: 'login', returnTo: '/', followUp: null, retry: null, createdAt: Date.now() });
    sdk.getRedirectResult.mockResolvedValueOnce(null);
    expect(await completeRedirectLogin()).toMatchObject({ kind: 'failure', code: REDIRECT_CANCELLED });
    sdk.getRedirectResult.mockResolvedValueOnce(null);
    expect(await completeRedirectLogin()).toEqual({ kind: 'none' });
  });
});

describe('requires-recent-login: the social re-login runs and the link is retried (spec section 4)', () => {
  const pending = { kind: 'emailLink' as const, email: 'a@example.com', link: 'http://localhost/purchase/link-callback?mode=signIn&oobCode=X&apiKey=k' };

  it('starts the X re-login with the link to retry', async () => {
    mockAuth.currentUser = user({ providerData: [{ providerId: 'twitter.com' }] });
    sdk.linkWithCredential.mockRejectedValueOnce(err('auth/requires-recent-login'));
    const r = await linkWithRecentLogin({ providerId: 'password' } as fa.AuthCredential, pending);
    expect(r).toEqual({ result: false, code: REDIRECTING });
    expect(assigned).toEqual(['/dev/x-consent?purpose=reauth']);
    expect(loadRedirectIntent()).toMatchObject({ purpose: 'reauth', retry: pending });
  });

  it('reports the code when there is no X account to re-login with', async () => {
    mockAuth.currentUser = user({ providerData: [{ providerId: 'password' }] });
    sdk.linkWithCredential.mockRejectedValueOnce(err('auth/requires-recent-login'));
    expect(await linkWithRecentLogin({} as fa.AuthCredential, pending)).toEqual({ result: false, code: 'auth/requires-recent-login' });
    expect(assigned).toEqual([]);
  });

  it('retries the e-mail link after the re-login; a password needs entering again', async () => {
    const u = user({ providerData: [{ providerId: 'twitter.com' }] });
    mockAuth.currentUser = u;
    sdk.linkWithCredential.mockResolvedValueOnce({ user: u } as unknown as fa.UserCredential);
    expect(await retryPendingLink(pending)).toEqual({ result: true });
    expect(sdk.linkWithCredential).toHaveBeenCalledWith(u, { providerId: 'password', email: pending.email, link: pending.link });
    expect(await retryPendingLink({ kind: 'password', email: 'a@example.com' })).toEqual({ result: false, code: PASSWORD_AGAIN });
  });

  it('links directly when no recent login is needed', async () => {
    mockAuth.currentUser = user({ isAnonymous: true });
    sdk.linkWithCredential.mockResolvedValueOnce({ user: mockAuth.currentUser } as unknown as fa.UserCredential);
    expect(await linkWithRecentLogin({} as fa.AuthCredential, pending)).toEqual({ result: true });
  });
});
