/**
 * Renders every looping score of the games at build time (issue 11): a session used to synthesise
 * its music live until the page had rendered the loop itself (~8 s of CPU per track, ~20 % of a
 * core for the first minute of every session and after every music change). Here each score is
 * rendered once, in headless Debian Chromium with the engine's own audio code
 * (src/audio/render-entry.ts → loops.ts renderLoop), and written as `<outDir>/loops/<name>.wav`
 * (src/audio/loop-file.ts: the name is the score's hash), which the session fetches and plays
 * from the first note.
 *
 * Cache: renders are kept in LOOPS_CACHE_DIR (default .cache/runtime-loops/, git-ignored), keyed
 * by the score's name and a hash of the audio code, so a repeat build renders nothing; the output
 * folder gets links to them. Files of other audio-code versions are removed. Concurrent builds
 * (test workers each build a private runtime) share the cache through a lock: a build that finds
 * another rendering does not wait — it links what is there, and a session whose loop has no file
 * renders it in the page as before (loops.ts), so nothing breaks, it only costs more.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../server/shared/chromium';
import { bundlePageScript } from '../server/shared/page-script';
import { LOOPS_DIR, loopFileName } from './src/audio/loop-file';
import { loopWindow } from './src/audio/loops';
import { prepareScore } from './src/audio/score';
import type { GameData, Score } from './src/types';

const AUDIO_DIR = path.join(__dirname, 'src', 'audio');
export const DEFAULT_LOOPS_CACHE = path.join(__dirname, '..', '.cache', 'runtime-loops');
/** A lock older than this is a crashed build's. */
const STALE_LOCK_MS = 10 * 60_000;
/** Pages rendering at once (this machine has 2 cores). */
const PARALLEL = Math.max(1, Math.min(2, os.cpus().length));

export interface LoopsResult {
  /** Loop files in the output (linked from the cache). */
  files: number;
  rendered: number;
  /** Scores left without a file (another build held the lock, or the render failed). */
  missing: number;
  ms: number;
}

/** Every looping score of the games in `dirs` (each game's game.json `music`: a file or inline). */
export function collectScores(dirs: string[]): Score[] {
  const scores: Score[] = [];
  for (const dir of dirs) {
    if (!fs.existsSync(dir)) continue;
    for (const id of fs.readdirSync(dir).sort()) {
      const gameJson = path.join(dir, id, 'game.json');
      if (!fs.existsSync(gameJson)) continue;
      try {
        const game = JSON.parse(fs.readFileSync(gameJson, 'utf8')) as Partial<GameData>;
        for (const entry of Object.values(game.music ?? {})) {
          const score = typeof entry === 'string' ? (JSON.parse(fs.readFileSync(path.join(dir, id, entry), 'utf8')) as Score) : entry;
          if (loopWindow(prepareScore(score))) scores.push(score);
        }
      } catch {
        // a game whose files do not parse: its page shows the error; nothing to render here
      }
    }
  }
  return scores;
}

/** The sound code a render depends on (not the live player's: music.ts, engine.ts, sfx.ts). */
const RENDER_CODE = ['chain.ts', 'graph.ts', 'loop-file.ts', 'loops.ts', 'notes.ts', 'render-entry.ts', 'score.ts', 'voices.ts'];

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

/** Renders the scores missing from the cache in headless Chromium (PARALLEL pages). */
async function renderMissing(todo: { score: Score; file: string }[], log: (m: string) => void): Promise<number> {
  const code = await bundlePageScript(path.join(AUDIO_DIR, 'render-entry.ts'));
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: [...CHROMIUM_ARGS] });
  let rendered = 0;
  try {
    const queue = [...todo];
    await Promise.all(
      Array.from({ length: PARALLEL }, async () => {
        const page = await browser.newPage();
        await page.addScriptTag({ content: code });
        for (let job = queue.shift(); job; job = queue.shift()) {
          const t = Date.now();
          const b64 = await page.evaluate((s) => (globalThis as unknown as { yumecastRenderLoopFile(s: unknown): Promise<string | null> }).yumecastRenderLoopFile(s), job.score as unknown);
          if (!b64) continue;
          const tmp = `${job.file}.${process.pid}.tmp`;
          fs.writeFileSync(tmp, Buffer.from(b64, 'base64'));
          fs.renameSync(tmp, job.file);
          rendered++;
          log(`runtime: rendered loop ${path.basename(job.file)} in ${Date.now() - t} ms`);
        }
        await page.close();
      }),
    );
  } finally {
    await browser.close();
  }
  return rendered;
}

/** Writes `<outDir>/loops/` for the games' looping scores, rendering what the cache lacks. */
export async function buildLoops(opts: { outDir: string; gamesDirs: string[]; cacheDir?: string; quiet?: boolean }): Promise<LoopsResult> {
  const t0 = Date.now();
  const log = opts.quiet ? () => undefined : (m: string) => console.log(m);
  const cacheDir = path.resolve(opts.cacheDir ?? process.env.LOOPS_CACHE_DIR ?? DEFAULT_LOOPS_CACHE);
  fs.mkdirSync(cacheDir, { recursive: true });
  const code = audioCodeHash();
  const wanted = new Map<string, { score: Score; file: string }>();
  for (const score of collectScores(opts.gamesDirs)) {
    const name = loopFileName(score);
    wanted.set(name, { score, file: path.join(cacheDir, `${name.replace(/\.wav$/, '')}-${code}.wav`) });
  }
  const todo = [...wanted.values()].filter((w) => !fs.existsSync(w.file));
  let rendered = 0;
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
  const out = path.join(opts.outDir, LOOPS_DIR);
  fs.rmSync(out, { recursive: true, force: true });
  fs.mkdirSync(out, { recursive: true });
  let files = 0;
  for (const [name, w] of wanted) {
    if (!fs.existsSync(w.file)) continue;
    const to = path.join(out, name);
    try {
      fs.linkSync(w.file, to);
    } catch {
      fs.symlinkSync(w.file, to);
    }
    files++;
  }
  const result = { files, rendered, missing: wanted.size - files, ms: Date.now() - t0 };
  log(`runtime: ${files} music loops (${rendered} rendered${result.missing ? `, ${result.missing} left to render in the page` : ''}) in ${result.ms} ms`);
  return result;
}
