/**
 * npx tsx bench/screenshot-thumbs.ts [file.png ...]
 *
 * Bytes per gallery tile before (the full PNG the gallery used to load) and after (the WebP
 * thumbnail of server/api/services/thumbnail.ts, the api's own recipe), and the time to make one.
 * Frames: the catalogue's real 1280×720 screenshots (public/games/<id>/screenshots/*.webp, VN
 * scenes with Japanese text) turned back into the PNG a game host uploads, plus any PNG named on
 * the command line (e.g. user screenshots under .data/screenshots). docs/mylist.md "Thumbnails"
 * quotes the figures.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { SCREENSHOT_THUMBNAIL } from '../lib/api-types/schemas/sessions';
import { makeThumbnail } from '../server/api/services/thumbnail';

const ROOT = path.resolve(__dirname, '..');
const GAMES = path.join(ROOT, 'public', 'games');

interface Frame {
  name: string;
  png: Buffer;
}

async function catalogueFrames(): Promise<Frame[]> {
  const frames: Frame[] = [];
  for (const game of readdirSync(GAMES).sort()) {
    const dir = path.join(GAMES, game, 'screenshots');
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.webp')).sort()) {
      frames.push({ name: `${game}/${file}`, png: await sharp(path.join(dir, file)).png().toBuffer() });
    }
  }
  return frames;
}

const kB = (bytes: number) => (bytes / 1000).toFixed(1);

async function main(): Promise<void> {
  const frames = [...(await catalogueFrames()), ...process.argv.slice(2).map((file) => ({ name: path.relative(ROOT, file), png: readFileSync(file) }))];
  const { width, height, quality } = SCREENSHOT_THUMBNAIL;
  console.log(`thumbnail recipe: WebP ≤ ${width}×${height}, quality ${quality}\n`);
  console.log(['screenshot', 'PNG kB', 'WebP kB', 'ratio', 'ms'].join('\t'));
  const after: number[] = [];
  const before: number[] = [];
  for (const frame of frames) {
    await makeThumbnail(frame.png); // warm up: libvips loads its operations on first use
    const start = performance.now();
    const webp = await makeThumbnail(frame.png);
    const ms = performance.now() - start;
    before.push(frame.png.length);
    after.push(webp.length);
    console.log([frame.name, kB(frame.png.length), kB(webp.length), `${Math.round(frame.png.length / webp.length)}×`, ms.toFixed(0)].join('\t'));
  }
  const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
  console.log(`\n${frames.length} screenshots: PNG mean ${kB(mean(before))} kB (max ${kB(Math.max(...before))}),`);
  console.log(`WebP mean ${kB(mean(after))} kB (max ${kB(Math.max(...after))}); a page of 24 tiles ${kB(24 * mean(before))} kB → ${kB(24 * mean(after))} kB`);
}

void main();
