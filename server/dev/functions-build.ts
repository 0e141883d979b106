/**
 * Builds the Firebase functions (functions/src, TypeScript) into functions/lib/index.js, the
 * `main` of functions/package.json that the Functions emulator (and `firebase deploy`) loads.
 * esbuild bundles our own modules into one CommonJS file for Node 20; packages stay external and
 * resolve from the repository's node_modules (firebase-functions, firebase-admin), so functions/
 * needs no npm install of its own. Fast and offline. The file is only rewritten when its content
 * changes, atomically (write + rename), so a dev and a test stack can share it and the
 * emulator's file watcher reloads only for a real change.
 *
 * CLI: `node_modules/.bin/tsx server/dev/functions-build.ts [--watch]` (firebase.json's predeploy
 * runs it without --watch). Code: `buildFunctions()`, `watchFunctions()` (the dev stack).
 */
import fs from 'node:fs';
import path from 'node:path';
import { build, context, type BuildOptions, type BuildResult } from 'esbuild';
import { REPO_ROOT } from './paths';

export const FUNCTIONS_DIR = path.join(REPO_ROOT, 'functions');
export const FUNCTIONS_MAIN = path.join(FUNCTIONS_DIR, 'lib', 'index.js');

const OPTIONS: BuildOptions = {
  entryPoints: [path.join(FUNCTIONS_DIR, 'src', 'index.ts')],
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  packages: 'external',
  write: false,
  outfile: FUNCTIONS_MAIN,
  logLevel: 'silent',
  charset: 'utf8',
  banner: { js: '// Built from functions/src by server/dev/functions-build.ts: edit the sources, not this file.' },
};

/** Writes the bundle when it differs from what is on disk; true when it did. */
function writeIfChanged(result: BuildResult): boolean {
  const code = result.outputFiles?.[0]?.contents;
  if (!code) return false;
  const current = fs.existsSync(FUNCTIONS_MAIN) ? fs.readFileSync(FUNCTIONS_MAIN) : undefined;
  if (current && Buffer.compare(current, Buffer.from(code)) === 0) return false;
  fs.mkdirSync(path.dirname(FUNCTIONS_MAIN), { recursive: true });
  const tmp = `${FUNCTIONS_MAIN}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, code);
  fs.renameSync(tmp, FUNCTIONS_MAIN);
  return true;
}

function describe(error: unknown): string {
  const errors = (error as { errors?: { text: string; location?: { file: string; line: number } | null }[] }).errors;
  if (!errors?.length) return (error as Error).message;
  return errors.map((e) => (e.location ? `${e.location.file}:${e.location.line}: ${e.text}` : e.text)).join('\n');
}

/** Builds functions/lib/index.js; resolves true when the file changed. Rejects with esbuild's errors. */
export async function buildFunctions(): Promise<boolean> {
  try {
    return writeIfChanged(await build(OPTIONS));
  } catch (error) {
    throw new Error(`building the functions failed:\n${describe(error)}`);
  }
}

/**
 * Rebuilds on every change of the sources (the dev stack): the emulator sees the new
 * lib/index.js and reloads the functions. Returns a stop function.
 */
export async function watchFunctions(log: (line: string) => void): Promise<() => Promise<void>> {
  const ctx = await context({
    ...OPTIONS,
    plugins: [
      {
        name: 'write-if-changed',
        setup(b) {
          b.onEnd((result) => {
            if (result.errors.length) log(`✗ functions: build failed:\n${describe(result)}`);
            else if (writeIfChanged(result)) log('• functions: rebuilt functions/lib/index.js');
          });
        },
      },
    ],
  });
  await ctx.watch();
  return () => ctx.dispose();
}

if (require.main === module) {
  const relative = path.relative(REPO_ROOT, FUNCTIONS_MAIN);
  if (process.argv.includes('--watch')) {
    void watchFunctions((line) => console.log(line)).then(() => console.log(`functions: watching functions/src → ${relative} (Ctrl-C to stop)`));
  } else {
    buildFunctions().then(
      (changed) => console.log(`functions: ${relative} ${changed ? 'built' : 'up to date'}`),
      (error) => {
        console.error(`functions: ${(error as Error).message}`);
        process.exit(1);
      },
    );
  }
}
