/**
 * The light runtime's draw against the page's (issue 11, docs/light-runtime.md slice 1): the same
 * title, started on its first line, its art left to rasterise in idle time until every image the
 * title declares is done (the "art warm": its seconds and CPU), then read on the same way (Enter
 * every --every ms, 250 by default, as play-host-cost's "reading on") for --seconds, each in the
 * same run.
 *   - before: the engine in a Debian Chromium page (the host's `change` mode): its frames and its
 *     mean draw (getState().drawMs), and its renderer's CPU from /proc;
 *   - after: runtime/node's LightRuntime in a process of its own (this script with --child), three
 *     times: drawing only (`light`), reading each frame's pixels back as a sender takes them
 *     (`light+read`, LightRuntime.pixels()), and handing them to its sender (`light+send`:
 *     runtime/node/sender.ts, GStreamer's webrtcbin, VP8 to a Chromium player of the child's own,
 *     whose CPU is not counted): its frames, its mean draw, the CPU of the engine's process a frame
 *     and a second (the draw, the engine's logic, the read-back, Node itself), its memory (PSS, and
 *     RSS, from /proc/self/smaps_rollup) at the end, and with the sender that process's CPU and
 *     PSS apart and the frames the player decoded.
 * (The rows after the art warm are the reading window's.) Both load the title from the host's own page server (buildTestRuntime). Figures only; never
 * fails on speed.
 *
 *   npx tsx bench/light-draw.ts [--game hajimari-no-eki] [--seconds 15] [--every 250] [--cpu-used -6]
 *       [--columns page,light,light+read,light+send]
 * (15 s: hajimari-no-eki's first choice comes after ~22 lines, and a window past it is partly still)
 * (needs the sender's Debian packages: scripts/setup.sh)
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { FIXTURES_DIR, GAMES_DIR } from '../runtime/build';
import { LightRuntime } from '../runtime/node/runtime';
import type { EngineState } from '../runtime/src/types';
import { startPageServer } from '../server/host/page-server';
import { buildTestRuntime } from '../server/host/testing/harness';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../server/shared/chromium';
import { chromiumProcs, pssBytes, readProc } from '../server/host/procs';
import { LightSender } from '../runtime/node/sender';
import { connectPlayer } from '../runtime/node/testing/player';
import { arg } from './play-common';
import { num, printTable } from './play-configs';

const GAME = arg('game', 'hajimari-no-eki');
const SECONDS = Math.max(3, Number(arg('seconds', '15')));
const EVERY_MS = Math.max(50, Number(arg('every', '250')));
/** Which columns to run (all by default), in this order. */
const COLUMNS = arg('columns', 'page,light,light+read,light+send')
  .split(',')
  .filter((c) => ['page', 'light', 'light+read', 'light+send'].includes(c));
/** The sender's VP8 speed (libvpx cpu-used), for `light+send`. */
const CPU_USED = Number(arg('cpu-used', '-6'));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** The longest the art warm is waited for (s). */
const WARM_MAX_S = 90;

/** Waits until every image the title declares is rasterised (or failed); returns the seconds waited. */
async function artWarm(state: () => Promise<EngineState> | EngineState): Promise<number> {
  const t0 = performance.now();
  for (;;) {
    const a = (await state()).art;
    if (!a || a.rasterised + a.failed >= a.total || performance.now() - t0 > WARM_MAX_S * 1000) return (performance.now() - t0) / 1000;
    await sleep(100);
  }
}

type Mode = 'draw' | 'read' | 'send';

interface Figures {
  /** `send`: the sender process's CPU (% of a core) and PSS (MB), and the frames its player decoded a second. */
  senderPct?: number;
  senderPssMb?: number;
  receivedFps?: number;
  /** From start() to every declared image rasterised: seconds, and CPU (% of a core) meanwhile. */
  warmS: number;
  warmPct: number;
  frames: number;
  fps: number;
  drawMs: number;
  cpuMsFrame: number;
  cpuPct: number;
  pssMb?: number;
  rssMb?: number;
  lines: number;
}

