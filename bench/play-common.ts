/**
 * Shared by the play benches (bench/play-latency.ts, bench/play-host-cost.ts, bench/host-start.ts,
 * bench/host-cpu-profile.ts, bench/play-sender.ts): arguments, cleanup and a time bound, small
 * statistics, CPU (per process and per thread) and memory from /proc, and the
 * game's screens as a player reaches them. The stack they run on is bench/play-stack.ts. Not a
 * bench by itself.
 *
 * The host's processes: every process naming the agent's private HOST_TMP_DIR (each browser's
 * user-data-dir lives there) and their process groups, whatever the runtime model (a browser per
 * session or shared ones). Memory per session: server/host/procs.ts sessionFootprint (its own
 * renderers + its share of its browser's shared processes).
 */
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import { runtimeProcs, listProcs, sessionFootprint, type ProcInfo } from '../server/host/procs';
import { CHROMIUM_PATH } from '../server/shared/chromium';
import type { Runtime } from '../server/host/runtime';
import { FIXTURE_GAME, buildTestRuntime, sleep, until, type TestAgent } from '../server/host/testing/harness';
import type { ProbedPlayer } from '../server/host/testing/player-probe';
import type { EngineState } from '../runtime/src/types';
import { LightHostRuntime } from '../server/host/light/light-runtime';
import type { SessionRuntime } from '../server/host/session-runtime';
import { pageOf } from '../server/host/testing/page-runtime';

// ---------------------------------------------------------------------------------------------
// arguments, cleanup, a time bound

const argv = process.argv.slice(2);
export const arg = (name: string, def: string): string => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] ? argv[i + 1] : def;
};
export const flag = (name: string): boolean => argv.includes(`--${name}`);

const cleanups: (() => Promise<unknown>)[] = [];
/** Registers a cleanup, run (newest first) by `finish()` and by the time bound. */
export function onCleanup(fn: () => Promise<unknown>): void {
  cleanups.push(fn);
}

async function runCleanups(): Promise<void> {
  while (cleanups.length) {
    const fn = cleanups.pop()!;
    await Promise.race([fn().catch((e) => console.error('cleanup:', e instanceof Error ? e.message : e)), sleep(15_000)]);
  }
}

/** A function that runs once (later calls get the first call's promise). */
export function once<T>(fn: () => Promise<T>): () => Promise<T> {
  let p: Promise<T> | null = null;
  return () => (p ??= fn());
}

/** Cleans up and exits. */
export async function finish(code: number): Promise<never> {
  await runCleanups();
  process.exit(code);
}

/** Every bench is bounded: after `ms`, clean up and exit 2. Ctrl-C cleans up too. */
export function bound(ms: number): void {
  setTimeout(() => {
    console.error(`bench: over ${Math.round(ms / 1000)} s, stopping`);
    void finish(2);
  }, ms).unref();
  process.once('SIGINT', () => void finish(130));
  process.once('SIGTERM', () => void finish(143));
}

// ---------------------------------------------------------------------------------------------
// statistics

export const median = (xs: number[]): number => quantile(xs, 0.5);
export function quantile(xs: number[], q: number): number {
  const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (!s.length) return NaN;
  // nearest rank
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))];
}
export const fmtList = (xs: number[], digits = 0) => xs.map((x) => x.toFixed(digits)).join(', ');
export const fmt = (xs: number[], unit = 'ms', digits = 0) => `median ${median(xs).toFixed(digits)} ${unit}  (${fmtList(xs, digits)})`;

export function machine(): string {
  const cpu = os.cpus()[0]?.model?.replace(/\s+/g, ' ').trim() ?? '?';
  // the clock too: the same model name has come at different speeds on different boots of this VM
  const mhz = os.cpus()[0]?.speed;
  return `${os.cpus().length} cores (${cpu}${mhz ? `, ${mhz} MHz` : ''}), ${(os.totalmem() / 2 ** 30).toFixed(0)} GB, load ${os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join('/')}, node ${process.version}, Chromium ${CHROMIUM_PATH}`;
}

function cpuJiffies(): { busy: number; total: number; steal: number } {
  const f = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const idle = (f[3] ?? 0) + (f[4] ?? 0); // idle + iowait
  const total = f.slice(0, 8).reduce((a, b) => a + b, 0);
  return { busy: total - idle, total, steal: f[7] ?? 0 };
}

