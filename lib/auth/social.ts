/**
 * Twitter/X sign-in by redirect (spec sections 4 and 7), the login modal's steps 2–5:
 * 2. any signed-in user is logged out (an anonymous visitor is kept: its uid is linked);
 * 3. the redirect login runs;
 * 4. on return, the account's e-mail is brought up to date;
 * 5. the follow-up given to the modal runs (a same-origin path to open, or stay).
 *
 * Production: signInWithRedirect / linkWithRedirect / reauthenticateWithRedirect, then
 * getRedirectResult when the app starts again. Local mode (Auth emulator, offline): X cannot be
 * reached, so step 3 opens /dev/x-consent, a local consent form standing in for X; it signs in
 * with an emulator credential and comes back the same way a redirect would.
 *
 * What must survive the page change (purpose, return path, follow-up, a link to retry) is kept
 * in sessionStorage under one key for at most 10 minutes. Passwords are never written there.
 */
import {
  browserPopupRedirectResolver,
  getRedirectResult,
  linkWithCredential,
  linkWithRedirect,
  reauthenticateWithCredential,
  reauthenticateWithRedirect,
  reload,
  signInWithCredential,
  signInWithRedirect,
  signOut,
  TwitterAuthProvider,
  updateEmail,
  updateProfile,
  type Auth,
  type AuthCredential,
  type User as FirebaseUser,
} from 'firebase/auth';
import { firebaseAuth } from '@/lib/firebase/client';
import { isLocalMode } from '@/lib/config';
import { errorCodeOf } from './errors';
import { runAuthFlow } from './flow';
import { safeRedirectPath } from './safeRedirect';
import { REDIRECT_INTENT_KEY } from './redirectIntentKey';
import { TWITTER_PROVIDER_ID } from './toUser';

/** The local consent form standing in for X (local mode only). */
export const LOCAL_CONSENT_PATH = '/dev/x-consent';
export { REDIRECT_INTENT_KEY };
export const REDIRECT_INTENT_TTL_MS = 10 * 60 * 1000;
/** The user left the consent page (or X) without deciding. */
export const REDIRECT_CANCELLED = 'auth/redirect-cancelled-by-user';

/**
 * - login: the login modal / sign-in page (links an anonymous visitor, else signs in);
 * - link: a signed-in user adds X to the account (settings);
 * - reauth: a recent login is required (auth/requires-recent-login) before retrying a link.
 */
export type RedirectPurpose = 'login' | 'link' | 'reauth';

/** A link to retry after the re-login (only e-mail links: passwords are never stored). */
export type PendingLink = { kind: 'emailLink'; email: string; link: string } | { kind: 'password'; email: string };

export type RedirectOutcome = { ok: true } | { ok: false; code: string };

export interface RedirectIntent {
  purpose: RedirectPurpose;
  /** Same-origin path the redirect comes back to. */
  returnTo: string;
  /** Login modal step 5: a same-origin path to open after the login; null stays on returnTo. */
  followUp: string | null;
  retry: PendingLink | null;
  /** Local mode: what the consent page did. */
  outcome?: RedirectOutcome;
  createdAt: number;
}

function session(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.sessionStorage;
  } catch {
    return null;
  }
}

export function loadRedirectIntent(now = Date.now()): RedirectIntent | null {
  try {
    const raw = session()?.getItem(REDIRECT_INTENT_KEY);
    if (!raw) return null;
    const v = JSON.parse(raw) as Partial<RedirectIntent>;
    if (!v || (v.purpose !== 'login' && v.purpose !== 'link' && v.purpose !== 'reauth')) return null;
    if (typeof v.createdAt !== 'number' || now - v.createdAt > REDIRECT_INTENT_TTL_MS || v.createdAt > now + 60_000) return null;
    return {
      purpose: v.purpose,
      returnTo: safeRedirectPath(v.returnTo) ?? '/',
      followUp: safeRedirectPath(v.followUp) ?? null,
      retry: parsePendingLink(v.retry),
      outcome: v.outcome && typeof v.outcome === 'object' ? (v.outcome as RedirectOutcome) : undefined,
      createdAt: v.createdAt,
    };
  } catch {
    return null;
  }
}

