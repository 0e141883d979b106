/**
 * Ren'Py games compiled ahead (docs/renpy.md §2 "Compiled ahead"). Debian's Ren'Py ships no
 * `.rpyc` and its package never writes them, so every start parsed the ~100 scripts of Ren'Py's
 * `common/`, the game and our overlay: 1.9–2.4 s of a ~3 s start on a quiet host, ~20 s on a
 * loaded one (CI), against the api's 30 s start limit. Here the host makes, once per machine and
 * Ren'Py version, a copy of Debian's Ren'Py folder (symlinks followed) with the overlay beside
 * it, runs Ren'Py's own `compile` command in it with the wrapper writing each `.rpyc` (and Ren'Py
 * its bytecode cache), and hands that copy to the games: loading the scripts then takes ~0.1 s.
 *
 * The copy is read-only to the sessions (root's, mode a+rX, no group or other write) and shared
 * by all of them, like the Debian folder it stands for. Its folder name is a digest of what it
 * was made from (the wrapper, the overlay, Ren'Py's scripts' names, sizes and times): a new
 * Ren'Py or overlay makes a new copy. Until it is ready, or if making it failed (logged once),
 * games start from Debian's folder as before: the copy only makes starts faster.
 */
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import type { RenpyRuntime } from '../../../lib/api-types/titleRuntime';
import type { NativeConfig } from './config';
import { NOBODY, isRoot, unprivilegedPrefix } from './isolation';

const run = promisify(execFile);

/** Debian's Ren'Py (the launcher names it as its base: renpy-py311.py). */
export const RENPY_BASE = '/usr/share/games/renpy';
const HERE = __dirname;
export const WRAPPER = path.join(HERE, 'renpy', 'renpy-py311.py');
export const OVERLAY = path.join(HERE, 'renpy', 'overlay');
/** The compile of one game: a few seconds on a quiet host. */
const COMPILE_TIMEOUT_MS = 180_000;

type Log = (level: 'info' | 'warn' | 'error', msg: string) => void;

/** Where a game starts from: its base folder, Ren'Py's search path (the overlay) and the wrapper's base setting. */
export interface LaunchPaths {
  baseDir: string;
  overlay: string;
  env: Record<string, string>;
  compiled: boolean;
}

/** Every file under `dir` (paths relative to it, sorted), following no symlink out of it. */
export function listFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => !e.isDirectory())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
    .sort();
}

/** The digest of what a compiled copy is made from (a different one means a new copy). */
export function sourceDigest(python: string): string {
  const h = createHash('sha256');
  h.update(python);
  h.update(fs.readFileSync(WRAPPER));
  for (const f of listFiles(OVERLAY).filter((n) => !n.endsWith('.rpyc'))) h.update(f).update(fs.readFileSync(path.join(OVERLAY, f)));
  for (const f of listFiles(RENPY_BASE).filter((n) => n.endsWith('.rpy') || n.endsWith('.py'))) {
    const st = fs.statSync(path.join(RENPY_BASE, f));
    h.update(`${f}:${st.size}:${st.mtimeMs}\n`);
  }
  return h.digest('hex').slice(0, 16);
}

export class CompiledGames {
  /** Per game folder: the compiled copy's base once ready, null when it failed. */
  private readonly ready = new Map<string, string | null>();
  private readonly building = new Map<string, Promise<string | null>>();
  private digest: string | null = null;
  /** Ends a compile still running when the agent stops (close()). */
  private readonly abort = new AbortController();

  constructor(
    private readonly config: NativeConfig,
    private readonly log: Log,
  ) {}

  /**
   * Where the game starts from now: the compiled copy once it is ready, else Debian's folder. A
   * copy removed meanwhile (a cleaner of temporary files) is forgotten, and made again by the
   * next prepare().
   */
  paths(spec: RenpyRuntime): LaunchPaths {
    let copy = this.ready.get(spec.baseDir);
    if (copy && !fs.existsSync(path.join(copy, 'ok'))) {
      this.ready.delete(spec.baseDir);
      copy = undefined;
    }
    const rel = gameUnderBase(spec.baseDir);
    if (!copy || rel === null) return { baseDir: spec.baseDir, overlay: OVERLAY, env: {}, compiled: false };
    return { baseDir: path.join(copy, 'base', rel), overlay: path.join(copy, 'overlay'), env: { YUMECAST_RENPY_BASE: path.join(copy, 'base') }, compiled: true };
  }

  /** The agent stops: a compile still running is killed (its copy is not kept). */
  close(): void {
    this.abort.abort();
  }

  /**
   * Makes (or finds) the game's compiled copy; resolves with its folder, or null when the game is
   * not under Debian's Ren'Py folder or the compile failed (logged). One build per game at a time.
   */
  prepare(spec: RenpyRuntime): Promise<string | null> {
    const key = spec.baseDir;
    if (this.ready.has(key)) return Promise.resolve(this.ready.get(key) ?? null);
    let p = this.building.get(key);
    if (!p) {
      p = this.build(spec)
        .catch((e: unknown) => {
          if (this.abort.signal.aborted) return null;
          this.log('warn', `native: compiling ${spec.baseDir} ahead failed, its games start from Debian's folder: ${(e as Error).message.slice(0, 400)}`);
          return null;
        })
        .then((dir) => {
          this.building.delete(key);
          // another agent of the machine is making it: the next start asks again
          if (dir === 'busy') return null;
          this.ready.set(key, dir);
          return dir;
        });
      this.building.set(key, p);
    }
    return p;
  }

