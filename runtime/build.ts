/**
 * Builds the VN runtime page into runtime/dist/:
 *   index.html, engine.js (+ chunks/: inkjs's compiler, loaded only when a story was not
 *   precompiled), fonts/ (Noto Sans JP 400/700 woff2 subsets + CSS, from @fontsource — no CDN),
 *   games/<id>.json (each games/<id>/story.ink compiled with inkjs, + its character set; a title
 *   another runtime plays, e.g. Ren'Py's "The Question" (meta.json "runtime",
 *   lib/api-types/titleRuntime.ts, read by ./game-dir.ts), is skipped),
 *   loops/<hash>.wav (every looping score rendered once in headless Chromium: build-loops.ts),
 *   sfx/<hash>.wav (every sound effect of the games and the choice click, rendered the same way).
 *
 * From code: `await buildRuntime({ ... })`. From a shell: `npx tsx runtime/build.ts [--fixtures] [--strict] [--no-loops] [--no-sfx]`.
 */
import fs from 'node:fs';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { buildAudioFiles, type FilesResult } from './build-loops';
import { isWebEngineGameDir } from './game-dir';

/** Which title folders the build compiles (a meta.json "runtime" other than the web engine's: skipped). */
export { isWebEngineGameDir };

const RUNTIME_DIR = __dirname;
const ROOT = path.resolve(RUNTIME_DIR, '..');

export const DEFAULT_OUT_DIR = path.join(RUNTIME_DIR, 'dist');
export const GAMES_DIR = path.join(ROOT, 'games');
export const FIXTURES_DIR = path.join(RUNTIME_DIR, 'test-fixtures');
const FONT_WEIGHTS = [400, 700];

export interface BuildOptions {
  /** Default runtime/dist. */
  outDir?: string;
  /** Folders holding one folder per game (with story.ink). Default: games/ (+ test fixtures if asked). */
  gamesDirs?: string[];
  /** Also precompile runtime/test-fixtures/* (the engine's own test games). */
  includeFixtures?: boolean;
  minify?: boolean;
  sourcemap?: boolean;
  /** Print nothing. */
  quiet?: boolean;
  /** Render the looping scores into loops/ (default true; cached, see build-loops.ts). */
  loops?: boolean;
  /** Render the sound effects into sfx/ (default true; cached with the loops). */
  sfx?: boolean;
}

export interface GameBuild {
  id: string;
  ok: boolean;
  errors: string[];
  warnings: string[];
  file?: string;
}

export interface BuildResult {
  outDir: string;
  games: GameBuild[];
  loops: FilesResult | null;
  sfx: FilesResult | null;
  ms: number;
}

/** Compiles ink source with inkjs's compiler. Returns the runtime JSON or the errors. */
export async function compileInkSource(source: string, fileName = 'story.ink'): Promise<{ json: string | null; errors: string[]; warnings: string[] }> {
  const { Compiler, CompilerOptions } = await import('inkjs/full');
  const errors: string[] = [];
  const warnings: string[] = [];
  const options = new CompilerOptions(null, [], false, (message: string, type: number) => {
    if (type === 2) errors.push(`${fileName}: ${message}`);
    else if (type === 1) warnings.push(`${fileName}: ${message}`);
  });
  try {
    const story = new Compiler(source, options).Compile();
    if (!story || errors.length) return { json: null, errors: errors.length ? errors : ['no output'], warnings };
    const json = story.ToJson();
    return typeof json === 'string' ? { json, errors, warnings } : { json: null, errors: ['ToJson returned nothing'], warnings };
  } catch (e) {
    return { json: null, errors: errors.length ? errors : [e instanceof Error ? e.message : String(e)], warnings };
  }
}

/** Unique non-space characters of a text (font subsets to preload). */
export function charsetOf(text: string): string {
  return Array.from(new Set(Array.from(text.replace(/\s+/g, '')))).join('');
}

async function precompileGames(dirs: string[], outDir: string): Promise<GameBuild[]> {
  const results: GameBuild[] = [];
  const gamesOut = path.join(outDir, 'games');
  fs.mkdirSync(gamesOut, { recursive: true });
  for (const dir of dirs) {
    if (!fs.existsSync(dir)) continue;
    for (const id of fs.readdirSync(dir).sort()) {
      const inkPath = path.join(dir, id, 'story.ink');
      if (!isWebEngineGameDir(path.join(dir, id)) || !fs.existsSync(inkPath)) continue;
      const out = path.join(gamesOut, `${id}.json`);
      const source = fs.readFileSync(inkPath, 'utf8');
      const gameJsonPath = path.join(dir, id, 'game.json');
      const extra = fs.existsSync(gameJsonPath) ? fs.readFileSync(gameJsonPath, 'utf8') : '';
      const { json, errors, warnings } = await compileInkSource(source, `${id}/story.ink`);
      if (!json) {
        // never leave a stale build behind: the page then compiles story.ink and shows the error
        fs.rmSync(out, { force: true });
        results.push({ id, ok: false, errors, warnings });
        continue;
      }
      const payload = {
        format: 'yumecast-story',
        v: 1,
        gameId: id,
        ink: json,
        charset: charsetOf(source + extra),
        builtAt: new Date().toISOString(),
      };
      fs.writeFileSync(out, JSON.stringify(payload));
      results.push({ id, ok: true, errors: [], warnings, file: out });
    }
  }
  return results;
}

