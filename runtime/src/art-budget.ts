/**
 * How much art the store (art.ts) may hold and when it works: the byte budget (the page's
 * `?artMb`, page-options.ts), how long asked-for art stays pinned, how far ahead the lookahead
 * rasterises, and the idle periods its background jobs wait for.
 */
import { pageOptions } from './page-options';

/**
 * The rasters' byte budget: the screen (a background and up to three characters: ≤ ~8 MB) plus
 * the lookahead and the sprites the story comes back to. What the screen shows is kept even past
 * it. Measured on hajimari-no-eki (docs/performance.md, issue 11): 24 MB would rasterise ~30 %
 * fewer SVGs again over a play, for 8 MB more per session.
 */
export const ART_CACHE_BYTES = 16 * 1024 * 1024;

/**
 * The budget the page was opened with: `?artMb=<n>` (the host's HOST_ART_BUDGET_MB; 0 keeps every
 * raster, as before issue 11, for the memory bench's before/after), else ART_CACHE_BYTES.
 */
export function pageArtBudget(search?: string): number {
  const mb = pageOptions(search).artMb;
  if (mb === null) return ART_CACHE_BYTES;
  return mb === 0 ? Infinity : mb * 1024 * 1024;
}
/** Art an ensure or a draw's miss asked for is kept this long after it lands (its draw is next). */
export const PIN_MS = 2000;
/** At most this many images ahead (a raster takes ~10–50 ms, a line is read in ≥ 250 ms). */
export const AHEAD_MAX = 3;

/** Resolves in the browser's next idle period (or after `timeoutMs`), or when `expedite` is called. */
export function idle(timeoutMs: number): { done: Promise<void>; expedite: () => void } {
  let expedite = () => undefined as void;
  const done = new Promise<void>((resolve) => {
    expedite = resolve;
    if (typeof requestIdleCallback === 'function') requestIdleCallback(() => resolve(), { timeout: timeoutMs });
    else setTimeout(resolve, 16);
  });
  return { done, expedite };
}

/** A background job waits at most this long for an idle period. */
export const IDLE_TIMEOUT_MS = 1000;
