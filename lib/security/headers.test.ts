/**
 * @jest-environment node
 *
 * The build's inline-script hashes (lib/security/bootstrapHashes.ts) and the Permissions-Policy
 * (lib/security/permissions.ts).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bootstrapHashes, bootstrapScript, buildBootstrapHashes } from './bootstrapHashes';
import { permissionsPolicy } from './permissions';

const manifest = {
  chunkLoadingGlobal: 'TURBOPACK',
  pagesChunkGroupBootstrapParams: {
    '/_app': { otherChunks: ['static/chunks/app.js'], runtimeModuleIds: [1, 2] },
    '/signin': { otherChunks: ['static/chunks/signin.js'], runtimeModuleIds: [1, 3] },
    '/<odd>&': { otherChunks: ['static/chunks/x.js'], runtimeModuleIds: [4] },
  },
};

describe('bootstrapHashes', () => {
  it('rebuilds the inline script Next writes into a page (the /_app entry, then the page’s)', () => {
    expect(bootstrapScript(manifest, '/signin')).toBe(
      '(globalThis["TURBOPACK"] || (globalThis["TURBOPACK"] = [])).push({"otherChunks":["static/chunks/app.js"],"runtimeModuleIds":[1,2]});\n' +
        '(globalThis["TURBOPACK"] || (globalThis["TURBOPACK"] = [])).push({"otherChunks":["static/chunks/signin.js"],"runtimeModuleIds":[1,3]});',
    );
  });

  it('hashes one script per page, with the characters Next escapes escaped', () => {
    const hashes = bootstrapHashes(manifest);
    expect(hashes).toHaveLength(2);
    const signin = bootstrapScript(manifest, '/signin')!;
    expect(hashes).toContain(`sha256-${createHash('sha256').update(signin).digest('base64')}`);
    expect(bootstrapScript({ ...manifest, pagesChunkGroupBootstrapParams: { '/a': { x: '<&>' } } }, '/a')).toContain('\\u003c\\u0026\\u003e');
  });

  it('has nothing to hash for a build without the bootstrap (webpack) or without a manifest', () => {
    expect(bootstrapHashes({})).toEqual([]);
    expect(buildBootstrapHashes(path.join('no', 'such', 'folder'))).toEqual([]);
  });

  it('reads the build folder’s manifest', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'csp-'));
    fs.writeFileSync(path.join(dir, 'build-manifest.json'), JSON.stringify(manifest));
    expect(buildBootstrapHashes(path.relative(process.cwd(), dir))).toEqual(bootstrapHashes(manifest));
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe('permissionsPolicy', () => {
  const parse = (p: string) => Object.fromEntries(p.split(', ').map((part) => part.split('=')));

  it('allows the play page’s fullscreen, autoplay and gamepad to our origin, and refuses the rest', () => {
    const p = parse(permissionsPolicy({}));
    expect(p).toMatchObject({ fullscreen: '(self)', autoplay: '(self)', gamepad: '(self)' });
    // Web Share keeps its default (our origin): Chromium on Linux warns about the name.
    expect(p['web-share']).toBeUndefined();
    for (const denied of ['camera', 'microphone', 'geolocation', 'usb', 'payment', 'display-capture']) expect(p[denied]).toBe('()');
  });

  it('lets Stripe’s frames ask for payment when Stripe is the processor', () => {
    expect(parse(permissionsPolicy({ PAYMENTS_PROCESSOR: 'stripe' })).payment).toBe('(self "https://js.stripe.com")');
  });

  it('names each feature once', () => {
    const names = permissionsPolicy({}).split(', ').map((part) => part.split('=')[0]);
    expect(new Set(names).size).toBe(names.length);
  });
});
