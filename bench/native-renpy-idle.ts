/**
 * Ren'Py's own CPU on a still screen (issue 15, a lever of the native runtime): docs/renpy.md §3
 * measured 33–39 % of a core for Ren'Py redrawing a still screen on llvmpipe; the host's overlay
 * (server/host/native/renpy/overlay/yumecast_overlay.rpy) sets the redraw period of a still screen
 * to 5 s. This runs the game by hand as server/host/native/game.ts does (its own Xvfb 1382×822
 * and PulseAudio null sink, Ren'Py through renpy-py311.py as nobody, RENPY_SEARCHPATH = an
 * overlay folder), no stream, no browser, twice per variant, interleaved:
 *   with      a copy of the overlay as shipped;
 *   without   the same copy minus its `config.interact_callbacks.append(_yumecast_still_redraw)`;
 *   no sound  the overlay as shipped and RENPY_DISABLE_SOUND=1 (where the rest of the idle CPU goes);
 * and per run Ren'Py's CPU (% of one core, /proc utime + stime) on the title screen and on the
 * story's first line (スタート clicked with xdotool), both still, music playing, and on the line
 * the CPU of Ren'Py's threads by name (where the rest goes).
 * Why by hand: the host's overlay path is fixed in game.ts; a bench must not change the host.
 * Uses displays :238 and :239 of the shared machine's range. Prints figures; never fails on speed.
 *
 *   npx tsx bench/native-renpy-idle.ts [--window 15] [--rounds 2]
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sleep } from '../server/host/testing/harness';
import { arg, bound, cpuSeconds, finish, median, onCleanup, threadsCpu } from './play-common';
import { START_BUTTON } from './play-native';

const WINDOW_MS = Math.max(2, Number(arg('window', '15'))) * 1000;
const ROUNDS = Math.max(1, Number(arg('rounds', '2')));
const NATIVE = path.join(__dirname, '..', 'server', 'host', 'native', 'renpy');
const BASE_DIR = '/usr/share/games/renpy/the_question';
const NOBODY = ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups'];
const SCREEN = '1382x822x24';
/** The game window's rectangle on that screen (server/host/native/game.ts WINDOW). */
const WINDOW = { x: 51, y: 51, width: 1280, height: 720 };
const REDRAW_LINE = 'config.interact_callbacks.append(_yumecast_still_redraw)';

const VARIANTS = ['with', 'without', 'no sound'] as const;
type Variant = (typeof VARIANTS)[number];

interface Run {
  variant: Variant;
  title: number;
  line: number;
  /** Ren'Py's threads on the still line: name → % of a core (the busiest first). */
  threads: string;
  load: string;
}

function cpuOver(pid: number, ms: number): Promise<number> {
  const a = cpuSeconds(pid) ?? 0;
  const t0 = performance.now();
  return sleep(ms).then(() => (((cpuSeconds(pid) ?? a) - a) / ((performance.now() - t0) / 1000)) * 100);
}

async function waitFile(file: string, ms: number): Promise<void> {
  const t0 = Date.now();
  while (!fs.existsSync(file)) {
    if (Date.now() - t0 > ms) throw new Error(`${file} did not appear within ${ms} ms`);
    await sleep(20);
  }
}

