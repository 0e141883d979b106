/**
 * Key art of the catalogue's added titles: the title's background and cast, a dark band along
 * the bottom carrying the title, its latin reading and the tagline, and the brand in a pill at
 * the top left. The SVG refers to the title's own art files, so it is rendered from art/.
 */
import { SPRITE_H, SPRITE_W } from '../../art/sprites';
import { FONT_SANS, FONT_SERIF, linear, n, rng, svgDoc } from '../../art/svg';

export interface KeyArtSpec {
  bg: string;
  chars: Array<{ id: string; expr: string; x: number; y: number; scale: number }>;
  title: string;
  latin: string;
  tagline: string;
  brand: string;
  /** colour of the title band */
  band: string;
  /** colour of the title's underline and the latin reading */
  accent: string;
  /** raindrops on the glass in front of everything */
  drops: boolean;
}

function raindrops(): string {
  const r = rng(606);
  let s = '';
  for (let i = 0; i < 40; i++) {
    const x = r() * 1280;
    const y = r() * 520;
    const size = 3 + r() * 7;
    s += `<ellipse cx="${n(x)}" cy="${n(y)}" rx="${n(size * 0.7)}" ry="${n(size)}" fill="#ffffff" opacity="${n(0.25 + r() * 0.35)}"/>`;
    s += `<ellipse cx="${n(x - size * 0.2)}" cy="${n(y - size * 0.3)}" rx="${n(size * 0.2)}" ry="${n(size * 0.3)}" fill="#ffffff" opacity="0.8"/>`;
  }
  return s;
}

export function keyartSvg(spec: KeyArtSpec): string {
  const defs =
    linear('band', [
      { o: 0, c: spec.band, a: 0 },
      { o: 0.35, c: spec.band, a: 0.82 },
      { o: 1, c: spec.band, a: 0.95 },
    ]);
  let b = `<image href="bg/${spec.bg}.svg" x="0" y="0" width="1280" height="720"/>`;
  for (const c of spec.chars) {
    b += `<image href="chars/${c.id}/${c.expr}.svg" x="${c.x}" y="${c.y}" width="${n(SPRITE_W * c.scale)}" height="${n(SPRITE_H * c.scale)}"/>`;
  }
  if (spec.drops) b += raindrops();
  b += `<rect x="0" y="470" width="1280" height="250" fill="url(#band)"/>`;
  const size = spec.title.length > 9 ? 76 : 88;
  const title = (x: number, y: number, fill: string, extra = '') =>
    `<text x="${x}" y="${y}" font-family="${FONT_SERIF}" font-weight="700" font-size="${size}" letter-spacing="4" fill="${fill}"${extra}>${spec.title}</text>`;
  // a soft offset copy under the title stands in for a drop shadow (librsvg has no feDropShadow)
  b += title(67, 605, '#000000', ' opacity="0.45"') + title(64, 600, '#ffffff');
  b += `<rect x="66" y="618" width="${Math.min(1140, spec.title.length * (size + 4))}" height="4" fill="${spec.accent}"/>`;
  b += `<text x="68" y="652" font-family="${FONT_SANS}" font-size="20" letter-spacing="8" fill="${spec.accent}">${spec.latin}</text>`;
  b += `<text x="68" y="690" font-family="${FONT_SERIF}" font-size="24" fill="#ffffff">${spec.tagline}</text>`;
  b += `<rect x="40" y="32" width="${spec.brand.length * 26 + 48}" height="46" rx="23" fill="${spec.band}" opacity="0.85"/>`;
  b += `<text x="64" y="64" font-family="${FONT_SANS}" font-weight="700" font-size="22" letter-spacing="4" fill="#ffffff">${spec.brand}</text>`;
  return svgDoc(1280, 720, defs, b);
}