const urls = (id: string) => ({ gameId: id, assetBase: `/games/${id}/`, storyUrl: `/runtime/games/${id}.json`, skipTitle: true });
const enter = { down: { v: 1, type: 'key', kind: 'down', key: 'Enter' }, up: { v: 1, type: 'key', kind: 'up', key: 'Enter' } } as const;

/** `KEY: n kB` of /proc/self/smaps_rollup, in MB. */
function rollup(key: string): number {
  const m = new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(fs.readFileSync('/proc/self/smaps_rollup', 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

/** A process's CPU seconds (utime + stime). */
function procCpu(pid: number): number {
  return (readProc(pid)?.cpuTicks ?? 0) / 100;
}

/**
 * --child: the light runtime reads on; prints its figures as JSON on its last line. `read`: each
 * frame's pixels read back; `send`: handed to a LightSender whose player is a Chromium of this
 * child's own (its CPU is not counted; the sender's is, apart).
 */
async function child(baseHref: string, mode: Mode): Promise<void> {
  let bytes = 0;
  let sender: LightSender | null = null;
  let dir = '';
  if (mode === 'send') {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'yumecast-light-bench-'));
    sender = await LightSender.start({ width: 1280, height: 720, dir, cpuUsed: CPU_USED });
  }
  const onFrame = mode === 'draw' ? undefined : () => (sender ? sender.frame(rt.pixels()) : (bytes += rt.pixels().length));
  const rt: LightRuntime = new LightRuntime({ baseHref, onFrame });
  const browser = sender ? await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: [...CHROMIUM_ARGS] }) : null;
  const w0 = process.cpuUsage();
  const tw = performance.now();
  await rt.start(urls(GAME));
  const player = sender && browser ? await connectPlayer(browser, sender, () => undefined) : null;
  await artWarm(() => rt.getState());
  const warmS = (performance.now() - tw) / 1000;
  const w = process.cpuUsage(w0);
  if (player) for (let i = 0; i < 100 && (await player.inbound()).decoded === 0; i++) await sleep(100);
  const r0 = player ? (await player.inbound()).decoded : 0;
  const s0 = sender?.pid ? procCpu(sender.pid) : 0;
  const f0 = rt.frames;
  const d0 = rt.drawMsTotal;
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  while (performance.now() - t0 < SECONDS * 1000) {
    if (rt.getState().choices.length === 0) {
      rt.applyInput(enter.down);
      rt.applyInput(enter.up);
    }
    await sleep(EVERY_MS);
  }
  const c = process.cpuUsage(c0);
  const s = (performance.now() - t0) / 1000;
  const senderS = sender?.pid ? procCpu(sender.pid) - s0 : 0;
  const frames = rt.frames - f0;
  const cpuMs = (c.user + c.system) / 1000;
  const out: Figures = { warmS, warmPct: (w.user + w.system) / 1e4 / warmS, frames, fps: frames / s, drawMs: (rt.drawMsTotal - d0) / Math.max(1, frames), cpuMsFrame: cpuMs / Math.max(1, frames), cpuPct: cpuMs / 10 / s, pssMb: rollup('Pss'), rssMb: rollup('Rss'), lines: rt.getState().lineCount };
  if (sender?.pid && player) {
    out.senderPct = (senderS * 100) / s;
    out.senderPssMb = pssBytes(sender.pid) / 1048576;
    out.receivedFps = ((await player.inbound()).decoded - r0) / s;
  }
  rt.close();
  await sender?.close();
  await browser?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  if (mode === 'read' && bytes === 0) throw new Error('no pixels read back');
  console.log(JSON.stringify(out));
}

function runChild(baseHref: string, mode: Mode): Promise<Figures> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [...process.execArgv, __filename, '--child', baseHref, '--mode', mode, '--cpu-used', String(CPU_USED), '--game', GAME, '--seconds', String(SECONDS), '--every', String(EVERY_MS)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    p.stdout.on('data', (d) => (out += d));
    p.on('exit', (code) => {
      const last = out.trim().split('\n').pop() ?? '';
      if (code === 0) resolve(JSON.parse(last) as Figures);
      else reject(new Error(`light child exited ${code}: ${out}`));
    });
  });
}

