/**
 * npx tsx scripts/catalog/capture-renpy.ts [--out <dir>]
 *
 * Photographs "The Question" (Debian's renpy-thequestion, a Ren'Py title of the catalogue,
 * issue 15) for its catalogue page, by hand and never at build time: the images must be copies
 * of the running game, not drawings. It starts Xvfb (1382×822, so Ren'Py's window is 1280×720:
 * docs/renpy.md §2) and the unchanged game in Japanese under Debian's Python 3.11 through the
 * host's wrapper (server/host/native/renpy/renpy-py311.py), both as `nobody` when run as root (a root Ren'Py writes into
 * /usr/share), with no sound device. It drives the game with XTest (renpy/xdrive.py) through
 * the title screen, a line, Sylvie and the first choice, then on to the meadow where the text
 * window is hidden for the key art, and writes what the other titles have:
 *   public/games/the-question/keyart.png (1280×720 PNG) and screenshots/01.webp … (1280×720,
 *   WebP q86), plus the "screenshots" field of games/the-question/meta.json (alt texts below).
 * Everything it started is killed at the end (Xvfb, the game, the driver), also on failure.
 * Needs: xvfb, xauth, renpy, renpy-thequestion, python3-xlib (scripts/setup.sh). CAPTURE_DISPLAY
 * picks the X display number (default 150).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import sharp from 'sharp';
import { writeScreenshots, type ScreenshotEntry } from './meta-screenshots';

const ROOT = path.resolve(__dirname, '..', '..');
const ID = 'the-question';
const BASE_DIR = '/usr/share/games/renpy/the_question';
const WIDTH = 1280;
const HEIGHT = 720;
const QUALITY = 86;
const DISPLAY_NUM = Number(process.env.CAPTURE_DISPLAY ?? 150);
const DISPLAY = `:${DISPLAY_NUM}`;
const PYTHON = '/usr/bin/python3';
const HERE = path.join(__dirname, 'renpy');
/** The native runtime's launcher for Python 3.11 (one copy: the host's). */
const WRAPPER = path.join(ROOT, 'server', 'host', 'native', 'renpy', 'renpy-py311.py');

/** One step of the walk: an X command for the driver, or a picture to keep. */
type Step = { x: string } | { shot: string; alt?: string };

/** Waits until the picture has been still for 1 s (Ren'Py's fades and dissolves are shorter). */
const settle: Step = { x: 'stable 1000 10000' };
const enter = (times: number): Step[] => Array.from({ length: times }, () => [{ x: 'key Return' }, settle]).flat();

const WALK: Step[] = [
  settle,
  { shot: '01', alt: '「The Question」のタイトル画面。大学の並木道を背に、スタートやロードのメニューが並ぶ' },
  { x: 'click 0.06 0.358' }, // スタート (docs/renpy.md §3)
  settle,
  { shot: '02', alt: '講義が終わった大講義室。主人公の独白が日本語で表示される' },
  ...enter(5),
  { shot: '03', alt: '大学の前で、幼なじみのシルビーを見つける' },
  ...enter(3),
  { shot: '04', alt: 'シルビーに今すぐ聞くか、あとで聞くかを選ぶ' },
  { x: 'click 0.5 0.333' }, // 今すぐ彼女に聞いてみよう
  settle,
  ...enter(9),
  { x: 'key h' }, // hide the text window: the key art is the scene itself
  settle,
  { shot: 'keyart' },
];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

class Driver {
  private readonly lines: AsyncIterator<string>;
  constructor(readonly child: ChildProcess) {
    this.lines = readline.createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  }
  async send(command: string): Promise<string> {
    this.child.stdin!.write(`${command}\n`);
    const next = await this.lines.next();
    if (next.done) throw new Error(`the X driver ended before answering "${command}"`);
    if (next.value.startsWith('error')) throw new Error(`X driver: ${next.value} (after "${command}")`);
    return next.value;
  }
}

async function waitFor(what: string, ok: () => boolean, ms: number): Promise<void> {
  for (const end = Date.now() + ms; Date.now() < end; await sleep(100)) if (ok()) return;
  throw new Error(`timed out waiting for ${what}`);
}

