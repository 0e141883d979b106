/**
 * Where a session's host CPU goes (issue 11): the goal is a still line ≤ 8 % and reading on
 * ≤ 25 % of a core per session, and bench/play-host-cost.ts gives only the host's total; this
 * bench splits it, to show which part a lever has to take. Per configuration (bench/play-configs.ts,
 * default `after`), one session on a fresh host (no warm runtime), received by a cheap peer
 * (bench/play-session.ts), into the story, then over --window (10 s) each:
 *   - static line at --at seconds after the click (20,60: the first while the session's start
 *     work may still run, the second once it has settled; a window whose time has passed starts
 *     at once, and the log says when it did);
 *   - reading on (Enter and '1' every 250 ms), right after the last static window.
 * In each window, from /proc (utime + stime, % of one core): every process of the host's
 * browsers by kind (browser, renderer, gpu, util:network, util:audio, … from --type and
 * --utility-sub-type; play-common's hostProcs) with their total, and every thread of the host's
 * renderers by name (the renderer's main thread as `main`; other names as the kernel keeps them,
 * 15 characters, trailing digits as #: ThreadPoolForeg, WebRTC_Worker, AudioOutputDevi, …);
 * besides, the cheap peer's own CPU (not the host's), what it received, and the engine's mean draw
 * time. One table per configuration (a column per window), then, with several, one per window
 * comparing them. Figures only; never fails on speed. Rows under --min (0.5 %) in every window
 * are summed into "other".
 *
 *   npx tsx bench/host-cpu-profile.ts [--config after] [--at 20,60] [--window 10] [--min 0.5]
 *       [--game hajimari-no-eki] [--minutes 4] [--fake]
 *   npx tsx server/dev/with-services.ts -- npx tsx bench/host-cpu-profile.ts   # through the real api
 */
import { readProc } from '../server/host/procs';
import { sleep, type TestAgent } from '../server/host/testing/harness';
import { num, pct, printTable, printTables, type Row } from './play-configs';
import { arg, cpuSeconds, cpuStart, engineState, finish, hostProcs, threadsCpu } from './play-common';
import { eachConfig, setUp, storySession, type Bench, type Received } from './play-session';

const AT_S = arg('at', '20,60')
  .split(',')
  .map(Number)
  .filter((x) => Number.isFinite(x) && x >= 0)
  .sort((a, b) => a - b);
const WINDOW_MS = Math.max(2, Number(arg('window', '10'))) * 1000;
const MIN = Number(arg('min', '0.5'));

/** A process's kind, from its command line. */
function kind(cmdline: string): string {
  const type = /--type=([\w-]+)/.exec(cmdline)?.[1];
  if (!type) return cmdline.includes('crashpad') ? 'crashpad' : 'browser';
  if (type === 'utility') return `util:${(/--utility-sub-type=([\w.]+)/.exec(cmdline)?.[1] ?? '?').replace(/\.mojom\..*$/, '')}`;
  return type.replace(/-process$/, '');
}

/** CPU seconds now, by process (kind) and by renderer thread (name). */
function snapshot(host: TestAgent): { procs: Map<number, { kind: string; cpu: number }>; threads: Map<string, { name: string; cpu: number }> } {
  const procs = new Map<number, { kind: string; cpu: number }>();
  const threads = new Map<string, { name: string; cpu: number }>();
  for (const p of hostProcs(host)) {
    const cpu = cpuSeconds(p.pid);
    if (cpu === null) continue;
    const k = kind(p.cmdline);
    procs.set(p.pid, { kind: k, cpu });
    if (k !== 'renderer') continue;
    for (const t of threadsCpu(p.pid)) threads.set(`${p.pid}:${t.tid}`, { name: t.tid === p.pid ? 'main' : t.name.replace(/\d+$/, '#'), cpu: t.cpu });
  }
  return { procs, threads };
}

/** % of a core per name between two readings (a process or thread new in the window counts from 0). */
function perName<K, T extends { cpu: number }>(a: Map<K, T>, z: Map<K, T>, name: (x: T) => string, seconds: number): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [id, x] of z) out[name(x)] = (out[name(x)] ?? 0) + ((x.cpu - (a.get(id)?.cpu ?? 0)) / seconds) * 100;
  return out;
}

interface Window {
  /** Seconds after the click when the window started. */
  startS: number;
  kinds: Record<string, number>;
  threads: Record<string, number>;
  total: number;
  peerCpu: number;
  rx: Received;
  drawMs: number;
}

