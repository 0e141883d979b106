/**
 * Marks every page's first-load scripts with V8's explicit compile hint, `//# allFunctionsCalledOnLoad`
 * (issue 12, docs/web-performance.md "Compile hints"): Chromium then compiles all of the script's
 * functions while it downloads, on a background thread, instead of compiling each function on the
 * main thread the first time it is called. The first-load scripts (React DOM, Next's client, the
 * shell, the page) are almost all called while the page starts and hydrates, so nothing is compiled
 * in vain; lazily loaded chunks (Firebase, the streaming SDKs) are left as they are.
 *
 * Run after `next build` (scripts/stack/build.ts, and `npm run build`). The hint is one line at the
 * top of the file, so a source map beside it gets one empty line at its top too. Idempotent.
 */
import fs from 'node:fs';
import path from 'node:path';

export const COMPILE_HINT = '//# allFunctionsCalledOnLoad\n';

interface BuildManifest {
  pages: Record<string, string[]>;
  rootMainFiles?: string[];
  polyfillFiles?: string[];
}

/** The first-load scripts of every page, relative to the build folder. */
export function firstLoadScripts(distDir: string): string[] {
  const manifest = JSON.parse(fs.readFileSync(path.join(distDir, 'build-manifest.json'), 'utf8')) as BuildManifest;
  const all = [...Object.values(manifest.pages).flat(), ...(manifest.rootMainFiles ?? []), ...(manifest.polyfillFiles ?? [])];
  return [...new Set(all.filter((f) => f.endsWith('.js')))].sort();
}

/** Adds the hint to each first-load script of the build in `distDir`; returns how many it changed. */
export function addCompileHints(distDir: string): number {
  let changed = 0;
  for (const rel of firstLoadScripts(distDir)) {
    const file = path.join(distDir, rel);
    const code = fs.readFileSync(file, 'utf8');
    if (code.startsWith(COMPILE_HINT)) continue;
    fs.writeFileSync(file, COMPILE_HINT + code);
    const mapFile = `${file}.map`;
    if (fs.existsSync(mapFile)) {
      const map = JSON.parse(fs.readFileSync(mapFile, 'utf8')) as { mappings?: string; sections?: { offset: { line: number } }[] };
      if (typeof map.mappings === 'string') map.mappings = `;${map.mappings}`;
      for (const section of map.sections ?? []) section.offset.line += 1;
      fs.writeFileSync(mapFile, JSON.stringify(map));
    }
    changed++;
  }
  return changed;
}

// `tsx scripts/stack/compile-hints.ts [distDir]` (npm run build): the build folder defaults to NEXT_DIST_DIR or .next.
if (require.main === module) {
  const distDir = path.resolve(process.argv[2] ?? process.env.NEXT_DIST_DIR ?? '.next');
  console.log(`compile hints: ${addCompileHints(distDir)} first-load scripts marked in ${distDir}`);
}
