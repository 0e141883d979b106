/**
 * Builds what the stack serves when its sources changed since the last build: the web app
 * (NEXT_PUBLIC_* values are built into the pages, and the prerendered pages' CSP into the build's
 * headers, so both are part of its fingerprint) and the VN
 * runtime the game host serves (runtime/dist, with its music loops rendered once — minutes on a
 * fresh machine, so it is done here, before the host starts, not inside the host's start).
 */
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { buildRuntime, DEFAULT_OUT_DIR } from '../../runtime/build';
import { CSP_RUNTIME_ENV } from '../../lib/security/csp';
import { addCompileHints } from './compile-hints';
import { REPO_ROOT, type StackConfig } from './config';

const SOURCES = ['pages', 'components', 'lib', 'store', 'styles', 'public', 'content', 'games', 'next.config.ts', 'proxy.ts', 'package-lock.json', 'patches', 'scripts/stack/compile-hints.ts', 'scripts/stack/build.ts', 'instrumentation.ts', 'instrumentation-client.ts', 'tsconfig.json'];

/**
 * `next build` with webpack, not Next 16's default Turbopack (issue 12, docs/web-performance.md
 * "The production bundler"): measured side by side with Lighthouse, webpack's output is ~10 kB
 * less first-load script in fewer files, and its scope-hoisted modules start faster (TBT 20–60 %
 * lower on every public page). `next dev` keeps Turbopack. package.json's `build` says the same.
 */
export const NEXT_BUILD_ARGS = ['build', '--webpack'];

function* files(p: string): Generator<string> {
  const st = fs.statSync(p, { throwIfNoEntry: false });
  if (!st) return;
  if (st.isFile()) {
    yield p;
    return;
  }
  for (const name of fs.readdirSync(p).sort()) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    yield* files(path.join(p, name));
  }
}

const RUNTIME_SOURCES = ['runtime/src', 'runtime/index.html', 'runtime/build.ts', 'runtime/build-loops.ts', 'runtime/game-dir.ts', 'lib/api-types/titleRuntime.ts', 'games', 'package-lock.json'];

export function sourceFingerprint(env: NodeJS.ProcessEnv, sources = SOURCES): string {
  const h = crypto.createHash('sha256');
  for (const src of sources) {
    for (const f of files(path.join(REPO_ROOT, src))) {
      if (/\.test\.tsx?$/.test(f)) continue;
      const st = fs.statSync(f);
      h.update(`${path.relative(REPO_ROOT, f)}:${st.size}:${st.mtimeMs}\n`);
    }
  }
  // NEXT_PUBLIC_* are built into the pages; the prerendered pages' CSP (next.config.ts) reads these too.
  const built = (k: string) => k.startsWith('NEXT_PUBLIC_') || (CSP_RUNTIME_ENV as readonly string[]).includes(k);
  for (const k of Object.keys(env).filter(built).sort()) h.update(`${k}=${env[k]}\n`);
  return h.digest('hex');
}

export async function ensureWebBuild(c: StackConfig, env: NodeJS.ProcessEnv, log: (l: string) => void): Promise<void> {
  const stamp = path.join(REPO_ROOT, c.distDir, 'yumecast-build.sha256');
  const want = sourceFingerprint(env);
  const have = fs.existsSync(path.join(REPO_ROOT, c.distDir, 'BUILD_ID')) && fs.existsSync(stamp) ? fs.readFileSync(stamp, 'utf8') : '';
  if (have === want) {
    log(`• web build is up to date (${c.distDir})`);
    return;
  }
  log(`• building the web app into ${c.distDir} (takes a few minutes on 2 cores)…`);
  const started = Date.now();
  const r = spawnSync(path.join(REPO_ROOT, 'node_modules', '.bin', 'next'), NEXT_BUILD_ARGS, { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  fs.mkdirSync(path.join(c.runDir, 'logs'), { recursive: true });
  fs.writeFileSync(path.join(c.runDir, 'logs', 'build.log'), `${r.stdout}\n${r.stderr}`);
  if (r.status !== 0) throw new Error(`next build failed (log: ${path.join(c.runDir, 'logs', 'build.log')}):\n${(r.stdout + r.stderr).split('\n').slice(-40).join('\n')}`);
  const hinted = addCompileHints(path.join(REPO_ROOT, c.distDir));
  fs.writeFileSync(stamp, want);
  log(`  ✓ built in ${Math.round((Date.now() - started) / 1000)} s (${hinted} first-load scripts with compile hints)`);
}

/** Builds runtime/dist (story JSON, fonts, music loops, sound effects) when the runtime's sources or games changed. */
export async function ensureRuntimeBuild(log: (l: string) => void): Promise<void> {
  const stamp = path.join(DEFAULT_OUT_DIR, 'yumecast-build.sha256');
  const want = sourceFingerprint({} as NodeJS.ProcessEnv, RUNTIME_SOURCES);
  const have = fs.existsSync(path.join(DEFAULT_OUT_DIR, 'index.html')) && fs.existsSync(stamp) ? fs.readFileSync(stamp, 'utf8') : '';
  if (have === want) {
    log('• VN runtime build is up to date (runtime/dist)');
    return;
  }
  log('• building the VN runtime into runtime/dist (the first build renders every music loop: a few minutes on 2 cores)…');
  const r = await buildRuntime({ quiet: true });
  const failed = r.games.filter((g) => !g.ok).map((g) => g.id);
  fs.writeFileSync(stamp, want);
  log(`  ✓ built in ${Math.round(r.ms / 1000)} s (${r.loops?.files ?? 0} music loops, ${r.sfx?.files ?? 0} sound effects${failed.length ? `; stories that do not compile: ${failed.join(', ')}` : ''})`);
}
