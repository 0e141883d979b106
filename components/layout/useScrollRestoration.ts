import { useEffect } from 'react';
import Router from 'next/router';
import debounce from 'lodash.debounce';

/** Scroll position save debounce of spec section 9. */
export const SCROLL_SAVE_DEBOUNCE_MS = 150;
const KEY_PREFIX = 'yumecast.scroll:';

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
 * Saves the scroll position (debounced 150 ms) and restores it on back/forward navigation.
 * New navigations start at the top as usual.
 */
export function useScrollRestoration(): void {
  useEffect(() => {
    if ('scrollRestoration' in window.history) window.history.scrollRestoration = 'manual';
    let popped = false;
    const onScroll = debounce(() => save(Router.asPath, window.scrollY), SCROLL_SAVE_DEBOUNCE_MS);
    const onStart = () => {
      onScroll.flush();
    };
    const onComplete = (url: string) => {
      if (!popped) return;
      popped = false;
      const y = load(url);
      if (y !== null) requestAnimationFrame(() => window.scrollTo(0, y));
    };
    Router.beforePopState(() => {
      popped = true;
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
