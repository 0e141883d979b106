/**
 * Bundles the page-side bridge (server/host/page/bridge.ts + lib/streaming) with esbuild into one
 * script the agent serves at /host/bridge.js on the pages' static origin. Built once per process
 * (in memory, ~50 ms), so the bundle always matches the code the agent runs.
 */
import path from 'node:path';
import * as esbuild from 'esbuild';

let cached: Promise<string> | null = null;

export function bridgeBundle(): Promise<string> {
  cached ??= esbuild
    .build({
      entryPoints: [path.join(__dirname, 'page', 'bridge.ts')],
      bundle: true,
      write: false,
      format: 'iife',
      platform: 'browser',
      target: ['chrome110'],
      minify: false,
      sourcemap: 'inline',
      logLevel: 'silent',
      define: { 'process.env.NODE_ENV': '"production"' },
    })
    .then((r) => r.outputFiles[0].text)
    .catch((e: unknown) => {
      cached = null;
      throw e;
    });
  return cached;
}
