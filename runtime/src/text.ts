/**
 * Text on the canvas: the font, Japanese line breaking (character wrapping with simple kinsoku
 * shori), glyph loading for text about to be shown, and a colour's luminance.
 */
import { platform } from './platform';

/** Characters that may not begin a line. */
const NO_START = new Set(
  '、。，．・：；？！゛゜ヽヾゝゞ々ー）］｝」』】〕〉》〙〗〟’”»ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶ…‥〜～!),.:;?]}'.split(''),
);
/** Characters that may not end a line. */
const NO_END = new Set('（［｛「『【〔〈《〘〖〝‘“«([{'.split(''));

export const FONT_FAMILY = '"Noto Sans JP", "Noto Sans CJK JP", sans-serif';

export function font(size: number, weight = 400): string {
  return `${weight} ${size}px ${FONT_FAMILY}`;
}

/**
 * Asks the browser for the Noto Sans JP subsets `text` needs (400 and 700) if they are not loaded
 * yet; `loaded` runs when one arrives (redraw).
 */
export function ensureGlyphs(text: string, loaded: () => void): void {
  const fonts = platform().fonts();
  if (!fonts) return;
  const fams = ['400 30px "Noto Sans JP"', '700 30px "Noto Sans JP"'];
  for (const f of fams) {
    if (!fonts.check(f, text)) {
      void fonts.load(f, text).then(() => {
        loaded();
      });
    }
  }
}

/** Measured character widths, per font. */
const widthCache = new Map<string, Map<string, number>>();

/** measureText of one character, cached per font. */
export function charWidth(ctx: CanvasRenderingContext2D, c: string): number {
  let m = widthCache.get(ctx.font);
  if (!m) widthCache.set(ctx.font, (m = new Map()));
  let w = m.get(c);
  if (w === undefined) {
    w = ctx.measureText(c).width;
    m.set(c, w);
  }
  return w;
}

/** Forget cached widths (after a font finished loading, widths change). */
export function clearWidthCache(): void {
  widthCache.clear();
}

/**
 * Wraps `text` to lines no wider than `maxWidth` with the context's current font. Breaks
 * between any two characters (Japanese), keeps Latin words together when they fit, honours
 * explicit newlines, and moves characters so no line starts with closing punctuation or ends
 * with an opening bracket.
 */
export function wrapText(ctx: CanvasRenderingContext2D, text: string, maxWidth: number): string[] {
  const out: string[] = [];
  for (const para of text.split('\n')) {
    const chars = Array.from(para);
    let line: string[] = [];
    let width = 0;
    for (let i = 0; i < chars.length; i++) {
      const c = chars[i];
      const w = charWidth(ctx, c);
      if (width + w > maxWidth && line.length > 0) {
        // kinsoku: pull the previous character down if c may not start a line
        let carry: string[] = [];
        if (NO_START.has(c)) {
          // hanging punctuation: let up to one closing mark overflow slightly
          if (width + w <= maxWidth + w * 0.9 && !NO_START.has(chars[i + 1] ?? '')) {
            line.push(c);
            out.push(line.join(''));
            line = [];
            width = 0;
            continue;
          }
          carry = line.splice(line.length - 1, 1);
        }
        while (line.length > 1 && NO_END.has(line[line.length - 1])) carry = line.splice(line.length - 1, 1).concat(carry);
        // keep a Latin word together if it started on this line
        if (/[A-Za-z0-9]/.test(c) && carry.length === 0) {
          let k = line.length;
          while (k > 0 && /[A-Za-z0-9'’-]/.test(line[k - 1])) k--;
          if (k > 0 && k < line.length) carry = line.splice(k);
        }
        out.push(line.join(''));
        line = carry;
        width = line.reduce((sum, ch) => sum + charWidth(ctx, ch), 0);
        if (c === ' ' && line.length === 0) continue;
      }
      line.push(c);
      width += w;
    }
    out.push(line.join(''));
  }
  return out;
}

/** Relative luminance of a CSS hex colour (0 black .. 1 white); 0.3 if unparseable. */
export function luminance(color: string): number {
  const m = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(color.trim());
  if (!m) return 0.3;
  let hex = m[1];
  if (hex.length === 3) hex = hex.split('').map((c) => c + c).join('');
  const [r, g, b] = [0, 2, 4].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4);
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
