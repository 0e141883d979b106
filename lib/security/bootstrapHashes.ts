/**
 * The SHA-256 sources of the inline scripts a production build puts in its prerendered pages, for
 * the static Content-Security-Policy (./csp.ts): a page built before any request carries no
 * nonce, so its one inline script must be allowed by hash. With Turbopack that script seeds the
 * chunk loader with the page's chunk list, `(globalThis["TURBOPACK"] || …).push({…})`, written by
 * next/dist/pages/_document.js from the build manifest's `pagesChunkGroupBootstrapParams`; we
 * rebuild the same text for every page of the manifest and hash it. A webpack build has no such
 * script (no hashes). e2e/security.spec.ts walks prerendered pages and fails on any violation,
 * so a change in Next's output is caught there. Server only (reads the build folder).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

interface BuildManifest {
  pagesChunkGroupBootstrapParams?: Record<string, unknown>;
  chunkLoadingGlobal?: string;
}

/** next/dist/shared/lib/htmlescape.js: how Next escapes the script's text in the HTML. */
function htmlEscapeJsonString(text: string): string {
  const lookup: Record<string, string> = { '&': '\\u0026', '>': '\\u003e', '<': '\\u003c', '\u2028': '\\u2028', '\u2029': '\\u2029' };
  return text.replace(/[&><\u2028\u2029]/g, (c) => lookup[c]);
}

/** next/dist/server/get-page-files.js getTurbopackChunkGroupBootstrap, for one page after /_app. */
export function bootstrapScript(manifest: BuildManifest, page: string): string | null {
  const params = manifest.pagesChunkGroupBootstrapParams;
  const global = manifest.chunkLoadingGlobal;
  if (!params || !global) return null;
  const g = JSON.stringify(global);
  const statements = ['/_app', page]
    .map((p) => params[p])
    .filter(Boolean)
    .map((p) => `(globalThis[${g}] || (globalThis[${g}] = [])).push(${JSON.stringify(p)});`);
  return statements.length ? htmlEscapeJsonString(statements.join('\n')) : null;
}

/** 'sha256-…' of every page's bootstrap script in this manifest. */
export function bootstrapHashes(manifest: BuildManifest): string[] {
  const pages = Object.keys(manifest.pagesChunkGroupBootstrapParams ?? {}).filter((p) => p !== '/_app' && p !== '/_document');
  const hashes = new Set<string>();
  for (const page of pages) {
    const script = bootstrapScript(manifest, page);
    if (script) hashes.add(`sha256-${createHash('sha256').update(script, 'utf8').digest('base64')}`);
  }
  return [...hashes].sort();
}

let cached: { file: string; hashes: string[] } | null = null;

/**
 * The hashes of the build this server runs (NEXT_DIST_DIR, as next.config.ts, under the working
 * folder), read once per process; none when there is no manifest (next dev) or it cannot be read.
 */
export function buildBootstrapHashes(distDir = process.env.NEXT_DIST_DIR || '.next'): string[] {
  const file = path.join(/* turbopackIgnore: true */ process.cwd(), distDir, 'build-manifest.json');
  if (cached?.file === file) return cached.hashes;
  let hashes: string[] = [];
  try {
    hashes = bootstrapHashes(JSON.parse(fs.readFileSync(file, 'utf8')) as BuildManifest);
  } catch {
    hashes = [];
  }
  cached = { file, hashes };
  return hashes;
}
