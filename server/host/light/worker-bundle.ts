/**
 * Bundles the light runtime's worker (./worker.ts with runtime/src, runtime/node and lib's wire
 * modules) with esbuild into one CommonJS file, once per agent process (~0.3 s), so the worker
 * runs under plain node: tsx's loader costs ~34 MB a process and its start
 * (docs/performance.md "Issue 11, nineteenth round"). The native and the resolved-at-run-time
 * packages stay outside (@napi-rs/canvas, sharp, ws, the fonts' files): the worker finds them
 * through NODE_PATH (the repository's node_modules), as the bundle always matches the code the
 * agent runs.
 */
import fs from 'node:fs';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { REPO_ROOT } from '../config';
import { pidAlive } from '../procs';

export const NODE_MODULES = path.join(REPO_ROOT, 'node_modules');
/** The sender's script, beside runtime/node/sender.ts (the bundle lives elsewhere). */
export const SENDER_SCRIPT = path.join(REPO_ROOT, 'runtime', 'node', 'sender', 'sender.py');

const EXTERNAL = ['@napi-rs/canvas', 'sharp', 'ws', 'bufferutil', 'utf-8-validate', '@fontsource/*'];

/** The bundle of the agent `pid` (one per agent process: it matches the code that agent runs). */
const bundleName = (pid: number) => `yumecast-light-worker-${pid}.cjs`;
const BUNDLE_NAME = /^yumecast-light-worker-(\d+)\.cjs$/;

/** Each tmpDir's bundle being made or made (an agent's tmpDir may go with it: then it is made again). */
const cached = new Map<string, Promise<string>>();

/** The bundled worker's path in `tmpDir` (made on the first call of this process for that folder). */
export function workerBundle(tmpDir: string): Promise<string> {
  const out = path.join(tmpDir, bundleName(process.pid));
  const made = cached.get(tmpDir);
  if (made && fs.existsSync(out)) return made;
  const p = (async () => {
    fs.mkdirSync(tmpDir, { recursive: true });
    await esbuild.build({
      entryPoints: [path.join(__dirname, 'worker.ts')],
      bundle: true,
      outfile: out,
      format: 'cjs',
      platform: 'node',
      target: ['node20'],
      external: EXTERNAL,
      sourcemap: 'inline',
      logLevel: 'silent',
    });
    return out;
  })().catch((e: unknown) => {
    cached.delete(tmpDir);
    throw e;
  });
  cached.set(tmpDir, p);
  return p;
}

/** Removes this process's bundle (the agent's shutdown). */
export function removeWorkerBundle(tmpDir: string): void {
  fs.rmSync(path.join(tmpDir, bundleName(process.pid)), { force: true });
}

/** Removes the bundles of agents that are gone (an unclean death left them in `tmpDir`); returns how many. */
export function sweepStaleBundles(tmpDir: string): number {
  let names: string[];
  try {
    names = fs.readdirSync(tmpDir);
  } catch {
    return 0;
  }
  let n = 0;
  for (const name of names) {
    const m = BUNDLE_NAME.exec(name);
    if (!m || Number(m[1]) === process.pid || pidAlive(Number(m[1]))) continue;
    fs.rmSync(path.join(tmpDir, name), { force: true });
    n++;
  }
  return n;
}
