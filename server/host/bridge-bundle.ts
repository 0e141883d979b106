/**
 * Bundles the page-side bridge (server/host/page/bridge.ts + lib/streaming) with esbuild into one
 * script the agent serves at /host/bridge.js on the pages' static origin. Built once per process
 * (in memory, ~50 ms), so the bundle always matches the code the agent runs.
 */
import path from 'node:path';
import { bundlePageScript } from '../shared/page-script';

let cached: Promise<string> | null = null;

export function bridgeBundle(): Promise<string> {
  cached ??= bundlePageScript(path.join(__dirname, 'page', 'bridge.ts'), { sourcemap: true })
    .catch((e: unknown) => {
      cached = null;
      throw e;
    });
  return cached;
}
