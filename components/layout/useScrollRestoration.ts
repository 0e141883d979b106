/**
 * The scroll position of spec section 9: saved per page while the user scrolls (debounced), and
 * put back when they come back with the browser's back or forward button.
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

/** How long a restore waits for the page to grow tall enough (images, late data) before giving up. */
const RESTORE_TRIES = 20;
const RESTORE_RETRY_MS = 50;

/**
 * Scrolls to `y` on the next frame; while the page is still too short to reach it (its content is
 * still arriving), tries again for up to a second. It never fights the user: once the page is tall
 * enough, one scroll is made and nothing more.
 */
function restore(y: number, tries = RESTORE_TRIES) {
  requestAnimationFrame(() => {
    const reachable = document.documentElement.scrollHeight - window.innerHeight >= y;
    window.scrollTo(0, y);
    if (!reachable && tries > 0) window.setTimeout(() => restore(y, tries - 1), RESTORE_RETRY_MS);
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
    const onScroll = debounce(() => save(Router.asPath, window.scrollY), SCROLL_SAVE_DEBOUNCE_MS);
    const onStart = () => {
      onScroll.flush();
    };
    // A back pressed while the previous navigation is still finishing: that navigation completes
    // first (its page, then Next's scroll to the top), and must not take the restore that belongs
    // to the page the back goes to.
    const onComplete = (url: string) => {
      if (poppedTo === null || withoutHash(url) !== poppedTo) return;
      poppedTo = null;
      const y = load(url);
      if (y !== null) restore(y);
    };
    Router.beforePopState(({ as }) => {
      poppedTo = withoutHash(as);
      return true;
    });
    window.addEventListener('scroll', onScroll, { passive: true });
    Router.events.on('routeChangeStart', onStart);
    Router.events.on('routeChangeComplete', onComplete);
    return () => {
      onScroll.cancel();
      window.removeEventListener('scroll', onScroll);
      Router.events.off('routeChangeStart', onStart);
      Router.events.off('routeChangeComplete', onComplete);
      Router.beforePopState(() => true);
    };
  }, []);
}