async function measure(b: Bench, host: TestAgent, sid: string, rx: () => Promise<() => Promise<Received>>, t0: number): Promise<Window> {
  const startS = (performance.now() - t0) / 1000;
  const peerCpu = cpuStart(() => [readProc(b.peers.pid)].filter((p) => p !== null));
  const got = await rx();
  const a = snapshot(host);
  const at = performance.now();
  await sleep(WINDOW_MS);
  const z = snapshot(host);
  const seconds = (performance.now() - at) / 1000;
  const kinds = perName(a.procs, z.procs, (p) => p.kind, seconds);
  return {
    startS,
    kinds,
    threads: perName(a.threads, z.threads, (t) => t.name, seconds),
    total: Object.values(kinds).reduce((s, x) => s + x, 0),
    peerCpu: peerCpu(),
    rx: await got(),
    drawMs: (await engineState(host, sid)).drawMs ?? NaN,
  };
}

const phases = (): string[] => [...AT_S.map((s) => `static line, ${s} s`), 'reading on'];

/** The session's windows, each named by its phase. */
async function profile(b: Bench, host: TestAgent): Promise<Map<string, Window>> {
  const s = await storySession(b, host);
  const out = new Map<string, Window>();
  const names = phases();
  try {
    for (const [i, atS] of AT_S.entries()) {
      await sleep(s.click.t0 + atS * 1000 - performance.now());
      out.set(names[i], await measure(b, host, s.click.sid, s.received, s.click.t0));
    }
    await s.readingOn(true);
    await sleep(1000);
    out.set('reading on', await measure(b, host, s.click.sid, s.received, s.click.t0));
    await s.readingOn(false);
  } finally {
    await s.end();
  }
  for (const [name, w] of out) console.log(`  ${name}: from ${w.startS.toFixed(0)} s after the click, host total ${w.total.toFixed(1)}%`);
  return out;
}

/** Names over `MIN` in some window, largest first; the rest summed as `other`. */
function ranked(windows: Window[], pick: (w: Window) => Record<string, number>): { names: string[]; other: (w: Window) => number } {
  const all = [...new Set(windows.flatMap((w) => Object.keys(pick(w))))];
  const peak = (n: string) => Math.max(...windows.map((w) => pick(w)[n] ?? 0));
  const names = all.filter((n) => peak(n) >= MIN).sort((x, y) => peak(y) - peak(x));
  return { names, other: (w) => all.filter((n) => !names.includes(n)).reduce((s, n) => s + (pick(w)[n] ?? 0), 0) };
}

/** The rows over a set of windows, a column each (named by its key: a phase, or a configuration). */
function rows(windows: Map<string, Window>): Row[] {
  const ws = [...windows.values()];
  const out: Row[] = [];
  const row = (figure: string, f: (w: Window) => string) => out.push({ figure, values: Object.fromEntries([...windows].map(([col, w]) => [col, f(w)])) });
  const p1 = (x: number) => (Number.isFinite(x) ? `${x.toFixed(1)}%` : '–');
  row('host total (every process of its browsers)', (w) => p1(w.total));
  const kinds = ranked(ws, (w) => w.kinds);
  for (const k of kinds.names) row(`  process: ${k}`, (w) => p1(w.kinds[k] ?? 0));
  if (ws.some((w) => kinds.other(w) >= 0.05)) row('  process: other', (w) => p1(kinds.other(w)));
  row('renderer threads (every renderer)', (w) => p1(Object.values(w.threads).reduce((s, x) => s + x, 0)));
  const threads = ranked(ws, (w) => w.threads);
  for (const t of threads.names) row(`  thread: ${t}`, (w) => p1(w.threads[t] ?? 0));
  if (ws.some((w) => threads.other(w) >= 0.05)) row('  thread: other', (w) => p1(threads.other(w)));
  row('cheap peer (not the host)', (w) => pct(w.peerCpu));
  row('received fps / kbit/s', (w) => `${num(w.rx.fps, 1)} / ${num(w.rx.kbps)}`);
  row('engine draw ms per frame (mean)', (w) => num(w.drawMs, 2));
  return out;
}

async function main(): Promise<void> {
  const b = await setUp(`host CPU profile (window ${WINDOW_MS / 1000} s, static at ${AT_S.join(', ')} s)`, 'after', 4);
  // no warm runtime: nothing launches in the background while a window is taken
  const figs = await eachConfig(b, { HOST_WARM_POOL: '0', HOST_CAPACITY: '2' }, async (cfg, host) => {
    const windows = await profile(b, host);
    printTable(`[${cfg.name}] host CPU by process kind and renderer thread (% of one core)`, rows(windows), [...windows.keys()]);
    return windows;
  });
  if (b.configs.length > 1) {
    for (const phase of phases()) {
      const per = new Map([...figs].filter(([, w]) => w.has(phase)).map(([c, w]) => [c, w.get(phase)!]));
      printTables(`host CPU, ${phase} (% of one core)`, rows(per), b.configs.filter((c) => per.has(c.name)));
    }
  }
  await finish(0);
}

main().catch(async (e) => {
  console.error(e);
  await finish(1);
});