async function once(variant: Variant, display: number): Promise<Run> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'yumecast-renpy-idle-'));
  const children: ChildProcess[] = [];
  const stop = async () => {
    for (const c of children.reverse()) {
      try {
        process.kill(-c.pid!, 'SIGKILL');
      } catch {
        /* gone */
      }
    }
    await sleep(300);
    fs.rmSync(`/tmp/.X${display}-lock`, { force: true });
    fs.rmSync(`/tmp/.X11-unix/X${display}`, { force: true });
    fs.rmSync(dir, { recursive: true, force: true });
  };
  onCleanup(stop);
  try {
    fs.chmodSync(dir, 0o755);
    for (const d of ['home', 'rt', 'log', 'saves']) fs.mkdirSync(path.join(dir, d));
    const overlay = path.join(dir, 'overlay');
    fs.cpSync(path.join(NATIVE, 'overlay'), overlay, { recursive: true });
    if (variant === 'without') {
      const f = path.join(overlay, 'yumecast_overlay.rpy');
      const src = fs.readFileSync(f, 'utf8');
      if (!src.includes(REDRAW_LINE)) throw new Error(`the overlay has no "${REDRAW_LINE}"`);
      fs.writeFileSync(f, src.replace(REDRAW_LINE, 'pass'));
    }
    const xauth = path.join(dir, 'xauth');
    execFileSync('xauth', ['-q', '-f', xauth, 'add', `:${display}`, '.', crypto.randomBytes(16).toString('hex')], { stdio: 'ignore' });
    execFileSync('chown', ['-R', '65534:65534', dir]);
    const base = { HOME: path.join(dir, 'home'), PATH: '/usr/bin:/bin', XDG_RUNTIME_DIR: path.join(dir, 'rt') };
    const run = (cmd: string[], env: Record<string, string>) => {
      const c = spawn(NOBODY[0], [...NOBODY.slice(1), ...cmd], { env: env as NodeJS.ProcessEnv, stdio: 'ignore', detached: true });
      children.push(c);
      return c;
    };
    run(['Xvfb', `:${display}`, '-screen', '0', SCREEN, '-nolisten', 'tcp', '-nolisten', 'local', '-auth', xauth, '-noreset'], base);
    const pulseSock = path.join(dir, 'rt', 'pulse.sock');
    run(['pulseaudio', '-n', '--daemonize=no', '--system=no', '--exit-idle-time=-1', '--use-pid-file=no', `--load=module-native-protocol-unix socket=${pulseSock} auth-anonymous=1`, '--load=module-null-sink sink_name=game rate=48000 channels=2'], base);
    await waitFile(`/tmp/.X11-unix/X${display}`, 5000);
    await waitFile(pulseSock, 5000);
    const xenv = { ...base, DISPLAY: `:${display}`, XAUTHORITY: xauth };
    const game = run(['/usr/bin/python3', path.join(NATIVE, 'renpy-py311.py'), BASE_DIR, '--savedir', path.join(dir, 'saves')], {
      ...xenv,
      SDL_AUDIODRIVER: 'pulse',
      PULSE_SERVER: `unix:${pulseSock}`,
      RENPY_LOG_BASE: path.join(dir, 'log'),
      RENPY_SEARCHPATH: overlay,
      RENPY_LANGUAGE: 'japanese',
      BROWSER: '/bin/true',
      ...(variant === 'no sound' ? { RENPY_DISABLE_SOUND: '1' } : {}),
    });
    // the title screen drawn (3 s on a quiet machine, docs/renpy.md §3), then settled
    await sleep(10_000);
    if (game.exitCode !== null) throw new Error(`Ren'Py exited (${game.exitCode})`);
    const title = await cpuOver(game.pid!, WINDOW_MS);
    const x = String(Math.round(WINDOW.x + START_BUTTON.x * WINDOW.width));
    const y = String(Math.round(WINDOW.y + START_BUTTON.y * WINDOW.height));
    execFileSync('xdotool', ['mousemove', x, y, 'click', '1'], { env: { ...xenv, NODE_ENV: process.env.NODE_ENV }, stdio: 'ignore' });
    // the fade into the lecture hall and the first line, then settled
    await sleep(6000);
    const t0 = new Map(threadsCpu(game.pid!).map((t) => [t.tid, t.cpu]));
    const line = await cpuOver(game.pid!, WINDOW_MS);
    const byName = new Map<string, number>();
    for (const t of threadsCpu(game.pid!)) byName.set(t.name, (byName.get(t.name) ?? 0) + ((t.cpu - (t0.get(t.tid) ?? t.cpu)) / (WINDOW_MS / 1000)) * 100);
    const threads = [...byName].sort((a, b) => b[1] - a[1]).filter(([, v]) => v >= 0.5).map(([k, v]) => `${k} ${v.toFixed(1)}%`).join(', ');
    return { variant, title, line, threads, load: os.loadavg().map((l) => l.toFixed(2)).join('/') };
  } finally {
    await stop();
  }
}

async function main(): Promise<void> {
  bound(20 * 60_000);
  console.log(`Ren'Py idle CPU: ${new Date().toISOString()}, window ${WINDOW_MS / 1000} s, ${ROUNDS} round(s), load ${os.loadavg().map((l) => l.toFixed(2)).join('/')}`);
  const runs: Run[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    for (const variant of r % 2 === 0 ? VARIANTS : [...VARIANTS].reverse()) {
      const x = await once(variant, 238 + (runs.length % 2));
      runs.push(x);
      console.log(`  ${variant}: title screen ${x.title.toFixed(1)}%, first line ${x.line.toFixed(1)}% of a core (threads: ${x.threads}) (load ${x.load})`);
    }
  }
  for (const v of VARIANTS) {
    const rs = runs.filter((x) => x.variant === v);
    console.log(`${v}: Ren'Py on the title screen median ${median(rs.map((x) => x.title)).toFixed(1)}%, on a still line median ${median(rs.map((x) => x.line)).toFixed(1)}% of a core (${rs.length} runs)`);
  }
  await finish(0);
}

main().catch(async (e) => {
  console.error(e);
  await finish(1);
});
