/**
 * The web app manifest (issue 13: add to the home screen, open full screen) is valid: the fields
 * a browser needs to offer installation, Japanese text, the theme's colours, icons that exist at
 * the sizes they claim (read from the PNGs' own headers); the document links it and the CSP lets
 * the browser fetch it. e2e/play-extras.spec.ts checks it is served with its content type.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { contentSecurityPolicy, cspSources } from '@/lib/security/csp';
import { darkTheme } from '@/styles/theme';

const root = join(__dirname, '..', '..', '..');
const manifest = JSON.parse(readFileSync(join(root, 'public', 'manifest.webmanifest'), 'utf8')) as {
  name: string;
  short_name: string;
  description: string;
  start_url: string;
  scope: string;
  display: string;
  display_override?: string[];
  theme_color: string;
  background_color: string;
  lang: string;
  icons: { src: string; sizes: string; type: string; purpose?: string }[];
};

/** Width and height from a PNG's IHDR chunk. */
function pngSize(path: string): { width: number; height: number } {
  const b = readFileSync(path);
  expect(b.subarray(1, 4).toString('ascii')).toBe('PNG');
  return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
}

describe('public/manifest.webmanifest', () => {
  it('has the fields installation needs, in Japanese, opening full screen', () => {
    expect(manifest.name).toContain('ユメキャスト');
    expect(manifest.short_name.length).toBeGreaterThan(0);
    expect(manifest.short_name.length).toBeLessThanOrEqual(12);
    expect(manifest.description).toMatch(/[ぁ-んァ-ン一-龥]/);
    expect(manifest.lang).toBe('ja');
    expect(manifest.start_url).toBe('/');
    expect(manifest.scope).toBe('/');
    expect(['fullscreen', 'standalone']).toContain(manifest.display);
    expect(manifest.display_override?.[0]).toBe('fullscreen');
  });

  it('uses the theme’s colours', () => {
    expect(manifest.theme_color).toBe(darkTheme.background);
    expect(manifest.background_color).toBe(darkTheme.background);
  });

  it('lists PNG icons of 192 and 512 px that exist at those sizes', () => {
    const sizes = new Set(manifest.icons.map((i) => i.sizes));
    expect(sizes).toEqual(new Set(['192x192', '512x512']));
    for (const icon of manifest.icons) {
      expect(icon.type).toBe('image/png');
      const file = join(root, 'public', icon.src);
      expect(existsSync(file)).toBe(true);
      const { width, height } = pngSize(file);
      expect(`${width}x${height}`).toBe(icon.sizes);
    }
    expect(pngSize(join(root, 'public', 'icons', 'apple-touch-icon.png'))).toEqual({ width: 180, height: 180 });
  });

  it('is linked from the document with the home-screen tags, and the CSP allows it', () => {
    const doc = readFileSync(join(root, 'pages', '_document.tsx'), 'utf8');
    expect(doc).toContain('rel="manifest" href="/manifest.webmanifest"');
    expect(doc).toContain('name="apple-mobile-web-app-capable" content="yes"');
    expect(doc).toContain('name="theme-color"');
    for (const nonce of [undefined, 'AAAAAAAAAAAAAAAAAAAAAA==']) {
      expect(contentSecurityPolicy({ sources: cspSources({}), nonce })).toMatch(/(^|; )manifest-src 'self'(;|$)/);
    }
  });
});
