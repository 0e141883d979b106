/**
 * Loads Firebase Auth and starts the auth listener (lib/auth/listener.ts) when the page needs it,
 * not in a public page's first paint (issue 12, docs/web-performance.md).
 *
 * The Firebase SDK is ~60 kB gzip of script and its start-up is main-thread work; a catalogue
 * page a search engine or a shared link opens shows everything without it. So:
 * - a page only signed-in users may open (and any page coming back from a sign-in redirect, or
 *   any page of a browser whose user was signed in last time, lib/auth/hint.ts) starts it at
 *   once: its guard and its per-user rows wait for the auth state;
 * - a visitor's public page starts it at the first tap, click or key: until then the store
 *   says "no user yet" (`loggedIn(null)`, the state the app was always in for a moment before the
 *   anonymous sign-in), so the header shows its sign-in button, a bookmark asks to sign in and a
 *   link into a members' page is held with the sign-in modal, as for any visitor; no request
 *   goes to Firebase (another origin) while the page loads. Once it runs, the listener reports
 *   the real user (the persisted one, or a fresh anonymous one).
 * `ensureAuthStarted()` starts it now from code that needs the user.
 */
import Router from 'next/router';
import type { AppDispatch } from '@/store';
import { loggedIn } from '@/store/slices/user';
import { isAuthDeferred, matchRoute } from '@/lib/routes/rules';
import { REDIRECT_INTENT_KEY } from './redirectIntentKey';
import { readAuthHint } from './hint';

/**
 * True when the page at `path` needs auth at once: not a public page, a sign-in redirect coming
 * back, or a browser whose user was signed in last time (their rows and header need the user).
 */
export function needsAuthAtOnce(path: string): boolean {
  const route = matchRoute(path);
  if (!route || !isAuthDeferred(route.pattern)) return true;
  if (readAuthHint() === 'verified') return true;
  try {
    return window.sessionStorage.getItem(REDIRECT_INTENT_KEY) !== null;
  } catch {
    return false;
  }
}

/** Interactions that start auth at once on an open page. */
const INTERACTIONS = ['pointerdown', 'keydown', 'touchstart'] as const;

let started: Promise<() => void> | null = null;
let dispatchRef: AppDispatch | null = null;

/**
 * A visitor's first interaction is often a tap on a link: auth then loads while the router moves
 * to the next page. Its first report changes the store; arriving in the middle of the router's
 * page change, that update interrupted it and the new page kept the old scroll position. So the
 * listener starts once no page change is under way.
 */
let navigating = false;
const settled: (() => void)[] = [];
function onNavigationStart() {
  navigating = true;
}
function onNavigationEnd() {
  navigating = false;
  for (const resume of settled.splice(0)) resume();
}
function afterNavigation(): Promise<void> {
  return navigating ? new Promise((resolve) => settled.push(resolve)) : Promise.resolve();
}

function start(): Promise<() => void> {
  if (!started) {
    const dispatch = dispatchRef;
    if (!dispatch) return Promise.reject(new Error('auth loader not scheduled'));
    started = import('./listener').then(async (m) => {
      await afterNavigation();
      return m.startAuthListener(dispatch);
    });
  }
  return started;
}

/** Starts auth now (if scheduled and not yet started); resolves when the listener is running. */
export function ensureAuthStarted(): Promise<void> {
  return start().then(() => undefined);
}

/**
 * Schedules the auth start for this app: `now` for pages that need the user at once, else at the
 * first interaction (a visitor's public page). Returns the cleanup (stops the listener when the
 * app unmounts, as the listener's own cleanup does).
 */
export function scheduleAuthStart(dispatch: AppDispatch, now: boolean): () => void {
  dispatchRef = dispatch;
  Router.events.on('routeChangeStart', onNavigationStart);
  Router.events.on('routeChangeComplete', onNavigationEnd);
  Router.events.on('routeChangeError', onNavigationEnd);
  const stopWaiting = () => {
    for (const type of INTERACTIONS) window.removeEventListener(type, go, true);
  };
  function go() {
    stopWaiting();
    void start().catch((e) => console.error('auth failed to load', e));
  }
  if (now) go();
  else {
    dispatch(loggedIn(null));
    for (const type of INTERACTIONS) window.addEventListener(type, go, { capture: true, passive: true });
  }
  return () => {
    stopWaiting();
    Router.events.off('routeChangeStart', onNavigationStart);
    Router.events.off('routeChangeComplete', onNavigationEnd);
    Router.events.off('routeChangeError', onNavigationEnd);
    onNavigationEnd();
    const running = started;
    started = null;
    void running?.then((stop) => stop()).catch(() => undefined);
  };
}
