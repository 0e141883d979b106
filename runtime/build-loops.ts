/**
 * Renders the games' sound at build time (issue 11): every looping score and every sound effect.
 * A session used to synthesise its music live until the page had rendered the loop itself (~8 s
 * of CPU per track, ~20 % of a core for the first minute of every session and after every music
 * change), and every sound effect live through the reverb and compressor (~4 % of a core more
 * while a player reads on). Here each is rendered once, in headless Debian Chromium with the
 * engine's own audio code (src/audio/render-entry.ts → loops.ts renderLoop, sfx-render.ts
 * renderSfx), and written as `<outDir>/loops/<name>.wav` and `<outDir>/sfx/<name>.wav`
 * (src/audio/loop-file.ts: the name is a hash of the score or the spec), which the session fetches
 * and plays (loops.ts, sfx-player.ts). The effects are the games' game.json `sfx` (inline specs or
 * JSON files) and the engine's own choice click (sfx.ts CHOICE_SFX): a few seconds each.
 *
 * Cache: renders are kept in LOOPS_CACHE_DIR (default .cache/runtime-loops/, git-ignored), keyed
 * by the file's name and a hash of the audio code, so a repeat build renders nothing; the output
 * folders get links to them. Files of other audio-code versions are removed. Concurrent builds
 * (test workers each build a private runtime) share the cache through one lock: a build that
 * finds another rendering does not wait — it links what is there, and a session whose loop or
 * effect has no file renders or synthesises it in the page as before, so nothing breaks, it only
 * costs more.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../server/shared/chromium';
import { bundlePageScript } from '../server/shared/page-script';
import { LOOPS_DIR, SFX_DIR, loopFileName, sfxFileName } from './src/audio/loop-file';
import { loopWindow } from './src/audio/loops';
import type { RenderJob } from './src/audio/render-entry';
import { prepareScore } from './src/audio/score';
import { CHOICE_SFX, SFX_TYPES } from './src/audio/sfx';
import type { GameData, Score, SfxSpec } from './src/types';

const AUDIO_DIR = path.join(__dirname, 'src', 'audio');
export const DEFAULT_LOOPS_CACHE = path.join(__dirname, '..', '.cache', 'runtime-loops');
/** A lock older than this is a crashed build's. */
const STALE_LOCK_MS = 10 * 60_000;
/** Pages rendering at once (this machine has 2 cores). */
const PARALLEL = Math.max(1, Math.min(2, os.cpus().length));

/** One folder of rendered files (loops/ or sfx/). */
export interface FilesResult {
  /** Files in the output (linked from the cache). */
  files: number;
  rendered: number;
  /** Left without a file (another build held the lock, or the render failed). */
  missing: number;
}

export interface AudioFilesResult {
  /** null: not asked for. */
  loops: FilesResult | null;
  sfx: FilesResult | null;
  ms: number;
}

/**
 * Each game's game.json `key` entries that `keep` takes, inline or read from their JSON file (a
 * game whose files do not parse is skipped: its page shows the error).
 */
function gameEntries<T>(dirs: string[], key: 'music' | 'sfx', keep: (entry: T) => unknown): T[] {
  const out: T[] = [];
  for (const dir of dirs) {
    if (!fs.existsSync(dir)) continue;
    for (const id of fs.readdirSync(dir).sort()) {
      const gameJson = path.join(dir, id, 'game.json');
      if (!fs.existsSync(gameJson)) continue;
      try {
        const game = JSON.parse(fs.readFileSync(gameJson, 'utf8')) as Partial<GameData>;
        const entries = Object.values((game[key] ?? {}) as Record<string, string | T>);
        out.push(...entries.map((e) => (typeof e === 'string' ? (JSON.parse(fs.readFileSync(path.join(dir, id, e), 'utf8')) as T) : e)).filter(keep));
      } catch {
        // nothing to render for this game
      }
    }
  }
  return out;
}

/** Every looping score of the games in `dirs` (each game's game.json `music`: a file or inline). */
export function collectScores(dirs: string[]): Score[] {
  return gameEntries<Score>(dirs, 'music', (score) => loopWindow(prepareScore(score)));
}

/** Every sound effect of the games in `dirs` (game.json `sfx`: a file or inline) and the engine's choice click. */
export function collectSfx(dirs: string[]): SfxSpec[] {
  return [CHOICE_SFX, ...gameEntries<SfxSpec>(dirs, 'sfx', (spec) => SFX_TYPES.includes(spec?.type))];
}

/** The sound code a render depends on (not the live players': music.ts, engine.ts, sfx-player.ts). */
const RENDER_CODE = ['chain.ts', 'graph.ts', 'loop-file.ts', 'loops.ts', 'notes.ts', 'render-entry.ts', 'score.ts', 'sfx.ts', 'sfx-render.ts', 'voices.ts'];

/** A hash of the sound code: a render made by other code is not reused. */
function audioCodeHash(): string {
  const h = crypto.createHash('sha256');
  for (const f of RENDER_CODE) h.update(f).update(fs.readFileSync(path.join(AUDIO_DIR, f)));
  return h.digest('hex').slice(0, 12);
}

function tryLock(lock: string): boolean {
  try {
    fs.mkdirSync(lock);
    return true;
  } catch {
    try {
      if (Date.now() - fs.statSync(lock).mtimeMs > STALE_LOCK_MS) {
        fs.rmSync(lock, { recursive: true, force: true });
        fs.mkdirSync(lock);
        return true;
      }
    } catch {
      /* another build took it */
    }
    return false;
  }
}

/** A file the build wants: what to render, its output folder and name, and its render in the cache. */
interface Wanted {
  job: RenderJob;
  dir: string;
  name: string;
  file: string;
}

