/**
 * Game-host start figures: cold start (no warm runtime: launch Chromium + runtime page + game),
 * warm start (the api's POST /sessions → `ready`, from the warm pool), the player's first video
 * frame after joining, the background cost of warming a runtime, kill time, and memory per
 * runtime (PSS and RSS summed over its processes) warm and while streaming.
 * Prints figures; never fails on speed.
 *
 *   npx tsx bench/host-start.ts [--runs 3] [--game hajimari-no-eki]
 *
 * Uses the agent (server/host) against the test api peer (server/host/testing/fake-api.ts), a
 * private build of runtime/ and Debian Chromium (CHROMIUM_PATH).
 */
import fs from 'node:fs';
import os from 'node:os';
import type { Runtime } from '../server/host/runtime';
import { arg, pssMb, runtimeProcsOf } from './play-common';
import { buildTestRuntime, launchPlayer, sleep, startTestHost, until, type TestHost } from '../server/host/testing/harness';

const RUNS = Math.max(1, Number(arg('runs', '3')));

function memory(rt: Runtime): { pssMb: number; rssMb: number; procs: number } {
  const procs = runtimeProcsOf(rt);
  return { pssMb: pssMb(procs), rssMb: procs.reduce((s, p) => s + p.rss, 0) / 2 ** 20, procs: procs.length };
}

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
  const runtimeDir = await buildTestRuntime();
  const built = fs.readdirSync(`${runtimeDir}/games`).map((f) => f.replace(/\.json$/, ''));
  const game = arg('game', built.includes('hajimari-no-eki') ? 'hajimari-no-eki' : 'yumecast-fixture');
  console.log(`host start bench: game ${game}, ${RUNS} runs, ${os.cpus().length} cores, load ${os.loadavg()[0].toFixed(1)}, Chromium ${process.env.CHROMIUM_PATH || '/usr/bin/chromium'}`);

  // ---- cold: no warm pool; every session waits for a browser launch (no prewarm on that path)
  const cold: number[] = [];
  const coldHost = await startTestHost({ HOST_WARM_POOL: '0', HOST_CAPACITY: '1', HOST_JOIN_TIMEOUT_MS: '600000' });
  for (let i = 0; i < RUNS; i++) {
    const sid = `cold-${i}`;
    cold.push(await startedSession(coldHost, sid, game));
    await coldHost.request('DELETE', `/sessions/${sid}`);
  }
  await coldHost.stop();

  // ---- warm: the default pool (1 warm of 2)
  const warm: number[] = [];
  const engineStart: number[] = [];
  const bridgeBegin: number[] = [];
  const firstFrame: number[] = [];
  const warmLaunch: number[] = [];
  const kill: number[] = [];
  const memWarm: { pssMb: number; rssMb: number; procs: number }[] = [];
  const memPlaying: { pssMb: number; rssMb: number; procs: number }[] = [];
  const h = await startTestHost({ HOST_WARM_POOL: '1', HOST_CAPACITY: '2', HOST_JOIN_TIMEOUT_MS: '600000' });
  const player = await launchPlayer(h.api);
  for (let i = 0; i < RUNS; i++) {
    await h.agent.pool.whenWarm(1, 120_000);
    await sleep(1500); // let the new browser settle (a real host is idle between sessions)
    const rt = h.agent.pool.runtimes().find((r) => r.state === 'warm')!;
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
    memPlaying.push(memory(s.runtime!));
    const k0 = performance.now();
    await h.request('DELETE', `/sessions/${sid}`);
    await until(() => h.agent.sessions.activeCount === 0, 'ended', 30_000, 5);
    kill.push(performance.now() - k0);
  }
  await player.close();
  await h.stop();
  const loadAfter = os.loadavg()[0].toFixed(1);

  console.log('');
  console.log(`(load average at the end: ${loadAfter})`);
  console.log(`cold start (POST /sessions → ready, no warm runtime):  ${fmt(cold)}`);
  console.log(`warm start (POST /sessions → ready, warm pool):        ${fmt(warm)}`);
  console.log(`  of which the bridge's begin (start, capture, publish, signalling open): ${fmt(bridgeBegin)}`);
  console.log(`  of which the engine's game start (yumecast.start):   ${fmt(engineStart)}`);
  console.log(`player join → first decoded video frame:               ${fmt(firstFrame)}`);
  console.log(`warming one runtime (background: launch + prewarm):    ${fmt(warmLaunch)}`);
  console.log(`ending a session (save, bye, kill every process):      ${fmt(kill)}`);
  console.log(`memory per runtime, warm:      PSS ${fmt(memWarm.map((m) => m.pssMb), 'MB')}; RSS sum ${median(memWarm.map((m) => m.rssMb)).toFixed(0)} MB; ${memWarm[0]?.procs} processes`);
  console.log(`memory per runtime, streaming: PSS ${fmt(memPlaying.map((m) => m.pssMb), 'MB')}; RSS sum ${median(memPlaying.map((m) => m.rssMb)).toFixed(0)} MB; ${memPlaying[0]?.procs} processes`);
  process.exit(0);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
