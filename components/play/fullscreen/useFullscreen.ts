/**
 * Fullscreen that works on every phone (issue 13, docs/play-extras.md). Where the Fullscreen API
 * exists (desktop, Android, iPad: unprefixed or webkit-prefixed) the page goes fullscreen; where
 * it does not (iPhone Safari only fullscreens a <video>, which would drop our input layer and
 * controls) the page enters a full-viewport mode instead: `data-full-viewport` on <html>, which
 * FullViewportStyle turns into a fixed 100dvh stage with nothing else on the page, a body one
 * pixel taller than the large viewport and a scroll by one pixel, so Safari collapses its bars as
 * far as it lets a page. Either way the screen is asked to lock to landscape where it can
 * (Android in fullscreen); a refusal is ignored. Added to the home screen (the web app manifest,
 * `display: fullscreen`), the site has no browser bars at all.
 */
import { useCallback, useEffect, useState } from 'react';

/** The attribute on <html> that marks the full-viewport mode. */
export const FULL_VIEWPORT_ATTR = 'data-full-viewport';

type WebkitDocument = Document & {
  webkitFullscreenEnabled?: boolean;
  webkitFullscreenElement?: Element | null;
  webkitExitFullscreen?: () => Promise<void> | void;
};
type WebkitElement = HTMLElement & { webkitRequestFullscreen?: () => Promise<void> | void };
type LockableOrientation = ScreenOrientation & { lock?: (o: string) => Promise<void>; unlock?: () => void };

/** True where the page itself can go fullscreen (not iPhone Safari). */
export function fullscreenApiAvailable(doc: Document = document): boolean {
  const d = doc as WebkitDocument;
  const el = doc.documentElement as WebkitElement;
  const enabled = d.fullscreenEnabled ?? d.webkitFullscreenEnabled ?? false;
  return !!enabled && (typeof el.requestFullscreen === 'function' || typeof el.webkitRequestFullscreen === 'function');
}

/** Leaves the page's fullscreen (API), if it is in it; a refusal is ignored. */
function exitFullscreen(): void {
  const d = document as WebkitDocument;
  if (fullscreenElement()) void Promise.resolve((d.exitFullscreen ?? d.webkitExitFullscreen)?.call(d)).catch(() => undefined);
}

function fullscreenElement(): Element | null {
  const d = document as WebkitDocument;
  return d.fullscreenElement ?? d.webkitFullscreenElement ?? null;
}

/** Asks for landscape where the platform allows it; every failure (no API, not fullscreen, desktop) is ignored. */
export function lockLandscape(): void {
  try {
    const o = (typeof screen !== 'undefined' ? screen.orientation : undefined) as LockableOrientation | undefined;
    void o?.lock?.('landscape')?.catch?.(() => undefined);
  } catch {
    /* not supported */
  }
}

function unlockOrientation(): void {
  try {
    ((typeof screen !== 'undefined' ? screen.orientation : undefined) as LockableOrientation | undefined)?.unlock?.();
  } catch {
    /* not supported */
  }
}

function setFullViewport(on: boolean): void {
  const root = document.documentElement;
  if (on) {
    root.setAttribute(FULL_VIEWPORT_ATTR, 'true');
    // after the taller body is laid out: scroll the browser's bars away where the platform does
    requestAnimationFrame(() => window.scrollTo(0, 1));
  } else {
    root.removeAttribute(FULL_VIEWPORT_ATTR);
    window.scrollTo(0, 0);
  }
}

export interface Fullscreen {
  /** Fullscreen or the full-viewport mode is on. */
  active: boolean;
  /** Which one this browser gets. */
  mode: 'api' | 'viewport';
  toggle(): void;
}

/** The play page's fullscreen: the API where there is one, else the full-viewport mode. */
export function useFullscreen(): Fullscreen {
  const [mode] = useState<'api' | 'viewport'>(() => (typeof document !== 'undefined' && fullscreenApiAvailable() ? 'api' : 'viewport'));
  const [active, setActive] = useState(false);

  useEffect(() => {
    if (mode !== 'api') return;
    const onChange = () => {
      const on = fullscreenElement() !== null;
      setActive(on);
      if (!on) unlockOrientation();
    };
    document.addEventListener('fullscreenchange', onChange);
    document.addEventListener('webkitfullscreenchange', onChange);
    return () => {
      document.removeEventListener('fullscreenchange', onChange);
      document.removeEventListener('webkitfullscreenchange', onChange);
    };
  }, [mode]);

  // Leaving the play page leaves fullscreen (or the full-viewport mode) and the landscape lock:
  // the title page the player goes back to is an ordinary page.
  useEffect(
    () => () => {
      document.documentElement.removeAttribute(FULL_VIEWPORT_ATTR);
      exitFullscreen();
      unlockOrientation();
    },
    [],
  );

  const toggle = useCallback(() => {
    if (mode === 'api') {
      if (fullscreenElement()) {
        exitFullscreen();
        return;
      }
      const el = document.documentElement as WebkitElement;
      const request = el.requestFullscreen ?? el.webkitRequestFullscreen;
      void Promise.resolve(request?.call(el))
        .then(lockLandscape)
        .catch(() => undefined);
      return;
    }
    setActive((on) => {
      const next = !on;
      setFullViewport(next);
      if (next) lockLandscape();
      else unlockOrientation();
      return next;
    });
  }, [mode]);

  return { active, mode, toggle };
}
