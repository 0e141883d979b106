/**
 * Game-host start figures: cold start with no browser running (launch Chromium + runtime page +
 * game), cold start while another session runs (with shared browsers: a new context + page in
 * its browser), warm start (the api's POST /sessions → `ready`, from the warm pool), the player's
 * first video frame after joining, the background cost of warming a runtime, kill time, and
 * memory per session (procs.ts sessionFootprint: its renderers' PSS + its share of its browser's
 * other processes) warm, streaming, and with several sessions at once.
 * Prints figures; never fails on speed.
 *
 *   npx tsx bench/host-start.ts [--runs 3] [--game hajimari-no-eki] [--per-browser 5] [--sessions 4]
 *
 * --per-browser sets HOST_SESSIONS_PER_BROWSER (1 = a whole Chromium per session, the model before
 * issue 11; default: the host's default); --sessions is how many sessions run at once for the
 * last memory figure.
 *
 * Uses the agent (server/host) against the test api peer (server/host/testing/fake-api.ts), a
 * private build of runtime/ and Debian Chromium (CHROMIUM_PATH).
 */
import os from 'node:os';
import { sessionFootprint } from '../server/host/procs';
import type { Runtime } from '../server/host/runtime';
import { arg, benchRuntime } from './play-common';
import { launchPlayer, sleep, startTestHost, until, type TestHost } from '../server/host/testing/harness';
import { pageOf, pageRuntimes } from '../server/host/testing/page-runtime';

const RUNS = Math.max(1, Number(arg('runs', '3')));
const PER_BROWSER = arg('per-browser', '');
const SESSIONS = Math.max(1, Number(arg('sessions', '4')));
/** Every host of the bench gets the runtime model asked for, and room for launches on a loaded machine. */
const MODEL: Record<string, string> = { HOST_LAUNCH_TIMEOUT_MS: '120000', ...(PER_BROWSER ? { HOST_SESSIONS_PER_BROWSER: PER_BROWSER } : {}) };

interface Mem {
  pssMb: number;
  ownMb: number;
  sharedMb: number;
  sharers: number;
  procs: number;
}

function memory(rt: Runtime): Mem {
  const f = sessionFootprint(rt);
  return { pssMb: f.pss / 2 ** 20, ownMb: f.own.pss / 2 ** 20, sharedMb: f.shared.pss / 2 ** 20, sharers: f.shared.sharers, procs: f.procs };
}

const memLine = (ms: Mem[]) =>
  `PSS ${fmt(ms.map((m) => m.pssMb), 'MB')}; own ${median(ms.map((m) => m.ownMb)).toFixed(0)} MB + shared ${median(ms.map((m) => m.sharedMb)).toFixed(0)} MB / ${median(ms.map((m) => m.sharers))}; ${median(ms.map((m) => m.procs)).toFixed(1)} processes`;

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor((s.length - 1) / 2)] : NaN;
};
const fmt = (xs: number[], unit = 'ms', digits = 0) =>
  `median ${median(xs).toFixed(digits)} ${unit}  (${xs.map((x) => x.toFixed(digits)).join(', ')})`;

async function startedSession(h: TestHost, sid: string, game: string): Promise<number> {
  const t0 = performance.now();
  const r = await h.startSession(sid, { gameId: game });
  if (r.status !== 202) throw new Error(`start answered ${r.status} ${JSON.stringify(r.json)}`);
  await until(() => h.api.states(sid).includes('ready') || h.api.states(sid).some((s) => s.startsWith('failed')), 'ready', 60_000, 5);
  if (!h.api.states(sid).includes('ready')) throw new Error(`${sid}: ${h.api.states(sid).join(' → ')}`);
  return performance.now() - t0;
}

