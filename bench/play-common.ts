/**
 * Shared by bench/play-latency.ts and bench/play-host-cost.ts: the stack a play runs on (the
 * real api, or the host's fake api peer), the player's "click", CPU and memory from /proc, and
 * small statistics. Not a bench by itself.
 *
 * The stack: with DATABASE_URL and FIREBASE_AUTH_EMULATOR_HOST set (run under
 * server/dev/with-services.ts), the real api (buildApp on PostgreSQL + the Auth emulator, a
 * fresh schema, dropped at the end; its titles: games/ plus the engine's fixture game, linked
 * into a private folder) and a click is what the play page does: GET
 * /v1/game/:id/start, poll status until `ready` (every 50 ms), get_token, join. Otherwise (or
 * with --fake) the fake api peer of server/host/testing, and a click is the api's POST
 * /sessions to the host, `ready` reported, join.
 */
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runtimeProcs, listProcs, type ProcInfo } from '../server/host/procs';
import { CHROMIUM_PATH } from '../server/shared/chromium';
import type { Runtime } from '../server/host/runtime';
import { FakeApi } from '../server/host/testing/fake-api';
import { FIXTURE_GAME, TEST_SECRET, sleep, startAgent, startSessionBody, until, type TestAgent } from '../server/host/testing/harness';
import type { ProbedPlayer } from '../server/host/testing/player-probe';
import type { EngineState } from '../runtime/src/types';

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
  return `${os.cpus().length} cores (${cpu}), ${(os.totalmem() / 2 ** 30).toFixed(0)} GB, load ${os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join('/')}, node ${process.version}, Chromium ${CHROMIUM_PATH}`;
}

function cpuJiffies(): { busy: number; total: number } {
  const f = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const idle = (f[3] ?? 0) + (f[4] ?? 0); // idle + iowait
  const total = f.slice(0, 8).reduce((a, b) => a + b, 0);
  return { busy: total - idle, total };
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

/** utime + stime of a process, in seconds (null when gone). */
export function cpuSeconds(pid: number): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(rest[11]) + Number(rest[12])) / clkTck;
  } catch {
    return null;
  }
}

/**
 * CPU used by a changing set of processes over `ms`, in % of one core: for each process alive
 * at the end, its CPU time at the end minus at the start (0 if it started in the window).
 * Processes that exit inside the window are not counted (none do in a steady state).
 */