function copyFonts(outDir: string): void {
  const pkgDir = path.dirname(require.resolve('@fontsource/noto-sans-jp/package.json'));
  const fontsOut = path.join(outDir, 'fonts');
  const filesOut = path.join(fontsOut, 'files');
  fs.mkdirSync(filesOut, { recursive: true });
  let css = '/* Noto Sans JP (SIL Open Font License 1.1), from @fontsource/noto-sans-jp; woff2 only. */\n';
  for (const w of FONT_WEIGHTS) {
    const src = fs.readFileSync(path.join(pkgDir, `${w}.css`), 'utf8');
    // keep only the woff2 source of each @font-face
    css += src.replace(/src:\s*url\(([^)]+\.woff2)\)\s*format\('woff2'\)\s*,\s*url\([^)]+\.woff\)\s*format\('woff'\)\s*;/g, "src: url($1) format('woff2');");
    for (const m of src.matchAll(/url\(\.\/files\/([^)]+\.woff2)\)/g)) {
      const name = m[1];
      const from = path.join(pkgDir, 'files', name);
      const to = path.join(filesOut, name);
      const st = fs.statSync(from);
      if (!fs.existsSync(to) || fs.statSync(to).size !== st.size) fs.copyFileSync(from, to);
    }
  }
  fs.writeFileSync(path.join(fontsOut, 'noto-sans-jp.css'), css);
  const license = path.join(pkgDir, 'LICENSE');
  if (fs.existsSync(license)) fs.copyFileSync(license, path.join(fontsOut, 'LICENSE'));
}

export async function buildRuntime(options: BuildOptions = {}): Promise<BuildResult> {
  const t0 = Date.now();
  const outDir = path.resolve(options.outDir ?? DEFAULT_OUT_DIR);
  fs.mkdirSync(outDir, { recursive: true });
  // old chunks have hashed names: clear them so the folder does not grow
  fs.rmSync(path.join(outDir, 'chunks'), { recursive: true, force: true });
  await esbuild.build({
    entryPoints: { engine: path.join(RUNTIME_DIR, 'src', 'main.ts') },
    bundle: true,
    format: 'esm',
    splitting: true,
    platform: 'browser',
    target: ['chrome110'],
    outdir: outDir,
    chunkNames: 'chunks/[name]-[hash]',
    minify: options.minify ?? true,
    sourcemap: options.sourcemap ?? true,
    legalComments: 'linked',
    logLevel: options.quiet ? 'silent' : 'warning',
    define: { 'process.env.NODE_ENV': '"production"' },
    // generated code: keep the repository's lint quiet even where runtime/dist is not ignored
    banner: { js: '/* eslint-disable */' },
  });
  fs.copyFileSync(path.join(RUNTIME_DIR, 'index.html'), path.join(outDir, 'index.html'));
  copyFonts(outDir);
  const dirs = options.gamesDirs ?? [GAMES_DIR, ...(options.includeFixtures ? [FIXTURES_DIR] : [])];
  if (options.gamesDirs && options.includeFixtures) dirs.push(FIXTURES_DIR);
  const games = await precompileGames(dirs, outDir);
  const audio = await buildAudioFiles({ outDir, gamesDirs: dirs, quiet: options.quiet, loops: options.loops, sfx: options.sfx });
  const result = { outDir, games, loops: audio.loops, sfx: audio.sfx, ms: Date.now() - t0 };
  if (!options.quiet) {
    for (const g of games) {
      if (g.ok) console.log(`runtime: compiled ${g.id}${g.warnings.length ? ` (${g.warnings.length} warnings)` : ''}`);
      else console.warn(`runtime: ${g.id}/story.ink does not compile:\n  ${g.errors.slice(0, 10).join('\n  ')}`);
    }
    console.log(`runtime: built ${path.relative(process.cwd(), outDir) || outDir} in ${result.ms} ms`);
  }
  return result;
}

if (require.main === module) {
  const args = process.argv.slice(2);
  buildRuntime({ includeFixtures: args.includes('--fixtures'), minify: !args.includes('--no-minify'), loops: !args.includes('--no-loops'), sfx: !args.includes('--no-sfx') })
    .then((r) => {
      if (args.includes('--strict') && r.games.some((g) => !g.ok)) process.exit(1);
    })
    .catch((e) => {
      console.error(e);
      process.exit(1);
    });
}