async function main(): Promise<void> {
  const { game } = await benchRuntime();
  const loadBefore = os.loadavg().map((x) => x.toFixed(1)).join('/');
  console.log(`host start bench: game ${game}, ${RUNS} runs, sessions per browser ${PER_BROWSER || 'default'}, ${os.cpus().length} cores, load ${loadBefore}, Chromium ${process.env.CHROMIUM_PATH || '/usr/bin/chromium'}`);

  // ---- cold: no warm pool; every session waits for a browser launch (no prewarm on that path)
  const cold: number[] = [];
  const coldHost = await startTestHost({ ...MODEL, HOST_WARM_POOL: '0', HOST_CAPACITY: '1', HOST_JOIN_TIMEOUT_MS: '600000' });
  for (let i = 0; i < RUNS; i++) {
    const sid = `cold-${i}`;
    cold.push(await startedSession(coldHost, sid, game));
    await coldHost.request('DELETE', `/sessions/${sid}`);
  }
  await coldHost.stop();

  // ---- cold while another session runs: its browser is up (no warm pool)
  const coldRunning: number[] = [];
  const crHost = await startTestHost({ ...MODEL, HOST_WARM_POOL: '0', HOST_CAPACITY: '2', HOST_JOIN_TIMEOUT_MS: '600000' });
  await startedSession(crHost, 'hold', game);
  for (let i = 0; i < RUNS; i++) {
    const sid = `cold-running-${i}`;
    coldRunning.push(await startedSession(crHost, sid, game));
    await crHost.request('DELETE', `/sessions/${sid}`);
    await until(() => crHost.agent.sessions.activeCount === 1, 'ended', 30_000, 5);
  }
  await crHost.stop();

  // ---- warm: the default pool (1 warm of 2)
  const warm: number[] = [];
  const engineStart: number[] = [];
  const bridgeBegin: number[] = [];
  const firstFrame: number[] = [];
  const warmLaunch: number[] = [];
  const kill: number[] = [];
  const memWarm: Mem[] = [];
  const memPlaying: Mem[] = [];
  const h = await startTestHost({ ...MODEL, HOST_WARM_POOL: '1', HOST_CAPACITY: '2', HOST_JOIN_TIMEOUT_MS: '600000' });
  const player = await launchPlayer(h.api);
  for (let i = 0; i < RUNS; i++) {
    await h.agent.pool.whenWarm(1, 120_000);
    await sleep(1500); // let the new browser settle (a real host is idle between sessions)
    const rt = pageRuntimes(h.agent.pool).find((r) => r.state === 'warm')!;
    warmLaunch.push(rt.launchMs);
    memWarm.push(memory(rt));
    const sid = `warm-${i}`;
    warm.push(await startedSession(h, sid, game));
    const s = h.agent.sessions.get(sid)!;
    engineStart.push(s.ready?.startMs ?? NaN);
    bridgeBegin.push(s.ready?.beginMs ?? NaN);
    // a fresh player page (and <video>) for every run
    await player.page.evaluate(() => window.player.leave());
    await player.page.reload();
    await player.page.waitForFunction(() => !!window.player);
    const t0 = performance.now();
    await player.join(sid);
    await until(async () => (await player.page.evaluate(() => window.player.video())).frames > 0, 'first frame', 30_000, 5);
    firstFrame.push(performance.now() - t0);
    await sleep(3000);
    memPlaying.push(memory(pageOf(s.runtime)));
    const k0 = performance.now();
    await h.request('DELETE', `/sessions/${sid}`);
    await until(() => h.agent.sessions.activeCount === 0, 'ended', 30_000, 5);
    kill.push(performance.now() - k0);
  }
  await player.close();
  await h.stop();

  // ---- several sessions at once (started, not joined): memory per session, browsers used
  const many = await startTestHost({ ...MODEL, HOST_WARM_POOL: '1', HOST_CAPACITY: String(SESSIONS + 1), HOST_JOIN_TIMEOUT_MS: '600000' });
  await many.agent.pool.whenWarm(1, 120_000);
  for (let i = 0; i < SESSIONS; i++) await startedSession(many, `many-${i}`, game);
  await many.agent.pool.whenWarm(1, 120_000);
  await sleep(3000);
  const rts = pageRuntimes(many.agent.pool);
  const memMany = rts.filter((r) => r.state === 'busy').map(memory);
  const memManyWarm = rts.filter((r) => r.state === 'warm').map(memory);
  const browsers = many.agent.pool.browsers().length;
  await many.stop();
  const loadAfter = os.loadavg().map((x) => x.toFixed(1)).join('/');

  console.log('');
  console.log(`cold start (POST /sessions → ready, no warm runtime, no browser): ${fmt(cold)}`);
  console.log(`cold start with another session running (its browser up): ${fmt(coldRunning)}`);
  console.log(`warm start (POST /sessions → ready, warm pool):        ${fmt(warm)}`);
  console.log(`  of which the bridge's begin (start, capture, publish, signalling open): ${fmt(bridgeBegin)}`);
  console.log(`  of which the engine's game start (yumecast.start):   ${fmt(engineStart)}`);
  console.log(`player join → first decoded video frame:               ${fmt(firstFrame)}`);
  console.log(`warming one runtime (background: launch + prewarm):    ${fmt(warmLaunch)}`);
  console.log(`ending a session (save, bye, kill every process):      ${fmt(kill)}`);
  console.log(`memory per session, warm (alone, or with the one busy before it): ${memLine(memWarm)}`);
  console.log(`memory per session, streaming (+ one warm runtime):             ${memLine(memPlaying)}`);
  console.log(`memory per session, ${SESSIONS} sessions started + 1 warm (${browsers} browsers): busy ${memLine(memMany)}; warm ${memLine(memManyWarm)}`);
  console.log(`(load average before / after: ${loadBefore} / ${loadAfter})`);
  process.exit(0);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
