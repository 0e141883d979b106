/**
 * What every drawing module shares: the palette, the idle animations' wave, rounded rectangles,
 * ellipsised text, the date format of the save slots, and the cache of static layers (drawn once,
 * blitted each frame).
 */
import { platform } from '../platform';

export const ACCENT = '#ff86ad';
export const ACCENT_2 = '#ffc58a';
export const PANEL = 'rgba(14, 18, 40, 0.86)';

export const dateFmt = (() => {
  try {
    return new Intl.DateTimeFormat('ja-JP', {
      timeZone: 'Asia/Tokyo',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    });
  } catch {
    return null;
  }
})();

/**
 * The idle animations (the click-to-continue indicator's bob, a focused button's glow, the AUTO /
 * SKIP badge, the ending card's prompt) are waves of the clock. With frames sent only when the
 * picture changes (main.ts frame mode `change`) they are held still, so a waiting screen is one
 * picture instead of 12 a second: `stillIdle` is set by the page.
 */
export const idle = { still: false };

/** sin(now / period), or `stillValue` while the idle animations are held still. */
export function idleWave(now: number, period: number, stillValue: number): number {
  return idle.still ? stillValue : Math.sin(now / period);
}

/** Starts a rounded-rectangle path (fill or stroke it). */
export function rr(ctx: CanvasRenderingContext2D, x: number, y: number, w: number, h: number, r: number): void {
  ctx.beginPath();
  ctx.roundRect(x, y, w, h, r);
}

export function ellipsize(ctx: CanvasRenderingContext2D, text: string, maxWidth: number): string {
  if (ctx.measureText(text).width <= maxWidth) return text;
  const chars = Array.from(text);
  while (chars.length && ctx.measureText(chars.join('') + '…').width > maxWidth) chars.pop();
  return chars.join('') + '…';
}

/** A layer no draw asked for this long is freed (the title's once the story runs: ~3.7 MB). */
export const LAYER_IDLE_MS = 5000;

/**
 * Static layers drawn once and blitted each frame (software raster: every full-screen effect
 * costs). A layer is redrawn when its key changes, when fonts land (`fontEpoch`) or when art
 * lands (`artEpoch()`); one not drawn for LAYER_IDLE_MS is freed (drawn again if it comes back).
 */
export class Layers {
  private layers = new Map<string, { key: string; canvas: HTMLCanvasElement; used: number }>();
  private swept = 0;
  fontEpoch = 0;
  /** Fonts that land later redraw every layer: each Layers follows the page's font loads itself. */
  private readonly onFonts = (): void => {
    this.fontEpoch++;
  };

  constructor(private readonly artEpoch: () => number) {
    platform().fonts()?.addEventListener('loadingdone', this.onFonts);
  }

  /** Frees the layers' pixels now and stops following fonts (a prepared title layer no session used: prepare.ts). */
  dispose(): void {
    platform().fonts()?.removeEventListener('loadingdone', this.onFonts);
    for (const l of this.layers.values()) l.canvas.width = l.canvas.height = 0;
    this.layers.clear();
  }

  get(name: string, key: string, w: number, h: number, draw: (g: CanvasRenderingContext2D) => void): HTMLCanvasElement {
    let l = this.layers.get(name);
    // fonts and art that land later redraw the cached layers
    const fullKey = `${key}|${this.fontEpoch}|${this.artEpoch()}`;
    const now = performance.now();
    if (!l) {
      const c = platform().createCanvas();
      l = { key: '', canvas: c, used: now };
      this.layers.set(name, l);
    }
    l.used = now;
    this.sweep(now);
    if (l.key !== fullKey) {
      l.canvas.width = w;
      l.canvas.height = h;
      const g = l.canvas.getContext('2d')!;
      g.clearRect(0, 0, w, h);
      draw(g);
      l.key = fullKey;
    }
    return l.canvas;
  }

  /** Frees the layers no draw asked for in LAYER_IDLE_MS (looked at once a second). */
  private sweep(now: number): void {
    if (now - this.swept < 1000) return;
    this.swept = now;
    for (const [name, l] of this.layers) {
      if (now - l.used < LAYER_IDLE_MS) continue;
      l.canvas.width = l.canvas.height = 0;
      this.layers.delete(name);
    }
  }
}
