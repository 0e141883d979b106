/**
 * The scroll position of spec section 9: saved per page while the user scrolls (debounced) and
 * when they leave the page, and put back when they come back with the browser's back or forward
 * button.
 *
 * Why a restore waits for the page to grow: some pages get their content only after the
 * back/forward navigation has completed. /mylist, /mylist/bookmark and /mylist/screenshot load
 * their items on mount (lib/mylist/usePagedList.ts keeps them in the component, so a page come
 * back to starts as a spinner), and home's "continue playing" row is filled in on the client.
 * (Data Next fetches before it completes, getStaticProps/getServerSideProps, needs no wait:
 * /search, home's catalogue rows, a title page.) When Next reports the navigation complete such
 * a page is still too short to reach the saved position, and one scroll would leave it near the
 * top (e2e/shell.spec.ts, "the scroll position of the bookmark list is restored…"; the unit test
 * grows the page after the navigation). So the restore tries again while the page is too short,
 * for up to RESTORE_WINDOW_MS, and stops as soon as the page is tall enough, the user scrolls,
 * or another navigation starts.
 */
import { useEffect } from 'react';
import Router from 'next/router';
import debounce from 'lodash.debounce';

/** Scroll position save debounce of spec section 9. */
export const SCROLL_SAVE_DEBOUNCE_MS = 150;
const KEY_PREFIX = 'yumecast.scroll:';

const withoutHash = (url: string) => url.split('#')[0];

function keyFor(url: string) {
  return `${KEY_PREFIX}${url}`;
}

function save(url: string, y: number) {
  try {
    window.sessionStorage.setItem(keyFor(url), String(Math.round(y)));
  } catch {
    /* storage full or disabled: nothing to restore later */
  }
}

function load(url: string): number | null {
  try {
    const v = Number(window.sessionStorage.getItem(keyFor(url)));
    return Number.isFinite(v) && v > 0 ? v : null;
  } catch {
    return null;
  }
}

/**
 * How long a restore waits for the page to grow tall enough before giving up. The bookmark list
 * came 1.0–1.4 s after the back on the loaded test machine (e2e, with 600 ms added); a phone on a
 * slow network takes longer, and waiting costs nothing: it ends at the user's first input.
 */
export const RESTORE_WINDOW_MS = 5000;
/** How often a waiting restore looks at the page's height again. */
export const RESTORE_RETRY_MS = 50;

/** Input that means the user scrolls on their own: a waiting restore gives up at once. */
const USER_SCROLL_EVENTS = ['wheel', 'touchstart', 'keydown', 'pointerdown'] as const;

/** The restore under way: its next frame or retry, cancelled by cancelRestore. */
let pending: { frame: number; timer: number | undefined } | null = null;

function cancelRestore() {
  if (!pending) return;
  cancelAnimationFrame(pending.frame);
  window.clearTimeout(pending.timer);
  pending = null;
}

/**
 * Scrolls to `y` on the next frame; while the page is still too short to reach it (its content is
 * still arriving), tries again every RESTORE_RETRY_MS until `deadline`. Once the page is tall
 * enough, one scroll is made and nothing more.
 */
function restore(y: number, deadline = Date.now() + RESTORE_WINDOW_MS) {
  const run = { frame: 0, timer: undefined as number | undefined };
  pending = run;
  run.frame = requestAnimationFrame(() => {
    if (pending !== run) return;
    const reachable = document.documentElement.scrollHeight - window.innerHeight >= y;
    window.scrollTo(0, y);
    if (reachable || Date.now() >= deadline) pending = null;
    else run.timer = window.setTimeout(() => pending === run && restore(y, deadline), RESTORE_RETRY_MS);
  });
}

/**
 * Saves the scroll position (debounced 150 ms) and restores it on back/forward navigation.
 * New navigations start at the top as usual.
 */
export function useScrollRestoration(): void {
  useEffect(() => {
    if ('scrollRestoration' in window.history) window.history.scrollRestoration = 'manual';
    /** Where the last back/forward navigation goes (restored only when that navigation completes). */
    let poppedTo: string | null = null;
    /** The navigation under way (its URL without the hash), null when none. */
    let navigating: string | null = null;
    /** The last scroll, saved once scrolling rests: the page it was made on, and where. */
    let scrolled: { path: string; y: number } | null = null;
    const saveScrolled = debounce(() => {
      if (scrolled) save(scrolled.path, scrolled.y);
      scrolled = null;
    }, SCROLL_SAVE_DEBOUNCE_MS);
    // The page is taken where the scroll happens, not when the save runs; and a scroll while a
    // navigation is under way is the navigation's own (Next's scroll to the top of the page it
    // shows), never the user's: a back pressed before a link's page has finished had that page's
    // scroll to the top saved as the position of the page the back goes to (0), and nothing was
    // restored (a trace of the bookmark list e2e in shell.spec.ts, desktop). Nor is a scroll while
    // a restore waits the user's: it is the restore's own, cut short by a page still too short
    // (the bookmark list's spinner saved as 208 over 601, lost if the user left before the list came).
    const onScroll = () => {
      if (navigating !== null || pending !== null) return;
      scrolled = { path: Router.asPath, y: window.scrollY };
      saveScrolled();
    };
    // Leaving a page saves where it is at that moment (Router.asPath is still the page left). The
    // last scroll event is not enough: the browser sends it on its next frame, and a scroll just
    // before the navigation (a link scrolled into view to be tapped or clicked, or its focus) then
    // arrives after routeChangeStart and is dropped as the navigation's own. The saved place then
    // depended on that race: the phone e2e of the bookmark list left the page at 601 and saved
    // either 601 or the 851 of the scroll before (a trace of scroll events, saves and router
    // events). A restore still waiting (the user has not touched the page) keeps the saved place.
    const onStart = (url: string) => {
      const leaving = navigating === null && pending === null;
      cancelRestore();
      saveScrolled.cancel();
      scrolled = null;
      if (leaving) save(Router.asPath, window.scrollY);
      navigating = withoutHash(url);
    };
    const onEnd = (url: string) => {
      if (navigating === withoutHash(url)) navigating = null;
    };
    // A back pressed while the previous navigation is still finishing: that navigation completes
    // first (its page, then Next's scroll to the top), and must not take the restore that belongs
    // to the page the back goes to.
    const onComplete = (url: string) => {
      onEnd(url);
      if (poppedTo === null || withoutHash(url) !== poppedTo) return;
      poppedTo = null;
      const y = load(url);
      cancelRestore();
      if (y !== null) restore(y);
    };
    const onError = (_error: unknown, url: string) => onEnd(url);
    Router.beforePopState(({ as }) => {
      poppedTo = withoutHash(as);
      return true;
    });
    window.addEventListener('scroll', onScroll, { passive: true });
    for (const type of USER_SCROLL_EVENTS) window.addEventListener(type, cancelRestore, { passive: true });
    Router.events.on('routeChangeStart', onStart);
    Router.events.on('routeChangeComplete', onComplete);
    Router.events.on('routeChangeError', onError);
    return () => {
      saveScrolled.cancel();
      cancelRestore();
      window.removeEventListener('scroll', onScroll);
      for (const type of USER_SCROLL_EVENTS) window.removeEventListener(type, cancelRestore);
      Router.events.off('routeChangeStart', onStart);
      Router.events.off('routeChangeComplete', onComplete);
      Router.events.off('routeChangeError', onError);
      Router.beforePopState(() => true);
    };
  }, []);
}