function parsePendingLink(v: unknown): PendingLink | null {
  if (!v || typeof v !== 'object') return null;
  const p = v as Record<string, unknown>;
  if (p.kind === 'emailLink' && typeof p.email === 'string' && typeof p.link === 'string') return { kind: 'emailLink', email: p.email, link: p.link };
  if (p.kind === 'password' && typeof p.email === 'string') return { kind: 'password', email: p.email };
  return null;
}

export function saveRedirectIntent(intent: RedirectIntent): void {
  try {
    session()?.setItem(REDIRECT_INTENT_KEY, JSON.stringify(intent));
  } catch {
    /* private mode: the redirect still works, only the follow-up is lost */
  }
}

export function clearRedirectIntent(): void {
  try {
    session()?.removeItem(REDIRECT_INTENT_KEY);
  } catch {
    /* ignore */
  }
}

/** Full-page navigation (replaceable in tests: jsdom cannot navigate). */
export const navigation = {
  assign(url: string): void {
    // A full navigation on purpose: it stands in for the redirect to X, which leaves the app.
    window.location.assign(url);
  },
};

function currentPath(): string {
  if (typeof window === 'undefined') return '/';
  const { pathname, search, hash } = window.location;
  return safeRedirectPath(`${pathname}${search}${hash}`) ?? '/';
}

export function twitterProvider(): TwitterAuthProvider {
  const provider = new TwitterAuthProvider();
  provider.setCustomParameters({ lang: 'ja' });
  return provider;
}

/** Login modal step 2: logs out a signed-in user. An anonymous visitor stays, to be linked. */
export async function logoutBeforeSocialLogin(auth: Auth = firebaseAuth()): Promise<void> {
  const user = auth.currentUser;
  if (user && !user.isAnonymous) await signOut(auth);
}

export interface StartRedirectOptions {
  followUp?: string | null;
  retry?: PendingLink | null;
  /** Where to come back to; the current page by default. */
  returnTo?: string;
}

/**
 * Login modal step 3 (and the re-login of a link that needs a recent login): leaves the page
 * for X (production) or the local consent form (local mode). Resolves once the navigation has
 * started; the rest happens in completeRedirectLogin when the app starts again.
 */
export async function startRedirect(purpose: RedirectPurpose, options: StartRedirectOptions = {}, auth: Auth = firebaseAuth()): Promise<void> {
  const intent: RedirectIntent = {
    purpose,
    returnTo: safeRedirectPath(options.returnTo) ?? currentPath(),
    followUp: safeRedirectPath(options.followUp) ?? null,
    retry: options.retry ?? null,
    createdAt: Date.now(),
  };
  const user = auth.currentUser;
  if ((purpose === 'reauth' || purpose === 'link') && (!user || user.isAnonymous)) throw new Error('currentUser does not exist');
  saveRedirectIntent(intent);
  if (isLocalMode) {
    navigation.assign(`${LOCAL_CONSENT_PATH}?purpose=${purpose}`);
    return;
  }
  const provider = twitterProvider();
  try {
    // The resolver is passed here, not at initialisation (lib/firebase/client.ts): it loads
    // Google's iframe script, which only a redirect needs.
    const resolver = browserPopupRedirectResolver;
    if (purpose === 'reauth') await reauthenticateWithRedirect(user!, provider, resolver);
    else if (user && (user.isAnonymous || purpose === 'link')) await linkWithRedirect(user, provider, resolver);
    else await signInWithRedirect(auth, provider, resolver);
  } catch (error) {
    clearRedirectIntent();
    throw error;
  }
}

