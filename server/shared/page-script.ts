/**
 * One esbuild set-up for every script we inject into a Chromium page as a single classic script
 * (an IIFE, in memory): the host's page bridge (server/host/bridge-bundle.ts), the test player
 * page (server/host/testing/fake-api.ts) and the build's audio renderer (music loops and sound
 * effects: runtime/build-loops.ts), so they target the same Chromium and never drift apart.
 */
import * as esbuild from 'esbuild';

export async function bundlePageScript(entry: string, opts: { sourcemap?: boolean } = {}): Promise<string> {
  const r = await esbuild.build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: ['chrome110'],
    minify: false,
    sourcemap: opts.sourcemap ? 'inline' : false,
    logLevel: 'silent',
    define: { 'process.env.NODE_ENV': '"production"' },
  });
  return r.outputFiles[0].text;
}
