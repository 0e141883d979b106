/**
 * The games compiled ahead (compiled.ts) against Debian's real Ren'Py: the copy is made once, with
 * a .rpyc for each script Ren'Py loads (its common/, the game, our overlay), read-only to the
 * sessions, found again by the next agent; a game started from it loads its scripts from them
 * (Ren'Py's own log: "Loading script took …") instead of parsing them; a game outside Debian's
 * folder and a stopped agent's compile are left as they were.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { RenpyRuntime } from '../../../lib/api-types/titleRuntime';
import { CompiledGames, RENPY_BASE, WRAPPER, listFiles, sourceDigest, type LaunchPaths } from './compiled';
import { loadNativeConfig } from './config';
import { NOBODY, isRoot, unprivilegedPrefix } from './isolation';
import { PYTHON, startXvfb, until, type XDisplay } from './testing/xenv';

jest.setTimeout(240_000);

const GAME_DIR = path.join(RENPY_BASE, 'the_question');
const installed = fs.existsSync(GAME_DIR) && fs.existsSync('/usr/bin/Xvfb') && fs.existsSync('/usr/games/renpy');
const maybe = installed ? describe : describe.skip;
if (!installed) console.warn(`compiled.int: Ren'Py or Xvfb is not installed (${GAME_DIR}): run scripts/setup.sh`);

const SPEC: RenpyRuntime = { kind: 'renpy', baseDir: GAME_DIR, language: 'japanese' };

/** Every file under `dir`, as absolute paths. */
const files = (dir: string) => listFiles(dir).map((f) => path.join(dir, f));

