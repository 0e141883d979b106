/**
 * First-load JavaScript per route, read from a Next.js build (pages router): the files each
 * page loads on first visit (shared framework chunks + the page's own), gzip-compressed.
 * Usage: npx tsx bench/page-weight.ts [.next]
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const dist = path.resolve(process.argv[2] ?? '.next');
const manifestPath = path.join(dist, 'build-manifest.json');
if (!fs.existsSync(manifestPath)) {
  console.error(`no build at ${dist} (run npm start or next build first)`);
  process.exit(1);
}
const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8')) as { pages: Record<string, string[]>; polyfillFiles?: string[] };

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
console.log(`${'route'.padEnd(28)} ${'first load kB'.padStart(14)} ${'page own kB'.padStart(12)}`);
for (const r of rows) console.log(`${r.route.padEnd(28)} ${r.totalKb.toFixed(1).padStart(14)} ${r.ownKb.toFixed(1).padStart(12)}`);
console.log(`shared by all: ${(shared.filter((f) => f.endsWith('.js')).reduce((a, f) => a + gz(f), 0) / 1024).toFixed(1)} kB`);