/**
 * Applies an X credential the way the redirect would have: re-authenticates (reauth), links it
 * to the current user (an anonymous visitor keeps its uid; link), or signs in. When the X
 * account already belongs to another user, a login signs in to that account instead.
 */
export async function applySocialCredential(purpose: RedirectPurpose, credential: AuthCredential, auth: Auth = firebaseAuth()): Promise<FirebaseUser> {
  const user = auth.currentUser;
  if (purpose === 'reauth') {
    if (!user || user.isAnonymous) throw new Error('currentUser does not exist');
    return (await reauthenticateWithCredential(user, credential)).user;
  }
  if (user && (user.isAnonymous || purpose === 'link')) {
    try {
      return (await linkWithCredential(user, credential)).user;
    } catch (error) {
      if (purpose !== 'login' || errorCodeOf(error) !== 'auth/credential-already-in-use') throw error;
      const fromError = TwitterAuthProvider.credentialFromError(error as Parameters<typeof TwitterAuthProvider.credentialFromError>[0]);
      return (await signInWithCredential(auth, fromError ?? credential)).user;
    }
  }
  return (await signInWithCredential(auth, credential)).user;
}

/** What the local consent form asks for: the X account it stands in for. */
export interface LocalXProfile {
  /** @handle without the @ (1–15 letters, digits, underscores). */
  screenName: string;
  /** Display name; X always has one. */
  name: string;
  /** Optional e-mail, as X shares it with apps that ask (unverified). */
  email?: string;
}

/**
 * The emulator's X credential (DESIGN §6): the "id token" is the profile as JSON and the secret
 * is ignored. `sub` is derived from the handle, so the same handle is the same X account again.
 */
export function localTwitterCredential(profile: LocalXProfile): AuthCredential {
  const claims: Record<string, string> = {
    sub: `local-x-${profile.screenName.toLowerCase()}`,
    screen_name: profile.screenName,
    name: profile.name,
  };
  if (profile.email) claims.email = profile.email.trim();
  return TwitterAuthProvider.credential(JSON.stringify(claims), 'secret');
}

/** The consent form's "allow": signs in, records the outcome, and answers where to go back to. */
export async function approveLocalConsent(profile: LocalXProfile, auth: Auth = firebaseAuth()): Promise<{ returnTo: string; outcome: RedirectOutcome }> {
  const intent = loadRedirectIntent() ?? { purpose: 'login' as const, returnTo: '/', followUp: null, retry: null, createdAt: Date.now() };
  let outcome: RedirectOutcome;
  try {
    await runAuthFlow(async () => {
      await auth.authStateReady();
      const user = await applySocialCredential(intent.purpose, localTwitterCredential(profile), auth);
      if (intent.purpose !== 'reauth') await syncEmailFromProvider(user);
    });
    outcome = { ok: true };
  } catch (error) {
    outcome = { ok: false, code: errorCodeOf(error) };
  }
  saveRedirectIntent({ ...intent, outcome });
  return { returnTo: intent.returnTo, outcome };
}

/** The consent form's "cancel". */
export function cancelLocalConsent(): string {
  const intent = loadRedirectIntent();
  if (!intent) return '/';
  saveRedirectIntent({ ...intent, outcome: { ok: false, code: REDIRECT_CANCELLED } });
  return intent.returnTo;
}

/**
 * Login modal step 4: brings the account's e-mail (and name) up to date after the X login.
 * The account is reloaded; an account still without an address takes the one X shared, if any,
 * and one without a display name or photo takes X's (linking a visitor does not copy them, and
 * without a name the sign-out rules of spec section 4 would end the session).
 */