/**
 * Steal time over a window the caller ends, % of all cores: the time this virtual machine's
 * cores were runnable but given to another guest (its hypervisor's neighbours). A shared VM's
 * figures move with it: on 2026-11-27 one boot of this machine lost 12.5 % of its cores so and held
 * half the reading sessions another boot did (docs/performance.md, fourteenth round).
 */
export function stealStart(): () => number {
  const a = cpuJiffies();
  return () => {
    const b = cpuJiffies();
    return b.total > a.total ? ((b.steal - a.steal) / (b.total - a.total)) * 100 : NaN;
  };
}

/** How busy the whole machine is over `ms` (before the bench starts: other people's load), in % of all cores. */
export async function machineBusy(ms = 3000): Promise<number> {
  const a = cpuJiffies();
  await sleep(ms);
  const b = cpuJiffies();
  return b.total > a.total ? ((b.busy - a.busy) / (b.total - a.total)) * 100 : NaN;
}

/** Other Chromium processes on the machine (another test run, a dev stack): load to report. */
export function otherChromium(exclude: (p: ProcInfo) => boolean): number {
  return listProcs().filter((p) => p.state !== 'Z' && /(^|\/)(chromium|chrome)( |$)/.test(p.cmdline) && !exclude(p)).length;
}

// ---------------------------------------------------------------------------------------------
// CPU and memory from /proc

let clkTck = 100;
try {
  clkTck = Number(execSync('getconf CLK_TCK', { encoding: 'utf8' }).trim()) || 100;
} catch {
  /* Linux default */
}