/** The renderers' CPU seconds (utime + stime; this bench runs the machine's only Chromium while it measures). */
function rendererCpu(): number {
  let ticks = 0;
  for (const p of chromiumProcs()) if (p.cmdline.includes('--type=renderer')) ticks += p.cpuTicks;
  return ticks / 100;
}

async function pageRun(origin: string): Promise<Figures> {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: [...CHROMIUM_ARGS] });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    await page.goto(`${origin}/runtime/index.html?frames=change`);
    await page.waitForFunction(() => !!window.yumecast);
    const w0 = rendererCpu();
    const tw = performance.now();
    await page.evaluate((o) => window.yumecast.start(o), urls(GAME));
    await artWarm(() => page.evaluate(() => window.yumecast.getState()));
    const warmS = (performance.now() - tw) / 1000;
    const warmPct = ((rendererCpu() - w0) * 100) / warmS;
    const s0 = await page.evaluate(() => window.yumecast.getState());
    const c0 = rendererCpu();
    const t0 = performance.now();
    while (performance.now() - t0 < SECONDS * 1000) {
      await page.evaluate((m) => {
        if (window.yumecast.getState().choices.length > 0) return;
        window.yumecast.applyInput(m.down);
        window.yumecast.applyInput(m.up);
      }, enter);
      await sleep(EVERY_MS);
    }
    const s = (performance.now() - t0) / 1000;
    const cpu = rendererCpu() - c0;
    const s1 = await page.evaluate(() => window.yumecast.getState());
    const frames = s1.frame - s0.frame;
    return { warmS, warmPct, frames, fps: frames / s, drawMs: s1.drawMs ?? NaN, cpuMsFrame: (cpu * 1000) / Math.max(1, frames), cpuPct: (cpu * 100) / s, lines: s1.lineCount };
  } finally {
    await browser.close();
  }
}

async function main(): Promise<void> {
  const at = process.argv.indexOf('--child');
  if (at >= 0) return child(process.argv[at + 1], arg('mode', 'draw') as Mode);
  const runtimeDir = await buildTestRuntime();
  const server = await startPageServer({ runtimeDir, gamesDirs: [GAMES_DIR, FIXTURES_DIR], port: 0 });
  try {
    console.log(`light-draw: ${GAME}, reading on (Enter every ${EVERY_MS} ms) for ${SECONDS} s each; load ${fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
    const cols: Record<string, Figures> = {};
    const names = COLUMNS;
    const href = `${server.origin}/runtime/index.html`;
    for (const n of names) cols[n] = n === 'page' ? await pageRun(server.origin) : await runChild(href, n === 'light' ? 'draw' : n === 'light+read' ? 'read' : 'send');
    const row = (figure: string, f: (x: Figures) => string) => ({ figure, values: Object.fromEntries(names.map((n) => [n, f(cols[n])])) });
    const rows = [
      row('art warm: seconds from start()', (x) => num(x.warmS, 1)),
      row('art warm: CPU (% of a core)', (x) => num(x.warmPct, 1)),
      row('reading on: frames drawn', (x) => num(x.frames)),
      row('frames a second', (x) => num(x.fps, 1)),
      row('mean draw (ms)', (x) => num(x.drawMs, 2)),
      row('CPU a frame (ms; page: its renderer, light: its process)', (x) => num(x.cpuMsFrame, 2)),
      row('CPU (% of a core)', (x) => num(x.cpuPct, 1)),
      row('process PSS / RSS at the end (MB)', (x) => (x.pssMb === undefined ? '–' : `${num(x.pssMb)} / ${num(x.rssMb ?? NaN)}`)),
      row('lines read', (x) => num(x.lines)),
      row('send: the sender process, CPU (% of a core)', (x) => num(x.senderPct ?? NaN, 1)),
      row('send: the sender process, PSS (MB)', (x) => num(x.senderPssMb ?? NaN)),
      row('send: frames the player decoded a second', (x) => num(x.receivedFps ?? NaN, 1)),
    ];
    printTable(`light-draw (${GAME}): the page's engine (before) | the light runtime's (after), drawing only | and reading each frame's pixels back`, rows, names);
  } finally {
    await server.close();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