export async function syncEmailFromProvider(user: FirebaseUser): Promise<void> {
  await reload(user);
  const x = user.providerData.find((p) => p.providerId === TWITTER_PROVIDER_ID);
  if (x && ((!user.displayName && x.displayName) || (!user.photoURL && x.photoURL))) {
    await updateProfile(user, {
      ...(!user.displayName && x.displayName ? { displayName: x.displayName } : {}),
      ...(!user.photoURL && x.photoURL ? { photoURL: x.photoURL } : {}),
    });
  }
  if (!user.email && x?.email) {
    try {
      await updateEmail(user, x.email);
    } catch (error) {
      console.error('could not copy the e-mail shared by X', errorCodeOf(error));
    }
  }
  await user.getIdToken(true);
}

export type RedirectCompletion =
  | { kind: 'none' }
  | { kind: 'success'; purpose: RedirectPurpose; followUp: string | null; retry: PendingLink | null; user: FirebaseUser }
  | { kind: 'failure'; purpose: RedirectPurpose; code: string; retry: PendingLink | null };

/**
 * Run once when the app starts: finishes a redirect login that left this tab (steps 4 and the
 * follow-up's target; the caller runs the follow-up). Does nothing on the consent page itself.
 */
export async function completeRedirectLogin(auth: Auth = firebaseAuth()): Promise<RedirectCompletion> {
  if (typeof window === 'undefined') return { kind: 'none' };
  if (window.location.pathname === LOCAL_CONSENT_PATH) return { kind: 'none' };
  const intent = loadRedirectIntent();
  if (isLocalMode) {
    if (!intent) {
      clearRedirectIntent();
      return { kind: 'none' };
    }
    clearRedirectIntent();
    const outcome = intent.outcome ?? { ok: false as const, code: REDIRECT_CANCELLED };
    if (!outcome.ok) return { kind: 'failure', purpose: intent.purpose, code: outcome.code, retry: intent.retry };
    await auth.authStateReady();
    return finish(intent, auth.currentUser);
  }

  // Every redirect we start saves its intent first (startRedirect), and sessionStorage outlives
  // the round trip in this tab: with no intent there is no result to collect, and asking for
  // one would load Google's iframe script on every page (issue 12: no other origin on load).
  if (!intent) return { kind: 'none' };
  let user: FirebaseUser | null = null;
  try {
    const result = await getRedirectResult(auth, browserPopupRedirectResolver);
    user = result?.user ?? null;
  } catch (error) {
    const code = errorCodeOf(error);
    if (code === 'auth/credential-already-in-use' && intent.purpose === 'login') {
      // linkWithRedirect of a visitor to an X account that already has a user: sign in to it.
      try {
        const credential = TwitterAuthProvider.credentialFromError(error as Parameters<typeof TwitterAuthProvider.credentialFromError>[0]);
        if (!credential) throw error;
        user = (await signInWithCredential(auth, credential)).user;
      } catch (second) {
        clearRedirectIntent();
        return { kind: 'failure', purpose: 'login', code: errorCodeOf(second), retry: null };
      }
    } else {
      clearRedirectIntent();
      return { kind: 'failure', purpose: intent.purpose, code, retry: intent.retry };
    }
  }
  clearRedirectIntent();
  if (!user) {
    // No result although we left for X: the user came back without deciding.
    return { kind: 'failure', purpose: intent.purpose, code: REDIRECT_CANCELLED, retry: intent.retry };
  }
  return finish(intent, user);
}

async function finish(intent: RedirectIntent, user: FirebaseUser | null): Promise<RedirectCompletion> {
  if (!user) return { kind: 'failure', purpose: intent.purpose, code: 'currentUser does not exist', retry: intent.retry };
  if (intent.purpose !== 'reauth') {
    try {
      await syncEmailFromProvider(user);
    } catch (error) {
      console.error('e-mail update after the X login failed', errorCodeOf(error));
    }
  }
  return { kind: 'success', purpose: intent.purpose, followUp: intent.followUp, retry: intent.retry, user };
}

export function hasTwitter(user: Pick<FirebaseUser, 'providerData'> | null | undefined): boolean {
  return !!user?.providerData.some((p) => p.providerId === TWITTER_PROVIDER_ID);
}
