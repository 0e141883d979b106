/**
 * Turning a title's SVG art into pixels, at the size it is drawn: a background covers the
 * 1280×720 screen, a sprite is SPRITE_HEIGHT tall, a save slot's thumbnail is the slot's picture
 * size. Every raster is a canvas (4 bytes a pixel: ~3.7 MB a background, ~1.4 MB a sprite), so
 * the art store (art.ts) counts their bytes and frees evicted ones at once (`release`: width and
 * height 0) rather than whenever the page collects its garbage. The decoded SVG is let go as
 * soon as it is rasterised.
 */
import { platform, type ArtImage } from './platform';
import { H, W } from './types';

export type Raster = HTMLCanvasElement;

/** Sprites are drawn with this height (bottom aligned to the screen). */
export const SPRITE_HEIGHT = 660;

/** The pixels a canvas holds (its backing store: RGBA, 4 bytes a pixel). */
export function rasterBytes(c: { width: number; height: number } | null | undefined): number {
  return c ? c.width * c.height * 4 : 0;
}

/** What a background raster costs (the store's estimate before one is made). */
export const BACKGROUND_BYTES = W * H * 4;

export function canvas(w: number, h: number): HTMLCanvasElement {
  const c = platform().createCanvas();
  c.width = Math.max(1, Math.round(w));
  c.height = Math.max(1, Math.round(h));
  return c;
}

/** Frees a canvas's pixels now (Chromium drops the backing store of a 0×0 canvas). */
export function release(c: HTMLCanvasElement | null | undefined): void {
  if (c) c.width = c.height = 0;
}

/** How a character who is not speaking is drawn (a canvas filter). */
export const DIM_FILTER = 'brightness(0.72) saturate(0.85)';

/**
 * A character's sprite at its display size, plus a dimmed copy for non-speaking characters when
 * the stage is drawn every frame (a weather between background and characters: draw/stage.ts;
 * the cached stage layer applies DIM_FILTER as it draws instead).
 */
export class SpriteRaster {
  private dimmed: Raster | null = null;
  /** `onDim`: a dimmed copy was made (the art store counts its bytes). */
  constructor(
    readonly normal: Raster,
    private readonly onDim?: () => void,
  ) {}
  get width(): number {
    return this.normal.width;
  }
  get height(): number {
    return this.normal.height;
  }
  /** Its pixels now: the sprite, and the dimmed copy if one was made. */
  get bytes(): number {
    return rasterBytes(this.normal) + rasterBytes(this.dimmed);
  }
  get hasDim(): boolean {
    return this.dimmed !== null;
  }
  /** Frees the dimmed copy (made again on its next use). Returns the bytes freed. */
  dropDim(): number {
    const b = rasterBytes(this.dimmed);
    release(this.dimmed);
    this.dimmed = null;
    return b;
  }
  /** Frees the pixels now (an evicted sprite, a dropped preparation), not at the next GC. */
  dispose(): void {
    this.dropDim();
    release(this.normal);
  }
  /** The darker copy for characters who are not speaking (made on first use). */
  get dim(): Raster {
    if (!this.dimmed) {
      const c = canvas(this.normal.width, this.normal.height);
      const g = c.getContext('2d')!;
      g.filter = DIM_FILTER;
      g.drawImage(this.normal, 0, 0);
      this.dimmed = c;
      this.onDim?.();
    }
    return this.dimmed;
  }
}

/** An art file decoded where the engine runs (platform.ts: the page's `<img>`, or sharp in Node). */
export function loadImage(url: string): Promise<ArtImage> {
  return platform().loadArt(url);
}

/**
 * Chrome records canvas draws and rasterises them when the canvas is first read or drawn
 * elsewhere: reading one pixel does that work now (in idle time) rather than in the frame that
 * first shows the image.
 */
function flush(c: HTMLCanvasElement): void {
  c.getContext('2d')!.getImageData(0, 0, 1, 1);
}

export async function rasteriseBackground(img: ArtImage): Promise<Raster> {
  const c = canvas(W, H);
  // cover the screen, centred
  const iw = img.width || W;
  const ih = img.height || H;
  const k = Math.max(W / iw, H / ih);
  await img.drawInto(c, (W - iw * k) / 2, (H - ih * k) / 2, iw * k, ih * k);
  flush(c);
  img.forget();
  return c;
}

export async function rasteriseSprite(img: ArtImage, onDim?: () => void): Promise<SpriteRaster> {
  const iw = img.width || 560;
  const ih = img.height || 680;
  const w = (iw * SPRITE_HEIGHT) / ih;
  const c = canvas(w, SPRITE_HEIGHT);
  await img.drawInto(c, 0, 0, w, SPRITE_HEIGHT);
  flush(c);
  img.forget();
  return new SpriteRaster(c, onDim);
}

/**
 * A save slot's picture: the middle band of a background (the slot's aspect) at the slot's size,
 * so the slots keep no full background raster alive (~170 KB each instead of ~3.7 MB).
 */
export function thumbnailOf(bg: Raster, w: number, h: number): Raster {
  const c = canvas(w, h);
  const sh = (W * h) / w;
  c.getContext('2d')!.drawImage(bg, 0, (H - sh) / 2, W, sh, 0, 0, c.width, c.height);
  return c;
}
