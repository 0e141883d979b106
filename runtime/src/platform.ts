/**
 * The few things the engine asks of where it runs, in one place (docs/light-runtime.md): a new
 * canvas, the fonts the canvas draws with, the URL relative paths resolve against, and an art
 * file (SVG) drawn into a canvas. The page's answers are the default (`pagePlatform`: the DOM's
 * canvas, `document.fonts`, `location`, an `<img>`); the light runtime in Node sets its own at
 * boot (runtime/node/platform.ts: @napi-rs/canvas, fonts registered with it, the page server's
 * URL, SVG rasterised by sharp) before any engine module draws. Nothing here touches the DOM
 * until it is asked, so the engine's modules load in Node.
 */

/** An art file, decoded: its own size, and drawing it into a canvas at a rectangle. */
export interface ArtImage {
  readonly width: number;
  readonly height: number;
  /** Draws the image into `into` at (x, y) scaled to w×h (the canvas is fresh: nothing under it). */
  drawInto(into: HTMLCanvasElement, x: number, y: number, w: number, h: number): Promise<void> | void;
  /** Lets go of the decoded image (its raster is made). */
  forget(): void;
}

/** The part of the page's FontFaceSet the engine uses. */
export type EngineFonts = Pick<FontFaceSet, 'load' | 'check' | 'addEventListener' | 'removeEventListener'>;

export interface RuntimePlatform {
  /** A new canvas (300×150 until sized, as the DOM's). */
  createCanvas(): HTMLCanvasElement;
  /** The fonts the canvas draws with; null: none to load or follow. */
  fonts(): EngineFonts | null;
  /** What relative URLs (a game's asset base, its story) resolve against. */
  baseHref(): string;
  /** An art file decoded (rejects when it cannot be). */
  loadArt(url: string): Promise<ArtImage>;
}

/** An `<img>` decoded off the page's thread, drawn with drawImage (Chromium rasterises its SVG at the size asked). */
function loadPageImage(url: string): Promise<ArtImage> {
  return new Promise((resolve, reject) => {
    const img = new Image();
    img.decoding = 'async';
    img.onload = () =>
      resolve({
        width: img.naturalWidth,
        height: img.naturalHeight,
        drawInto: (into, x, y, w, h) => into.getContext('2d')!.drawImage(img, x, y, w, h),
        forget: () => {
          // its SVG document goes with it
          img.onload = img.onerror = null;
          img.removeAttribute('src');
        },
      });
    img.onerror = () => reject(new Error(`image failed: ${url}`));
    img.src = url;
  });
}

/** The page's answers (the default). */
export const pagePlatform: RuntimePlatform = {
  createCanvas: () => document.createElement('canvas'),
  fonts: () => (typeof document === 'undefined' ? null : (document.fonts ?? null)),
  baseHref: () => location.href,
  loadArt: loadPageImage,
};

let current: RuntimePlatform = pagePlatform;

/** Where the engine runs now. */
export function platform(): RuntimePlatform {
  return current;
}

/** Sets where the engine runs (the light runtime, once at boot; a test, around its case). */
export function setPlatform(p: RuntimePlatform): void {
  current = p;
}