async function main(): Promise<void> {
  const outIndex = process.argv.indexOf('--out');
  const publicDir = outIndex > 0 ? path.resolve(process.argv[outIndex + 1]) : path.join(ROOT, 'public', 'games', ID);
  const run = fs.mkdtempSync(path.join(os.tmpdir(), 'yc-renpy-capture-'));
  const children: ChildProcess[] = [];
  const asUser = process.getuid?.() === 0 ? ['setpriv', '--reuid=nobody', '--regid=nogroup', '--clear-groups'] : [];
  const start = (argv: string[], env: Record<string, string>, log: string): ChildProcess => {
    const [cmd, ...args] = [...asUser, ...argv];
    const out = fs.openSync(path.join(run, log), 'w');
    const child = spawn(cmd, args, { env: env as NodeJS.ProcessEnv, stdio: ['ignore', out, out], detached: true });
    children.push(child);
    return child;
  };
  try {
    for (const dir of ['home', 'saves', 'log']) fs.mkdirSync(path.join(run, dir));
    const xauth = path.join(run, 'xauth');
    const cookie = [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, '0')).join('');
    await new Promise<void>((resolve, reject) =>
      spawn('xauth', ['-q', '-f', xauth, 'add', DISPLAY, '.', cookie], { stdio: 'ignore' }).on('exit', (c) => (c === 0 ? resolve() : reject(new Error('xauth failed')))),
    );
    if (asUser.length) for (const f of ['', 'home', 'saves', 'log', 'xauth']) fs.chownSync(path.join(run, f), 65534, 65534);
    const socket = `/tmp/.X11-unix/X${DISPLAY_NUM}`;
    if (fs.existsSync(socket)) throw new Error(`display ${DISPLAY} is in use (CAPTURE_DISPLAY picks another)`);
    start(['Xvfb', DISPLAY, '-screen', '0', '1382x822x24', '-nolisten', 'tcp', '-nolisten', 'local', '-auth', xauth, '-noreset'], { PATH: '/usr/bin:/bin' }, 'xvfb.txt');
    await waitFor('Xvfb', () => fs.existsSync(socket), 10_000);
    const xenv: Record<string, string> = { PATH: '/usr/bin:/bin', DISPLAY, XAUTHORITY: xauth };
    start(
      [PYTHON, WRAPPER, BASE_DIR, '--savedir', path.join(run, 'saves')],
      { ...xenv, HOME: path.join(run, 'home'), SDL_AUDIODRIVER: 'dummy', RENPY_LANGUAGE: 'japanese', RENPY_LOG_BASE: path.join(run, 'log'), BROWSER: '/bin/true' },
      'renpy.txt',
    );
    const driverChild = spawn(PYTHON, [path.join(HERE, 'xdrive.py')], { env: xenv as NodeJS.ProcessEnv, stdio: ['pipe', 'pipe', 'inherit'], detached: true });
    children.push(driverChild);
    const driver = new Driver(driverChild);
    // The window exists once Ren'Py has compiled the game (3 s here; no .rpyc in the package).
    let window = '';
    for (const end = Date.now() + 60_000; !/^window \d+ \d+ 1280 720$/.test(window); await sleep(250)) {
      if (Date.now() > end) throw new Error(`no 1280×720 game window (last: "${window}"); see ${run}/renpy.txt`);
      window = await driver.send('window').catch((error: Error) => error.message);
    }
    fs.mkdirSync(path.join(publicDir, 'screenshots'), { recursive: true });
    const shots: ScreenshotEntry[] = [];
    for (const step of WALK) {
      if ('x' in step) {
        const answer = await driver.send(step.x);
        if (answer === 'timeout') throw new Error(`the picture never settled (${step.x})`);
        continue;
      }
      const raw = path.join(run, `${step.shot}.raw`);
      await driver.send(`shot ${raw}`);
      const image = sharp(fs.readFileSync(raw), { raw: { width: WIDTH, height: HEIGHT, channels: 3 } });
      if (step.shot === 'keyart') {
        // A 256-colour palette, dithered: ~280 kB like the other key arts (truecolour: 1.7 MB).
        await image.png({ palette: true, quality: 95, effort: 10, dither: 1 }).toFile(path.join(publicDir, 'keyart.png'));
      } else {
        await image.webp({ quality: QUALITY }).toFile(path.join(publicDir, 'screenshots', `${step.shot}.webp`));
        shots.push({ src: `/games/${ID}/screenshots/${step.shot}.webp`, width: WIDTH, height: HEIGHT, alt: step.alt! });
      }
      console.log(`captured ${step.shot}`);
    }
    if (outIndex < 0) writeScreenshots(path.join(ROOT, 'games', ID, 'meta.json'), shots);
  } finally {
    for (const child of children.reverse()) {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    await sleep(300);
    fs.rmSync(`/tmp/.X${DISPLAY_NUM}-lock`, { force: true });
    fs.rmSync(`/tmp/.X11-unix/X${DISPLAY_NUM}`, { force: true });
    fs.rmSync(run, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