maybe('Ren\'Py games compiled ahead', () => {
  let dir: string;
  let x: XDisplay;
  const logs: string[] = [];
  const log = (level: string, m: string) => logs.push(`${level} ${m}`);
  const config = () => loadNativeConfig({ HOST_NATIVE_COMPILED_DIR: path.join(dir, 'compiled') });

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'yumecast-compiled-'));
    fs.chmodSync(dir, 0o755); // the game's user (nobody) passes through to the copy
    x = await startXvfb(dir, isRoot ? { uid: NOBODY, gid: NOBODY } : {});
  });

  afterAll(async () => {
    await x?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  /** Starts the game as the sessions' user from `launch` and reads how long Ren'Py took to load its scripts. */
  async function loadingScript(launch: LaunchPaths, name: string): Promise<number> {
    const run = path.join(dir, name);
    for (const d of ['home', 'log', 'saves']) fs.mkdirSync(path.join(run, d), { recursive: true });
    if (isRoot) for (const d of ['', 'home', 'log', 'saves']) fs.chownSync(path.join(run, d), NOBODY, NOBODY);
    const env = { ...x.env, HOME: path.join(run, 'home'), PATH: '/usr/bin:/bin', SDL_AUDIODRIVER: 'dummy', RENPY_LOG_BASE: path.join(run, 'log'), RENPY_SEARCHPATH: launch.overlay, RENPY_LANGUAGE: 'japanese', RENPY_VARIANT: 'large', BROWSER: '/bin/true', ...launch.env };
    const argv = [...unprivilegedPrefix(NOBODY, NOBODY, { netns: false }), PYTHON, WRAPPER, launch.baseDir, '--savedir', path.join(run, 'saves')];
    const game = spawn(argv[0], argv.slice(1), { env: env as unknown as NodeJS.ProcessEnv, stdio: 'ignore' });
    try {
      const text = await until(
        () => {
          const t = fs.existsSync(path.join(run, 'log', 'log.txt')) && fs.readFileSync(path.join(run, 'log', 'log.txt'), 'utf8');
          return t && /Interface start took/.test(t) && t;
        },
        120_000,
        `${name}: Ren'Py's interface`,
      );
      return Number(/Loading script took ([0-9.]+)s/.exec(text)?.[1]);
    } finally {
      game.kill('SIGKILL');
    }
  }

  it('makes a read-only copy with a .rpyc for every script Ren\'Py loads, once', async () => {
    const games = new CompiledGames(config(), log);
    expect(games.paths(SPEC)).toMatchObject({ baseDir: GAME_DIR, compiled: false, env: {} });
    const copy = await games.prepare(SPEC);
    expect(copy).not.toBeNull();
    expect(fs.existsSync(path.join(copy!, 'ok'))).toBe(true);
    const all = files(copy!);
    const rpyc = all.filter((f) => f.endsWith('.rpyc'));
    expect(rpyc.filter((f) => f.includes('/base/renpy/common/')).length).toBeGreaterThan(50);
    expect(rpyc).toContain(path.join(copy!, 'base', 'the_question', 'game', 'script.rpyc'));
    expect(rpyc).toContain(path.join(copy!, 'overlay', 'yumecast_overlay.rpyc'));
    expect(all.some((f) => f.endsWith(path.join('game', 'cache', 'bytecode.rpyb')))).toBe(true);
    // nothing of the compile's own run: no save folder (every game would read its `persistent`), no log
    expect(all.filter((f) => /\/(log\.txt|persistent)$|\/saves\//.test(f))).toEqual([]);
    // the sessions read it, none of them may change it
    for (const f of [...all, copy!, path.join(copy!, 'base', 'the_question', 'game')]) {
      const st = fs.statSync(f);
      expect(st.mode & 0o022).toBe(0);
      expect(st.mode & 0o004).toBe(0o004);
      if (isRoot) expect(st.uid).toBe(0);
    }
    expect(fs.readdirSync(path.join(dir, 'compiled')).filter((n) => n.startsWith('.tmp-'))).toEqual([]);
    const paths = games.paths(SPEC);
    expect(paths).toEqual({ baseDir: path.join(copy!, 'base', 'the_question'), overlay: path.join(copy!, 'overlay'), env: { YUMECAST_RENPY_BASE: path.join(copy!, 'base') }, compiled: true });
    expect(logs.filter((l) => l.includes('compiled ahead in'))).toHaveLength(1);

    // the next agent of the machine finds it
    const t0 = Date.now();
    const again = await new CompiledGames(config(), log).prepare(SPEC);
    expect(again).toBe(copy);
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(logs.filter((l) => l.includes('compiled ahead in'))).toHaveLength(1);
  });

  it('starts the game from the copy, loading its scripts from the .rpyc instead of parsing them', async () => {
    const games = new CompiledGames(config(), log);
    await games.prepare(SPEC);
    const debian = await loadingScript(new CompiledGames({ ...config(), compileAhead: false }, log).paths(SPEC), 'run-debian');
    const compiled = await loadingScript(games.paths(SPEC), 'run-compiled');
    console.log(`FIGURE Ren'Py "Loading script": ${debian.toFixed(2)} s from Debian's folder, ${compiled.toFixed(2)} s compiled ahead`);
    expect(compiled).toBeLessThan(debian / 2);
    // Ren'Py wrote nothing into the shared copy
    const written = files(path.join(dir, 'compiled')).filter((f) => /\/(log\.txt|traceback\.txt|persistent)$|\/saves\//.test(f));
    expect(written).toEqual([]);
  });

  it('leaves a game outside Debian\'s folder as it is, and a stopped agent\'s compile unmade', async () => {
    const games = new CompiledGames(loadNativeConfig({ HOST_NATIVE_COMPILED_DIR: path.join(dir, 'other') }), log);
    const elsewhere: RenpyRuntime = { kind: 'renpy', baseDir: '/opt/games/some_game' };
    expect(await games.prepare(elsewhere)).toBeNull();
    expect(games.paths(elsewhere)).toMatchObject({ baseDir: '/opt/games/some_game', compiled: false });

    const building = games.prepare(SPEC);
    await until(() => fs.existsSync(path.join(dir, 'other')) && fs.readdirSync(path.join(dir, 'other')).length > 0, 30_000, 'the compile under way');
    games.close();
    expect(await building).toBeNull();
    expect(games.paths(SPEC).compiled).toBe(false);
    expect(fs.readdirSync(path.join(dir, 'other'))).toEqual([]);
    expect(logs.filter((l) => l.startsWith('warn'))).toEqual([]);
  });

  it('leaves the compile to the agent of the machine already making it, and asks again at the next start', async () => {
    const cfg = loadNativeConfig({ HOST_NATIVE_COMPILED_DIR: path.join(dir, 'third') });
    fs.mkdirSync(cfg.compiledDir, { recursive: true });
    const lock = path.join(cfg.compiledDir, `.lock-${sourceDigest(cfg.python)}-the_question`);
    fs.writeFileSync(lock, '1');
    const games = new CompiledGames(cfg, log);
    expect(await games.prepare(SPEC)).toBeNull();
    expect(fs.readdirSync(cfg.compiledDir)).toEqual([path.basename(lock)]);
    fs.rmSync(lock);
    const copy = await games.prepare(SPEC);
    expect(copy).not.toBeNull();
    expect(games.paths(SPEC).compiled).toBe(true);
    expect(fs.readdirSync(cfg.compiledDir)).toEqual([path.basename(copy!)]);

    // the copy removed under the agent (a cleaner of temporary files): Debian's folder, then made again
    fs.rmSync(copy!, { recursive: true, force: true });
    expect(games.paths(SPEC)).toMatchObject({ baseDir: GAME_DIR, compiled: false });
    expect(await games.prepare(SPEC)).toBe(copy);
    expect(games.paths(SPEC).compiled).toBe(true);
  });
});
