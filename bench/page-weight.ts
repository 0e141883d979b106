/**
 * First-load JavaScript per route, read from a Next.js build (pages router): the files each
 * page loads on first visit (shared framework chunks + the page's own), gzip-compressed.
 * With --modules, what the shared first load is made of, by package (React DOM, Next's client,
 * styled-components…) and by folder of ours, from the build's source maps: each file's gzip size
 * shared out by the bytes each source produced in it. Source maps are in a build made with
 * NEXT_BROWSER_SOURCE_MAPS=1 (next.config.ts), which the benches make by hand, never the stack.
 * With --route /title/[id] (repeatable; needs the maps too), the same for that route's own files
 * (what the page adds to the shared load), one level finer: ours by file, Next by module.
 * Usage: npx tsx bench/page-weight.ts [.next] [--modules] [--route <route>]…
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { decode } from '@jridgewell/sourcemap-codec';
import { owner } from './bundle-owner';

const args = process.argv.slice(2);
const MODULES = args.includes('--modules');
const ROUTES = args.flatMap((a, i) => (args[i - 1] === '--route' ? [a] : []));
const dist = path.resolve(args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--route') ?? '.next');
const manifestPath = path.join(dist, 'build-manifest.json');
if (!fs.existsSync(manifestPath)) {
  console.error(`no build at ${dist} (run npm start or next build first)`);
  process.exit(1);
}
const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8')) as { pages: Record<string, string[]>; polyfillFiles?: string[] };

/** Issue 12's goal: first-load JS of a catalogue page (these seven routes) at most this, gzip. */
const CATALOGUE_ROUTES = ['/', '/title/[id]', '/search', '/brand', '/magazine', '/magazine/[slug]', '/upgrade'];
const CATALOGUE_GOAL_KB = 130;

const cache = new Map<string, number>();
function gz(file: string): number {
  if (!cache.has(file)) {
    const p = path.join(dist, file);
    cache.set(file, fs.existsSync(p) ? zlib.gzipSync(fs.readFileSync(p)).length : 0);
  }
  return cache.get(file)!;
}

const shared = manifest.pages['/_app'] ?? [];
const rows = Object.entries(manifest.pages)
  .filter(([route]) => !route.startsWith('/_'))
  .map(([route, files]) => {
    const js = [...new Set([...shared, ...files])].filter((f) => f.endsWith('.js'));
    const own = files.filter((f) => f.endsWith('.js') && !shared.includes(f));
    return { route, totalKb: js.reduce((a, f) => a + gz(f), 0) / 1024, ownKb: own.reduce((a, f) => a + gz(f), 0) / 1024 };
  })
  .sort((a, b) => a.route.localeCompare(b.route));

console.log(`first-load JS per route (gzip), build ${path.relative(process.cwd(), dist) || dist}`);
console.log(`${'route'.padEnd(28)} ${'first load kB'.padStart(14)} ${'page own kB'.padStart(12)}  catalogue goal ≤ ${CATALOGUE_GOAL_KB} kB`);
for (const r of rows) {
  const goal = CATALOGUE_ROUTES.includes(r.route) ? (r.totalKb <= CATALOGUE_GOAL_KB ? 'met' : `over by ${(r.totalKb - CATALOGUE_GOAL_KB).toFixed(1)}`) : '';
  console.log(`${r.route.padEnd(28)} ${r.totalKb.toFixed(1).padStart(14)} ${r.ownKb.toFixed(1).padStart(12)}  ${goal}`);
}
console.log(`shared by all: ${(shared.filter((f) => f.endsWith('.js')).reduce((a, f) => a + gz(f), 0) / 1024).toFixed(1)} kB`);

/** Bytes of `file`'s generated code each owner produced (from its .map; null without one). */
function bytesByOwner(file: string, fine = false): Map<string, number> | null {
  const p = path.join(dist, file);
  if (!fs.existsSync(`${p}.map`)) return null;
  const map = JSON.parse(fs.readFileSync(`${p}.map`, 'utf8')) as { sources: string[]; mappings: string };
  const lines = fs.readFileSync(p, 'utf8').split('\n');
  const out = new Map<string, number>();
  const add = (o: string, n: number) => out.set(o, (out.get(o) ?? 0) + n);
  decode(map.mappings).forEach((segments, line) => {
    const length = Buffer.byteLength(lines[line] ?? '');
    let covered = 0;
    segments.forEach((seg, i) => {
      const end = i + 1 < segments.length ? segments[i + 1][0] : length;
      const n = Math.max(0, end - seg[0]);
      covered += n;
      add(seg.length > 1 ? owner(map.sources[seg[1]!], fine) : 'unmapped', n);
    });
    add('unmapped', Math.max(0, length - covered));
  });
  return out;
}

/** Prints `files`' gzip size shared out by owner; false when none of them has a map. */
function printByOwner(title: string, files: string[], fine: boolean): boolean {
  const kb = new Map<string, number>();
  let missing = 0;
  for (const f of files) {
    const bytes = bytesByOwner(f, fine);
    if (!bytes) {
      missing++;
      continue;
    }
    const total = [...bytes.values()].reduce((a, b) => a + b, 0) || 1;
    for (const [o, n] of bytes) kb.set(o, (kb.get(o) ?? 0) + (gz(f) * n) / total / 1024);
  }
  if (files.length > 0 && missing === files.length) return false;
  console.log(`\n${title} (gzip kB, each file's gzip size shared out by the bytes each source produced)${missing ? `; ${missing} file(s) without a map left out` : ''}`);
  for (const [o, v] of [...kb].sort((a, b) => b[1] - a[1])) if (v >= 0.1) console.log(`  ${o.padEnd(fine ? 70 : 40)} ${v.toFixed(1).padStart(7)}`);
  return true;
}

const NO_MAPS = '(build with NEXT_BROWSER_SOURCE_MAPS=1 next build --webpack)';
if (MODULES && !printByOwner('the shared first load by owner', shared.filter((f) => f.endsWith('.js')), false)) {
  console.log(`\n--modules: this build has no source maps ${NO_MAPS}`);
}
for (const route of ROUTES) {
  const files = manifest.pages[route];
  if (!files) {
    console.log(`\n--route ${route}: no such route in this build`);
    continue;
  }
  const own = files.filter((f) => f.endsWith('.js') && !shared.includes(f));
  if (!printByOwner(`${route}'s own files by source`, own, true)) console.log(`\n--route ${route}: this build has no source maps ${NO_MAPS}`);
}