/** A /proc stat file's command name (comm) and utime + stime in seconds (null when gone). */
function readStat(file: string): { name: string; cpu: number } | null {
  try {
    const stat = fs.readFileSync(file, 'utf8');
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { name: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')), cpu: (Number(rest[11]) + Number(rest[12])) / clkTck };
  } catch {
    return null;
  }
}

/** utime + stime of a process, in seconds (null when gone). */
export function cpuSeconds(pid: number): number | null {
  return readStat(`/proc/${pid}/stat`)?.cpu ?? null;
}

/** Each thread of a process: its id, its name (comm, 15 characters at most) and utime + stime in seconds. */
export function threadsCpu(pid: number): { tid: number; name: string; cpu: number }[] {
  let tids: string[];
  try {
    tids = fs.readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  return tids.flatMap((t) => {
    const s = readStat(`/proc/${pid}/task/${t}/stat`);
    return s ? [{ tid: Number(t), ...s }] : [];
  });
}

/**
 * CPU used by a changing set of processes over `ms`, in % of one core: for each process alive
 * at the end, its CPU time at the end minus at the start (0 if it started in the window).
 * Processes that exit inside the window are not counted (none do in a steady state).
 */
export async function cpuPercent(procs: () => ProcInfo[], ms: number): Promise<number> {
  const stop = cpuStart(procs);
  await sleep(ms);
  return stop();
}

/** The same over a window the caller ends: returns a function that ends it and gives the %. */
export function cpuStart(procs: () => ProcInfo[]): () => number {
  const before = new Map<number, number>();
  for (const p of procs()) before.set(p.pid, cpuSeconds(p.pid) ?? 0);
  const t0 = performance.now();
  return () => {
    const dt = (performance.now() - t0) / 1000;
    let used = 0;
    for (const p of procs()) {
      const now = cpuSeconds(p.pid);
      if (now === null) continue;
      used += now - (before.get(p.pid) ?? 0);
    }
    return (used / dt) * 100;
  };
}

/** Sum of PSS (smaps_rollup) of the processes, in MB. */
export function pssMb(procs: ProcInfo[]): number {
  let kb = 0;
  for (const p of procs) {
    try {
      const m = /^Pss:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${p.pid}/smaps_rollup`, 'utf8'));
      if (m) kb += Number(m[1]);
    } catch {
      /* gone */
    }
  }
  return kb / 1024;
}

export const runtimeProcsOf = (rt: Runtime): ProcInfo[] => runtimeProcs(rt.userDataDir, rt.pgid, listProcs());

/**
 * Every process of a host's browsers (whatever the runtime model): those naming its private
 * HOST_TMP_DIR, and the members of their process groups.
 */
export function hostProcs(host: TestAgent, all: ProcInfo[] = listProcs()): ProcInfo[] {
  const alive = all.filter((p) => p.state !== 'Z' && p.state !== 'X');
  const named = alive.filter((p) => p.cmdline.includes(host.tmpDir));
  const groups = new Set(named.map((p) => p.pgid));
  return alive.filter((p) => p.cmdline.includes(host.tmpDir) || groups.has(p.pgid));
}

/**
 * Memory of one session's runtime in MB: its own processes plus its share of the processes it
 * shares with other sessions (server/host/procs.ts sessionFootprint); the whole runtime's PSS for
 * a runtime without processShare.
 */
export function sessionPssMb(rt: SessionRuntime, all: ProcInfo[] = listProcs()): number {
  return sessionFootprint(rt, all).pss / 2 ** 20;
}

/** Mean memory per live session of a host, MB (each session's footprint, averaged). */
export function pssPerSessionMb(host: TestAgent): number {
  const all = listProcs();
  const rts = [...host.agent.pool.runtimes()].filter((rt) => rt.state !== 'dead');
  const live = rts.filter((rt) => host.agent.sessions.ids().some((id) => host.agent.sessions.get(id)?.runtime === rt));
  const used = live.length ? live : rts;
  return used.length ? used.reduce((a, rt) => a + sessionPssMb(rt, all), 0) / used.length : NaN;
}

// ---------------------------------------------------------------------------------------------
// the game

/** The engine's whole state in a session of either runtime kind. */
export function engineState(host: TestAgent, sid: string): Promise<EngineState> {
  const rt = host.agent.sessions.get(sid)!.runtime;
  if (rt instanceof LightHostRuntime) return rt.fullState();
  return pageOf(rt).livePage.evaluate('window.yumecast.getState()') as Promise<EngineState>;
}

export async function sendKey(player: ProbedPlayer, key: string): Promise<void> {
  await player.page.evaluate(
    `(() => { window.player.send({ v: 1, type: 'key', kind: 'down', key: ${JSON.stringify(key)} }); window.player.send({ v: 1, type: 'key', kind: 'up', key: ${JSON.stringify(key)} }); })()`,
  );
}

/** Presses a key as a player: a probed player's page, or any function (a cheap peer's). */
export type Press = ProbedPlayer | ((key: string) => Promise<unknown>);
const press = (p: Press, key: string) => (typeof p === 'function' ? p(key) : sendKey(p, key));

/** From the title screen into the story, until the first line has finished typing. */
export async function intoStory(host: TestAgent, sid: string, player: Press): Promise<EngineState> {
  await until(async () => (await engineState(host, sid)).screen === 'title', 'title screen', 30_000, 50);
  return until(
    async () => {
      const s = await engineState(host, sid);
      if (s.screen !== 'story') await press(player, 'Enter');
      return s.screen === 'story' && !s.typing && s.text.length > 0 ? s : null;
    },
    'story line typed',
    30_000,
    250,
  );
}

/** Into the fixture title's falling petals (story line 3: `# effect: sakura`), its line typed. */
export async function intoPetals(host: TestAgent, sid: string, player: Press): Promise<void> {
  await intoStory(host, sid, player);
  await until(
    async () => {
      const s = await engineState(host, sid);
      if (s.effects.includes('sakura') && !s.typing) return true;
      if (!s.typing) await press(player, 'Enter');
      return false;
    },
    'the petals',
    30_000,
    300,
  );
}

/** Waits until the player's video has frames at full size (the encoder's start ramp is over). */
export async function fullVideo(player: ProbedPlayer, ms = 30_000): Promise<void> {
  await until(
    async () => {
      const v = (await player.page.evaluate('window.player.video()')) as { width: number; frames: number };
      return v.width === 1280 && v.frames > 0;
    },
    'full-size video',
    ms,
    50,
  );
}

/**
 * Builds the runtime (and its titles) for a bench and picks the title it plays: --game, else
 * hajimari-no-eki when it was built, else the fixture.
 */
export async function benchRuntime(): Promise<{ runtimeDir: string; game: string }> {
  const runtimeDir = await buildTestRuntime();
  const built = fs.readdirSync(`${runtimeDir}/games`).map((f) => f.replace(/\.json$/, ''));
  return { runtimeDir, game: arg('game', built.includes('hajimari-no-eki') ? 'hajimari-no-eki' : FIXTURE_GAME) };
}

export { FIXTURE_GAME };
