/**
 * Makes the web app's home-screen icons (issue 13, public/manifest.webmanifest) from the site's
 * mark in public/favicon.svg: the mark centred on a full-bleed square of the dark theme's
 * background, inside the middle 60 % so a launcher's round or squircle mask (`maskable`) never
 * cuts it. Writes public/icons/icon-192.png, icon-512.png and apple-touch-icon.png (180 px, for
 * iPhone's "Add to Home Screen"). Run `node_modules/.bin/tsx scripts/art/app-icons.ts`; the PNGs
 * are committed.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { darkTheme } from '../../styles/theme';

const root = join(__dirname, '..', '..');
const out = join(root, 'public', 'icons');

/** The mark's paths: the <g> of the 32×32 favicon (its own rounded square left out). */
function markOf(svg: string): string {
  const g = /<g[\s\S]*<\/g>/.exec(svg);
  if (!g) throw new Error('public/favicon.svg: no <g> with the mark');
  return g[0];
}

/** A square icon: the background colour edge to edge, the 32-unit mark scaled into the middle 60 %. */
export function iconSvg(mark: string, background: string): string {
  const scale = (0.6 * 32) / 26; // the mark spans ~26 of the favicon's 32 units
  const offset = (32 - 32 * scale) / 2;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="512" height="512" viewBox="0 0 32 32"><rect width="32" height="32" fill="${background}"/><g transform="translate(${offset.toFixed(2)} ${offset.toFixed(2)}) scale(${scale.toFixed(4)})">${mark}</g></svg>`;
}

async function main() {
  const svg = iconSvg(markOf(readFileSync(join(root, 'public', 'favicon.svg'), 'utf8')), darkTheme.background);
  mkdirSync(out, { recursive: true });
  for (const [name, size] of [
    ['icon-192.png', 192],
    ['icon-512.png', 512],
    ['apple-touch-icon.png', 180],
  ] as const) {
    await sharp(Buffer.from(svg), { density: 72 * (size / 32) })
      .resize(size, size)
      .png({ compressionLevel: 9 })
      .toFile(join(out, name));
    console.log(`public/icons/${name} ${size}×${size}`);
  }
}

void main().catch((e) => {
  console.error(e);
  process.exit(1);
});
