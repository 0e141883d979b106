/**
 * The light runtime's draw against the page's (issue 11, docs/light-runtime.md slice 1): the same
 * title, read on the same way (Enter every --every ms, 250 by default, as play-host-cost's
 * "reading on"), for --seconds each, in the same run.
 *   - before: the engine in a Debian Chromium page (the host's `change` mode): its frames and its
 *     mean draw (getState().drawMs), and its renderer's CPU from /proc;
 *   - after: runtime/node's LightRuntime in a process of its own (this script with --child): its
 *     frames, its mean draw, the CPU of the whole process a frame and a second (the draw, the
 *     engine's logic, each frame's pixels read back as a sender takes them, and Node itself),
 *     and its memory (PSS, and RSS, from /proc/self/smaps_rollup) at the end.
 * Both load the title from the host's own page server (buildTestRuntime). Figures only; never
 * fails on speed.
 *
 *   npx tsx bench/light-draw.ts [--game hajimari-no-eki] [--seconds 20] [--every 250]
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { chromium } from 'playwright-core';
import { FIXTURES_DIR, GAMES_DIR } from '../runtime/build';
import { LightRuntime } from '../runtime/node/runtime';
import { startPageServer } from '../server/host/page-server';
import { buildTestRuntime } from '../server/host/testing/harness';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../server/shared/chromium';
import { chromiumProcs } from '../server/host/procs';
import { arg } from './play-common';
import { num, printTable } from './play-configs';

const GAME = arg('game', 'hajimari-no-eki');
const SECONDS = Math.max(3, Number(arg('seconds', '20')));
const EVERY_MS = Math.max(50, Number(arg('every', '250')));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Figures {
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

/** --child: the light runtime reads on; prints its figures as JSON on its last line. */
async function child(baseHref: string): Promise<void> {
  let bytes = 0;
  const rt = new LightRuntime({ baseHref, onFrame: () => (bytes += rt.pixels().length) });
  await rt.start(urls(GAME));
  await sleep(1500);
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
  const frames = rt.frames - f0;
  const cpuMs = (c.user + c.system) / 1000;
  const out: Figures = { frames, fps: frames / s, drawMs: (rt.drawMsTotal - d0) / Math.max(1, frames), cpuMsFrame: cpuMs / Math.max(1, frames), cpuPct: cpuMs / 10 / s, pssMb: rollup('Pss'), rssMb: rollup('Rss'), lines: rt.getState().lineCount };
  rt.close();
  if (bytes === 0) throw new Error('no pixels read back');
  console.log(JSON.stringify(out));
}

function runChild(baseHref: string): Promise<Figures> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [...process.execArgv, __filename, '--child', baseHref, '--game', GAME, '--seconds', String(SECONDS), '--every', String(EVERY_MS)], { stdio: ['ignore', 'pipe', 'inherit'] });
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
    await page.evaluate((o) => window.yumecast.start(o), urls(GAME));
    await sleep(1500);
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
    return { frames, fps: frames / s, drawMs: s1.drawMs ?? NaN, cpuMsFrame: (cpu * 1000) / Math.max(1, frames), cpuPct: (cpu * 100) / s, lines: s1.lineCount };
  } finally {
    await browser.close();
  }
}

async function main(): Promise<void> {
  const at = process.argv.indexOf('--child');
  if (at >= 0) return child(process.argv[at + 1]);
  const runtimeDir = await buildTestRuntime();
  const server = await startPageServer({ runtimeDir, gamesDirs: [GAMES_DIR, FIXTURES_DIR], port: 0 });
  try {
    console.log(`light-draw: ${GAME}, reading on (Enter every ${EVERY_MS} ms) for ${SECONDS} s each; load ${fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
    const light = await runChild(`${server.origin}/runtime/index.html`);
    const page = await pageRun(server.origin);
    const rows = [
      { figure: 'frames drawn', values: { page: num(page.frames), light: num(light.frames) } },
      { figure: 'frames a second', values: { page: num(page.fps, 1), light: num(light.fps, 1) } },
      { figure: 'mean draw (ms)', values: { page: num(page.drawMs, 2), light: num(light.drawMs, 2) } },
      { figure: 'CPU a frame (ms; page: its renderer, light: its process)', values: { page: num(page.cpuMsFrame, 2), light: num(light.cpuMsFrame, 2) } },
      { figure: 'CPU (% of a core)', values: { page: num(page.cpuPct, 1), light: num(light.cpuPct, 1) } },
      { figure: 'process PSS / RSS at the end (MB)', values: { page: '–', light: `${num(light.pssMb ?? NaN)} / ${num(light.rssMb ?? NaN)}` } },
      { figure: 'lines read', values: { page: num(page.lines), light: num(light.lines) } },
    ];
    printTable(`light-draw (${GAME}): the page's engine (before) | the light runtime's (after)`, rows, ['page', 'light']);
  } finally {
    await server.close();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