  private async build(spec: RenpyRuntime): Promise<string | null | 'busy'> {
    const rel = gameUnderBase(spec.baseDir);
    // not Debian's Ren'Py, or not installed here (the start will say so)
    if (rel === null || !fs.existsSync(spec.baseDir)) return null;
    this.digest ??= sourceDigest(this.config.python);
    const name = `${this.digest}-${rel.replace(/[^A-Za-z0-9_-]/g, '_')}`;
    const final = path.join(this.config.compiledDir, name);
    if (fs.existsSync(path.join(final, 'ok'))) return final;
    if (this.abort.signal.aborted) return null;
    fs.mkdirSync(this.config.compiledDir, { recursive: true, mode: 0o755 });
    // one compile per machine at a time: the agents of a machine (and the tests' agents) share the copy
    const lock = path.join(this.config.compiledDir, `.lock-${name}`);
    try {
      fs.writeFileSync(lock, String(process.pid), { flag: 'wx' });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const age = Date.now() - (fs.statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age < COMPILE_TIMEOUT_MS + 60_000) return 'busy';
      fs.rmSync(lock, { force: true }); // left by an agent that died while compiling: the next start makes it
      return 'busy';
    }
    try {
      return await this.compile(spec, rel, final);
    } finally {
      fs.rmSync(lock, { force: true });
    }
  }

  private async compile(spec: RenpyRuntime, rel: string, final: string): Promise<string> {
    const t0 = Date.now();
    const tmp = path.join(this.config.compiledDir, `.tmp-${path.basename(final)}-${randomBytes(4).toString('hex')}`);
    try {
      fs.cpSync(RENPY_BASE, path.join(tmp, 'base'), { recursive: true, dereference: true });
      fs.cpSync(OVERLAY, path.join(tmp, 'overlay'), { recursive: true, filter: (src) => !src.endsWith('.rpyc') });
      for (const d of ['home', 'log', 'saves']) fs.mkdirSync(path.join(tmp, d));
      if (isRoot) await run('chown', ['-R', `${NOBODY}:${NOBODY}`, tmp]);
      const env = {
        HOME: path.join(tmp, 'home'),
        PATH: '/usr/bin:/bin',
        SDL_VIDEODRIVER: 'dummy',
        SDL_AUDIODRIVER: 'dummy',
        BROWSER: '/bin/true',
        RENPY_LOG_BASE: path.join(tmp, 'log'),
        RENPY_SEARCHPATH: path.join(tmp, 'overlay'),
        YUMECAST_RENPY_BASE: path.join(tmp, 'base'),
        YUMECAST_RENPY_WRITE_RPYC: '1',
      };
      // unprivileged and without network, as a game runs (isolation.ts)
      const prefix = unprivilegedPrefix(NOBODY, NOBODY, { netns: true });
      // a save folder of its own; Ren'Py also writes its `persistent` into the game's `saves`
      // folder, removed below: every session's game would read it
      const argv = [...prefix, this.config.python, WRAPPER, '--savedir', path.join(tmp, 'saves'), path.join(tmp, 'base', rel), 'compile'];
      await run(argv[0], argv.slice(1), { env: env as unknown as NodeJS.ProcessEnv, timeout: COMPILE_TIMEOUT_MS, maxBuffer: 4 << 20, signal: this.abort.signal, killSignal: 'SIGKILL' });
      const rpyc = listFiles(tmp).filter((f) => f.endsWith('.rpyc')).length;
      if (rpyc === 0) throw new Error('the compile wrote no .rpyc');
      for (const d of ['home', 'log', 'saves', path.join('base', rel, 'game', 'saves')]) fs.rmSync(path.join(tmp, d), { recursive: true, force: true });
      // the sessions' copy: root's, readable by all, writable by none of them
      if (isRoot) await run('chown', ['-R', '0:0', tmp]);
      await run('chmod', ['-R', 'a+rX,go-w', tmp]);
      fs.writeFileSync(path.join(tmp, 'ok'), `${rpyc} .rpyc\n`, { mode: 0o644 });
      try {
        fs.renameSync(tmp, final);
      } catch {
        // another agent of this machine made it first: use theirs
        if (!fs.existsSync(path.join(final, 'ok'))) throw new Error(`could not move the compiled copy to ${final}`);
        fs.rmSync(tmp, { recursive: true, force: true });
      }
      this.log('info', `native: ${spec.baseDir} compiled ahead in ${Date.now() - t0} ms (${rpyc} .rpyc) at ${final}`);
      return final;
    } catch (e) {
      fs.rmSync(tmp, { recursive: true, force: true });
      throw e;
    }
  }
}

/** The game folder's path under Debian's Ren'Py folder (e.g. `the_question`), or null outside it. */
export function gameUnderBase(baseDir: string): string | null {
  const rel = path.relative(RENPY_BASE, path.resolve(baseDir));
  return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : null;
}
