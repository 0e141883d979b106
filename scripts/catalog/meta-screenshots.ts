/**
 * Writes the "screenshots" field of a games/<id>/meta.json and nothing else: the other fields
 * are written by hand (inline arrays, field order) and must stay byte for byte as they are, so
 * the field is spliced into the text rather than re-serialising the whole object.
 */
import fs from 'node:fs';

export interface ScreenshotEntry {
  /** path under public/, e.g. /games/<id>/screenshots/01.webp */
  src: string;
  width: number;
  height: number;
  /** Japanese description of the moment */
  alt: string;
}

/** The field as this module writes it (an alt text never contains "]"). */
const FIELD = /,\s*"screenshots"\s*:\s*\[[^\]]*\]/;

export function withScreenshots(metaText: string, shots: ScreenshotEntry[]): string {
  const before = JSON.parse(metaText) as Record<string, unknown>;
  const rows = shots.map(
    (s) => `    { "src": ${JSON.stringify(s.src)}, "width": ${s.width}, "height": ${s.height}, "alt": ${JSON.stringify(s.alt)} }`,
  );
  const field = `,\n  "screenshots": [${rows.length ? `\n${rows.join(',\n')}\n  ` : ''}]`;
  const stripped = metaText.replace(FIELD, '');
  const end = stripped.lastIndexOf('}');
  const body = stripped.slice(0, end).replace(/\s*$/, '');
  const text = `${body}${field}\n}\n`;
  const after = JSON.parse(text) as Record<string, unknown>;
  // every other field must come through unchanged
  for (const key of Object.keys(before)) {
    if (key !== 'screenshots' && JSON.stringify(before[key]) !== JSON.stringify(after[key])) throw new Error(`meta.json: "${key}" would change`);
  }
  return text;
}

export function writeScreenshots(metaFile: string, shots: ScreenshotEntry[]): void {
  fs.writeFileSync(metaFile, withScreenshots(fs.readFileSync(metaFile, 'utf8'), shots));
}
