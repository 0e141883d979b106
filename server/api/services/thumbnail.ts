/**
 * A screenshot's gallery thumbnail, made with sharp: the PNG scaled down to fit
 * SCREENSHOT_THUMBNAIL (320×180, about the widest tile the gallery draws: 4/3/2 columns of a
 * 1200 px page) and encoded as lossy WebP. Real 1280×720 VN frames with Japanese text come out at
 * 4–9 kB instead of 300–800 kB of PNG (docs/mylist.md "Thumbnails"; bench/screenshot-thumbs.ts
 * measures it). The recipe lives here, where it is cached lives in services/screenshots.ts.
 */
import sharp from 'sharp';
import { SCREENSHOT_THUMBNAIL } from '../../../lib/api-types/schemas/sessions';
import { MAX_PNG_SIDE } from './png';

/** Every PNG an upload may hold (png.ts accepts up to 16384 px a side) can be thumbnailed. */
const MAX_INPUT_PIXELS = MAX_PNG_SIDE * MAX_PNG_SIDE;

/**
 * The WebP thumbnail of a PNG. Alpha is dropped (frames are opaque; an alpha plane costs bytes),
 * `effort: 6` and `smartSubsample` keep coloured text edges clean for a few ms more per image,
 * once per screenshot. Rejects when the data is not a decodable image.
 */
export function makeThumbnail(png: Buffer): Promise<Buffer> {
  return sharp(png, { limitInputPixels: MAX_INPUT_PIXELS, sequentialRead: true })
    .removeAlpha()
    .resize(SCREENSHOT_THUMBNAIL.width, SCREENSHOT_THUMBNAIL.height, { fit: 'inside', withoutEnlargement: true })
    .webp({ quality: SCREENSHOT_THUMBNAIL.quality, effort: 6, smartSubsample: true })
    .toBuffer();
}

/** Where a screenshot's thumbnail is kept: beside its PNG, named after the recipe's version. */
export function thumbnailKey(pngKey: string): string {
  return `${pngKey.replace(/\.png$/, '')}.${SCREENSHOT_THUMBNAIL.version}.webp`;
}

/** The thumbnail's ETag: a screenshot never changes, so its id and the recipe name the bytes. */
export function thumbnailEtag(id: string): string {
  return `"${id}.${SCREENSHOT_THUMBNAIL.version}"`;
}