/** Renders the jobs missing from the cache in headless Chromium (PARALLEL pages, in order: the long loops first). */
async function renderMissing(todo: Wanted[], log: (m: string) => void): Promise<Set<Wanted>> {
  const rendered = new Set<Wanted>();
  const code = await bundlePageScript(path.join(AUDIO_DIR, 'render-entry.ts'));
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: [...CHROMIUM_ARGS] });
  try {
    const queue = [...todo];
    await Promise.all(
      Array.from({ length: PARALLEL }, async () => {
        const page = await browser.newPage();
        await page.addScriptTag({ content: code });
        for (let w = queue.shift(); w; w = queue.shift()) {
          const t = Date.now();
          // a render that throws leaves its file missing (played or rendered in the page), not the build failed
          const b64 = await page
            .evaluate((j) => (globalThis as unknown as { yumecastRenderFile(j: RenderJob): Promise<string | null> }).yumecastRenderFile(j), w.job)
            .catch((e: unknown) => (log(`runtime: ${w.dir}/${w.name} failed to render: ${e instanceof Error ? e.message : String(e)}`), null));
          if (!b64) continue;
          const tmp = `${w.file}.${process.pid}.tmp`;
          fs.writeFileSync(tmp, Buffer.from(b64, 'base64'));
          fs.renameSync(tmp, w.file);
          rendered.add(w);
          log(`runtime: rendered ${w.dir}/${w.name} in ${Date.now() - t} ms`);
        }
        await page.close();
      }),
    );
  } finally {
    await browser.close();
  }
  return rendered;
}

/** Links the cached renders of one output folder into `<outDir>/<dir>/` (a fresh folder). */
function linkFolder(outDir: string, dir: string, wanted: Wanted[], rendered: Set<Wanted>): FilesResult {
  const out = path.join(outDir, dir);
  fs.rmSync(out, { recursive: true, force: true });
  fs.mkdirSync(out, { recursive: true });
  let files = 0;
  for (const w of wanted) {
    if (!fs.existsSync(w.file)) continue;
    const to = path.join(out, w.name);
    try {
      fs.linkSync(w.file, to);
    } catch {
      fs.symlinkSync(w.file, to);
    }
    files++;
  }
  return { files, rendered: wanted.filter((w) => rendered.has(w)).length, missing: wanted.length - files };
}

/**
 * Writes `<outDir>/loops/` (the games' looping scores) and `<outDir>/sfx/` (their sound effects),
 * rendering what the cache lacks; `loops: false` / `sfx: false` leave that folder out.
 */
export async function buildAudioFiles(opts: { outDir: string; gamesDirs: string[]; cacheDir?: string; quiet?: boolean; loops?: boolean; sfx?: boolean }): Promise<AudioFilesResult> {
  const t0 = Date.now();
  const log = opts.quiet ? () => undefined : (m: string) => console.log(m);
  const cacheDir = path.resolve(opts.cacheDir ?? process.env.LOOPS_CACHE_DIR ?? DEFAULT_LOOPS_CACHE);
  fs.mkdirSync(cacheDir, { recursive: true });
  const code = audioCodeHash();
  const want = (dir: string, jobs: { job: RenderJob; name: string }[]): Wanted[] => {
    const byName = new Map(jobs.map(({ job, name }) => [name, { job, dir, name, file: path.join(cacheDir, `${dir}-${name.replace(/\.wav$/, '')}-${code}.wav`) }]));
    return [...byName.values()];
  };
  const loops = opts.loops === false ? null : want(LOOPS_DIR, collectScores(opts.gamesDirs).map((score) => ({ job: { kind: 'loop' as const, score }, name: loopFileName(score) })));
  const sfx = opts.sfx === false ? null : want(SFX_DIR, collectSfx(opts.gamesDirs).map((spec) => ({ job: { kind: 'sfx' as const, spec }, name: sfxFileName(spec) })));
  const todo = [...(loops ?? []), ...(sfx ?? [])].filter((w) => !fs.existsSync(w.file));
  let rendered = new Set<Wanted>();
  const lock = path.join(cacheDir, '.lock');
  if (todo.length && tryLock(lock)) {
    try {
      // files of other audio-code versions will never be used again
      for (const f of fs.readdirSync(cacheDir)) if (f.endsWith('.wav') && !f.endsWith(`-${code}.wav`)) fs.rmSync(path.join(cacheDir, f), { force: true });
      rendered = await renderMissing(todo, log);
    } finally {
      fs.rmSync(lock, { recursive: true, force: true });
    }
  }
  // a kind left out has no folder: an earlier build's files would otherwise still be played
  if (!loops) fs.rmSync(path.join(opts.outDir, LOOPS_DIR), { recursive: true, force: true });
  if (!sfx) fs.rmSync(path.join(opts.outDir, SFX_DIR), { recursive: true, force: true });
  const result: AudioFilesResult = {
    loops: loops && linkFolder(opts.outDir, LOOPS_DIR, loops, rendered),
    sfx: sfx && linkFolder(opts.outDir, SFX_DIR, sfx, rendered),
    ms: Date.now() - t0,
  };
  const line = (r: FilesResult | null, what: string, fallback: string): string[] =>
    r ? [`${r.files} ${what} (${r.rendered} rendered${r.missing ? `, ${r.missing} left to ${fallback}` : ''})`] : [];
  const lines = [...line(result.loops, 'music loops', 'render in the page'), ...line(result.sfx, 'sound effects', 'play live')];
  if (lines.length) log(`runtime: ${lines.join(', ')} in ${result.ms} ms`);
  return result;
}
