/**
 * Where the engine runs in the light runtime (docs/light-runtime.md): runtime/src's platform seam
 * (platform.ts) answered in Node.
 * - Canvases are @napi-rs/canvas's (Skia, the Canvas 2D API the page's Chromium draws with). The
 *   version is pinned at 0.1.80 in package.json: 1.2.1 replays a canvas's whole recording at each
 *   read-back or leaks a frame a read-back (docs/performance.md "eighteenth round").
 * - Fonts: Noto Sans JP 400/700 from @fontsource (the outlines the page's subsets are cut from),
 *   registered with the canvas at boot, so every glyph is there from the first frame and there is
 *   nothing to load or follow.
 * - Art: SVG rasterised by sharp (librsvg) at the size it is drawn. @napi-rs/canvas's own SVG
 *   images drew the key art as a bare gradient and none of its text; librsvg finds the art's
 *   fonts (Noto Serif/Sans CJK JP) through fontconfig as Chromium does for an SVG `<img>`.
 * - URLs resolve against the page server's runtime page (server/host/page-server.ts): the engine
 *   fetches the same files from the same origin as a page would.
 */
import path from 'node:path';
import { createCanvas, GlobalFonts, ImageData } from '@napi-rs/canvas';
import sharp from 'sharp';
import type { ArtImage, EngineFonts, RuntimePlatform } from '../src/platform';

/** The family the engine's text asks for (runtime/src/text.ts FONT_FAMILY's first). */
const FAMILY = 'Noto Sans JP';
/** @fontsource/noto-sans-jp's subsets by script: together every glyph of its numbered subsets. */
const SUBSETS = ['japanese', 'latin', 'latin-ext'];
const WEIGHTS = [400, 700];
/** The density (dpi) at which librsvg draws an SVG at its own size. */
const SVG_DPI = 72;

let fontsRegistered = false;

/** Registers Noto Sans JP with the canvas (once a process). */
export function registerFonts(): void {
  if (fontsRegistered) return;
  const dir = path.join(path.dirname(require.resolve('@fontsource/noto-sans-jp/package.json')), 'files');
  for (const s of SUBSETS) for (const w of WEIGHTS) GlobalFonts.registerFromPath(path.join(dir, `noto-sans-jp-${s}-${w}-normal.woff2`), FAMILY);
  fontsRegistered = true;
}

/** Every glyph is registered at boot: each load is done and each check holds. */
const readyFonts: EngineFonts = {
  load: () => Promise.resolve([]),
  check: () => true,
  addEventListener: () => undefined,
  removeEventListener: () => undefined,
};

/** An SVG (or any image sharp reads) as an ArtImage: drawn by librsvg at each size asked. */
async function loadArt(url: string): Promise<ArtImage> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`image failed: ${url} (${res.status})`);
  let bytes: Buffer | null = Buffer.from(await res.arrayBuffer());
  const meta = await sharp(bytes).metadata();
  if (!meta.width || !meta.height) throw new Error(`image failed: ${url} (no size)`);
  const { width, height } = meta;
  return {
    width,
    height,
    async drawInto(into, x, y, w, h) {
      if (!bytes) throw new Error(`image forgotten: ${url}`);
      const dw = Math.max(1, Math.round(w));
      const dh = Math.max(1, Math.round(h));
      // drawn at the size asked (a vector drawing, not an upscaled bitmap), then fitted exactly
      const density = Math.min(Math.max(1, SVG_DPI * Math.max(dw / width, dh / height)), 100_000);
      const { data, info } = await sharp(bytes, { density })
        .resize(dw, dh, { fit: 'fill' })
        .ensureAlpha()
        .raw()
        .toBuffer({ resolveWithObject: true });
      const pixels = new ImageData(new Uint8ClampedArray(data.buffer, data.byteOffset, data.length), info.width, info.height);
      into.getContext('2d')!.putImageData(pixels as unknown as globalThis.ImageData, Math.round(x), Math.round(y));
    },
    forget() {
      bytes = null;
    },
  };
}

/** The light runtime's platform; `baseHref`: the page server's runtime page (its `/runtime/index.html`). */
export function nodePlatform(baseHref: string): RuntimePlatform {
  registerFonts();
  return {
    createCanvas: () => createCanvas(300, 150) as unknown as HTMLCanvasElement,
    fonts: () => readyFonts,
    baseHref: () => baseHref,
    loadArt,
  };
}
