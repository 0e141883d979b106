/**
 * Colour contrast of both themes (issue 12, WCAG 1.4.3 / 1.4.11): every text colour on every
 * background it is used on reads at 4.5:1, every fill has a text colour that reads on it, and
 * the focus ring stands out (3:1) from every background. The e2e axe tour (e2e/a11y.spec.ts)
 * checks the pages; this checks the palette itself, cheaply, for both themes.
 */
import { themes, type Palette } from './theme';

/** WCAG relative luminance of a #rrggbb colour. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const v = parseInt(hex.slice(i, i + 2), 16) / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

type Key = keyof Omit<Palette, 'name' | 'overlay'>;
const BACKGROUNDS: Key[] = ['background', 'surface', 'surfaceRaised'];
/** Colours used as text on the page's backgrounds. */
const TEXT_ON_BACKGROUNDS: Key[] = ['text', 'textMuted', 'primary', 'attention', 'destructive'];
/** Fills and the text colour drawn on each. */
const FILLS: [Key, Key][] = [
  ['primary', 'primaryText'],
  ['attention', 'attentionText'],
  ['destructive', 'destructiveText'],
  ['intense', 'intenseText'],
];

describe.each(Object.values(themes))('the $name theme', (theme) => {
  it.each(TEXT_ON_BACKGROUNDS.flatMap((fg) => BACKGROUNDS.map((bg) => [fg, bg] as const)))('%s text on %s reads at 4.5:1', (fg, bg) => {
    expect(contrast(theme[fg], theme[bg])).toBeGreaterThanOrEqual(4.5);
  });

  it.each(FILLS)('text on %s (%s) reads at 4.5:1', (fill, text) => {
    expect(contrast(theme[text], theme[fill])).toBeGreaterThanOrEqual(4.5);
  });

  it.each(BACKGROUNDS)('the focus ring and form controls\' edges stand out from %s (3:1)', (bg) => {
    expect(contrast(theme.focus, theme[bg])).toBeGreaterThanOrEqual(3);
    expect(contrast(theme.controlBorder, theme[bg])).toBeGreaterThanOrEqual(3);
  });
});