export async function cpuPercent(procs: () => ProcInfo[], ms: number): Promise<number> {
  const before = new Map<number, number>();
  for (const p of procs()) before.set(p.pid, cpuSeconds(p.pid) ?? 0);
  const t0 = performance.now();
  await sleep(ms);
  const dt = (performance.now() - t0) / 1000;
  let used = 0;
  for (const p of procs()) {
    const now = cpuSeconds(p.pid);
    if (now === null) continue;
    used += now - (before.get(p.pid) ?? 0);
  }
  return (used / dt) * 100;
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

// ---------------------------------------------------------------------------------------------
// the stack

export interface Click {
  sid: string;
  /** performance.now() when the start request left (the user's click). */
  t0: number;
  /** performance.now() when the player knew the session was ready (and had its token). */
  readyAt: number;
  join(player: ProbedPlayer): Promise<void>;
  /** Ends the session (force_close / DELETE) and waits until its runtime is gone. */
  end(): Promise<void>;
}

export interface PlayStack {
  mode: 'api' | 'fake';
  /** Serves the test player page (/player.html). */
  pages: FakeApi;
  /** A host agent (in this process) reporting to the stack's api. */
  startHost(env: Record<string, string>): Promise<TestAgent>;
  /** The player's click on play: start → ready (→ token). */
  click(host: TestAgent, gameId: string): Promise<Click>;
  close(): Promise<void>;
}

const HOST_ENV = {
  // a bench session gets no input for minutes: never idle-close it
  HOST_IDLE_WARNING_MS: '3600000',
  HOST_JOIN_TIMEOUT_MS: '600000',
  HOST_RECONNECT_GRACE_MS: '600000',
  HOST_HEARTBEAT_MS: '1000',
};

export async function startPlayStack(): Promise<PlayStack> {
  const real = !flag('fake') && !!process.env.DATABASE_URL && !!process.env.FIREBASE_AUTH_EMULATOR_HOST;
  return real ? startApiStack() : startFakeStack();
}

/** The agent, with a stop() that runs once (a bench stops it, and its cleanup may again). */
function onceStop(a: TestAgent): TestAgent {
  const stop = once(() => a.stop());
  return { ...a, stop };
}

async function endAndWait(host: TestAgent, sid: string, stop: () => Promise<unknown>): Promise<void> {
  await stop();
  await until(() => !host.agent.sessions.get(sid) || host.agent.sessions.get(sid)!.runtime?.state === 'dead' || host.agent.sessions.activeCount === 0, `session ${sid} ended`, 30_000, 20);
  await until(() => !host.agent.sessions.get(sid)?.runtime || host.agent.sessions.get(sid)!.runtime!.state === 'dead', `runtime of ${sid} killed`, 30_000, 20);
}

async function startFakeStack(): Promise<PlayStack> {
  const api = await new FakeApi({ secret: TEST_SECRET }).listen();
  let n = 0;
  return {
    mode: 'fake',
    pages: api,
    startHost: async (env) => onceStop(await startAgent(api.url, TEST_SECRET, { ...HOST_ENV, ...env })),
    async click(host, gameId) {
      const sid = `bench-${process.pid}-${++n}`;
      const t0 = performance.now();
      const r = await host.request('POST', '/sessions', startSessionBody(api, sid, { gameId, uid: `uid-${n}` }));
      if (r.status !== 202) throw new Error(`start answered ${r.status} ${JSON.stringify(r.json)}`);
      await until(() => api.states(sid).some((s) => s === 'ready' || s.startsWith('failed') || s.startsWith('closed')), `${sid} ready`, 90_000, 5);
      if (!api.states(sid).includes('ready')) throw new Error(`${sid}: ${api.states(sid).join(' → ')}`);
      const readyAt = performance.now();
      return {
        sid,
        t0,
        readyAt,
        join: (p) => p.join(sid),
        end: () => endAndWait(host, sid, () => host.request('DELETE', `/sessions/${sid}?reason=user`)),
      };
    },
    close: () => api.close(),
  };
}

/**
 * The engine's fixture game as a catalogue title: its files linked, and its meta.json completed
 * with the fields the api's seed requires (a listed brand, genres, a release date, key art);
 * the fixture's own meta.json stays as small as the engine needs.
 */
function linkFixtureTitle(from: string, to: string): void {
  fs.mkdirSync(to);
  for (const entry of fs.readdirSync(from)) {
    if (entry !== 'meta.json') fs.symlinkSync(path.join(from, entry), path.join(to, entry));
  }
  const meta = JSON.parse(fs.readFileSync(path.join(from, 'meta.json'), 'utf8')) as Record<string, unknown>;
  const completed = {
    ...meta,
    brand: '夕凪ソフト',
    brandReading: 'ゆうなぎそふと',
    genres: ['テスト'],
    releaseDate: '2026-01-01',
    keyArt: '/games/hajimari-no-eki/keyart.png',
  };
  fs.writeFileSync(path.join(to, 'meta.json'), JSON.stringify(completed, null, 2));
}

async function startApiStack(): Promise<PlayStack> {
  const { startSessionApp, TEST_HOST_SECRET, TestUsers, request } = await import('../server/api/testing/sessions');
  const { createTestSchema } = await import('../server/api/testing/test-app');
  const { FIXTURES_DIR, GAMES_DIR } = await import('../runtime/build');
  // the api's titles: games/ plus the engine's fixture game (links in a private folder)
  const gamesDir = fs.mkdtempSync(path.join(os.tmpdir(), 'yumecast-bench-games-'));
  for (const name of fs.readdirSync(GAMES_DIR)) {
    if (fs.existsSync(path.join(GAMES_DIR, name, 'meta.json'))) fs.symlinkSync(path.join(GAMES_DIR, name), path.join(gamesDir, name));
  }
  for (const name of fs.readdirSync(FIXTURES_DIR)) {
    if (fs.existsSync(path.join(FIXTURES_DIR, name, 'meta.json'))) linkFixtureTitle(path.join(FIXTURES_DIR, name), path.join(gamesDir, name));
  }
  const schema = await createTestSchema('bench');
  const api = await startSessionApp(schema.name, { hostHeartbeatTimeoutMs: 30_000, idleWarningMs: 3_600_000, idleCloseMs: 3_700_000, gamesDir });
  const pages = await new FakeApi({ secret: 'unused' }).listen();
  const users = new TestUsers();
  const get = (url: string, token: string) => request(api.base, 'GET', url, { token });
  return {
    mode: 'api',
    pages,
    startHost: async (env) => onceStop(await startAgent(api.base, TEST_HOST_SECRET, { ...HOST_ENV, ...env })),
    async click(host, gameId) {
      // the user exists before the click
      const user = await users.email();
      await until(() => host.agent.registry?.registered, 'host registered', 30_000);
      const t0 = performance.now();
      const started = await get(`/v1/game/${gameId}/start`, user.idToken);
      if (started.status !== 200) throw new Error(`start answered ${started.status} ${JSON.stringify(started.body)}`);
      const sid = started.body.game_session_id as string;
      const status = await until(
        async () => {
          const s = await get(`/v1/session/${sid}/status`, user.idToken);
          return ['ready', 'playing', 'failed', 'closed'].includes(s.body.session_state) ? s.body : null;
        },
        `${sid} ready`,
        90_000,
        50,
      );
      if (status.session_state !== 'ready') throw new Error(`${sid}: ${JSON.stringify(status)}`);
      const token = await get(`/v1/session/${sid}/get_token`, user.idToken);
      if (token.status !== 200) throw new Error(`get_token answered ${token.status}`);
      const readyAt = performance.now();
      return {
        sid,
        t0,
        readyAt,
        join: (p) => p.joinWith(token.body.webrtc_signal_url, token.body.webrtc_signal_token),
        end: () => endAndWait(host, sid, () => get(`/v1/session/${sid}/force_close`, user.idToken)),
      };
    },
    async close() {
      await pages.close();
      await api.close();
      await users.cleanup();
      await schema.drop();
      fs.rmSync(gamesDir, { recursive: true, force: true });
    },
  };
}

// ---------------------------------------------------------------------------------------------
// the game

export const engineState = (host: TestAgent, sid: string): Promise<EngineState> =>
  host.agent.sessions.get(sid)!.runtime!.livePage.evaluate('window.yumecast.getState()') as Promise<EngineState>;

export async function sendKey(player: ProbedPlayer, key: string): Promise<void> {
  await player.page.evaluate(
    `(() => { window.player.send({ v: 1, type: 'key', kind: 'down', key: ${JSON.stringify(key)} }); window.player.send({ v: 1, type: 'key', kind: 'up', key: ${JSON.stringify(key)} }); })()`,
  );
}

/** From the title screen into the story, until the first line has finished typing. */
export async function intoStory(host: TestAgent, sid: string, player: ProbedPlayer): Promise<EngineState> {
  await until(async () => (await engineState(host, sid)).screen === 'title', 'title screen', 30_000, 50);
  return until(
    async () => {
      const s = await engineState(host, sid);
      if (s.screen !== 'story') await sendKey(player, 'Enter');
      return s.screen === 'story' && !s.typing && s.text.length > 0 ? s : null;
    },
    'story line typed',
    30_000,
    250,
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

export { FIXTURE_GAME };
