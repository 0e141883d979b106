/**
 * What a session costs the game host, and how many one machine holds:
 *   1. per session, over a 10 s window each: host CPU (% of one core: utime + stime from
 *      /proc/<pid>/stat of every process of the session's runtime, summed) and memory (PSS summed
 *      over those processes), with the fps the player receives, on
 *        - a static story line (the engine draws 12 fps while it waits for a click),
 *        - a weather effect (the fixture game's falling petals: 30 fps),
 *        - reading on (Enter every 250 ms: text typing out, scene transitions, new sprites);
 *   2. concurrent sessions at ≥ 25 fps received: sessions are added one by one (each with its own
 *      player page, all on the moving fixture title: the worst case, 30 fps drawn), until the
 *      received fps of any session drops below 25 or --max (6) sessions run.
 * Prints figures; never fails on speed; stops itself after 12 minutes.
 *
 *   npx tsx bench/play-host-cost.ts [--max 6] [--window 10] [--fake]
 *   npx tsx server/dev/with-services.ts -- npx tsx bench/play-host-cost.ts   # through the real api
 *
 * The players run on the same machine (in one Chromium, a page each): their CPU is reported
 * apart, and it takes cores the host would have on a real deployment. Loopback only.
 */
import fs from 'node:fs';
import os from 'node:os';
import { buildTestRuntime, sleep, until, type TestAgent } from '../server/host/testing/harness';
import { launchPlayerBrowser, sampleVideo, type ProbedPlayer } from '../server/host/testing/player-probe';
import {
  FIXTURE_GAME,
  arg,
  bound,
  cpuPercent,
  engineState,
  finish,
  fullVideo,
  intoStory,
  machine,
  machineBusy,
  median,
  onCleanup,
  otherChromium,
  pssMb,
  runtimeProcsOf,
  sendKey,
  startPlayStack,
  type Click,
} from './play-common';
import { listProcs, runtimeProcs } from '../server/host/procs';

const MAX = Math.max(1, Number(arg('max', '6')));
const WINDOW_MS = Math.max(2, Number(arg('window', '10'))) * 1000;
const MIN_FPS = 25;

interface Cost {
  scene: string;
  cpu: number;
  pss: number;
  procs: number;
  fps: number;
  decodedFps: number;
  res: string;
  playerCpu: number;
}

async function main(): Promise<void> {
  bound(12 * 60_000);
  const runtimeDir = await buildTestRuntime();
  const built = fs.readdirSync(`${runtimeDir}/games`).map((f) => f.replace(/\.json$/, ''));
  const game = built.includes('hajimari-no-eki') ? 'hajimari-no-eki' : FIXTURE_GAME;
  const stack = await startPlayStack();
  onCleanup(() => stack.close());
  const players = await launchPlayerBrowser(stack.pages);
  onCleanup(() => players.close());
  console.log(`host cost bench: ${new Date().toISOString()}, api: ${stack.mode === 'api' ? 'real' : 'fake api peer'}, window ${WINDOW_MS / 1000} s`);
  console.log(
    `machine: ${machine()}; ${otherChromium((p) => p.cmdline.includes(players.dir))} other Chromium processes running; CPU busy before the run (3 s): ${(await machineBusy()).toFixed(0)}% of all cores`,
  );

  // ---- 1. one session at a time (no warm runtime: nothing warms in the background)
  const costs: Cost[] = [];
  const host = await stack.startHost({ HOST_WARM_POOL: '0', HOST_CAPACITY: String(MAX) });
  onCleanup(() => host.stop());
  const measure = async (scene: string, h: TestAgent, c: Click, p: ProbedPlayer, during?: () => Promise<void>) => {
    const rt = h.agent.sessions.get(c.sid)!.runtime!;
    let stop = false;
    const driver = during
      ? (async () => {
          while (!stop) await during();
        })()
      : Promise.resolve();
    const [cpu, playerCpu, video] = await Promise.all([cpuPercent(() => runtimeProcsOf(rt), WINDOW_MS), cpuPercent(players.procs, WINDOW_MS), sampleVideo(p.page, WINDOW_MS)]);
    const procs = runtimeProcsOf(rt);
    const pss = pssMb(procs);
    stop = true;
    await driver;
    costs.push({ scene, cpu, pss, procs: procs.length, fps: video.fpsMedian, decodedFps: video.decodedFps, res: `${video.width}x${video.height}`, playerCpu });
  };

  {
    // static line, then reading on (Enter every 250 ms; a digit picks a choice when one shows)
    await sleep(1000);
    const p = await players.newPlayer();
    const c = await stack.click(host, game);
    await c.join(p);
    await fullVideo(p);
    await intoStory(host, c.sid, p);
    await sleep(2000);
    await measure(`static line (${game})`, host, c, p);
    await measure(`reading on: Enter every 250 ms (${game})`, host, c, p, async () => {
      await sendKey(p, 'Enter');
      await sendKey(p, '1');
      await sleep(250);
    });
    await c.end();
    await p.close();
  }
  {
    // the fixture's falling petals (story line 3: `# effect: sakura`)
    await sleep(1000);
    const p = await players.newPlayer();
    const c = await stack.click(host, FIXTURE_GAME);
    await c.join(p);
    await fullVideo(p);
    await intoStory(host, c.sid, p);
    await until(
      async () => {
        const s = await engineState(host, c.sid);
        if (s.effects.includes('sakura') && !s.typing) return true;
        if (!s.typing) await sendKey(p, 'Enter');
        return false;
      },
      'the petals',
      30_000,
      300,
    );
    await sleep(2000);
    await measure('weather effect: petals (fixture)', host, c, p);
    await c.end();
    await p.close();
  }

  // ---- 2. concurrent sessions on the moving fixture title
  const rows: { n: number; fps: number[]; decoded: number[]; res: string[]; hostCpu: number; playerCpu: number; pss: number; load: number }[] = [];
  const live: { c: Click; p: ProbedPlayer }[] = [];
  onCleanup(async () => {
    for (const s of live) await s.c.end().catch(() => undefined);
  });
  const hostProcs = () => {
    const all = listProcs();
    return host.agent.pool.runtimes().flatMap((rt) => runtimeProcs(rt.userDataDir, rt.pgid, all));
  };
  for (let n = 1; n <= MAX; n++) {
    const p = await players.newPlayer();
    const c = await stack.click(host, FIXTURE_GAME);
    await c.join(p);
    live.push({ c, p });
    await fullVideo(p, 60_000);
    await sleep(4000);
    const [hostCpu, playerCpu, videos] = await Promise.all([
      cpuPercent(hostProcs, WINDOW_MS),
      cpuPercent(players.procs, WINDOW_MS),
      Promise.all(live.map((s) => sampleVideo(s.p.page, WINDOW_MS))),
    ]);
    const row = {
      n,
      fps: videos.map((v) => v.fpsMedian),
      decoded: videos.map((v) => v.decodedFps),
      res: [...new Set(videos.map((v) => `${v.width}x${v.height}`))],
      hostCpu,
      playerCpu,
      pss: pssMb(hostProcs()) / n,
      load: os.loadavg()[0],
    };
    rows.push(row);
    console.log(`  … ${n} session(s): fps ${row.fps.map((x) => x.toFixed(0)).join('/')}, host CPU ${hostCpu.toFixed(0)}%, players ${playerCpu.toFixed(0)}%`);
    if (Math.min(...row.fps) < MIN_FPS) break;
  }
  for (const s of live.splice(0)) {
    await s.c.end();
    await s.p.close();
  }

  console.log('');
  console.log(`per session (one at a time; CPU in % of one core over ${WINDOW_MS / 1000} s; PSS summed over the runtime's processes):`);
  console.log(`  ${'scene'.padEnd(48)} ${'host CPU'.padStart(8)} ${'PSS MB'.padStart(7)} ${'procs'.padStart(5)} ${'fps rx'.padStart(6)} ${'decoded'.padStart(7)} ${'resolution'.padStart(10)} ${'player CPU'.padStart(10)}`);
  for (const r of costs) {
    console.log(
      `  ${r.scene.padEnd(48)} ${`${r.cpu.toFixed(0)}%`.padStart(8)} ${r.pss.toFixed(0).padStart(7)} ${String(r.procs).padStart(5)} ${r.fps.toFixed(0).padStart(6)} ${r.decodedFps.toFixed(1).padStart(7)} ${r.res.padStart(10)} ${`${r.playerCpu.toFixed(0)}%`.padStart(10)}`,
    );
  }
  console.log('');
  console.log(`concurrent sessions on one machine (moving fixture title, quality high; stop below ${MIN_FPS} fps received or at ${MAX}):`);
  console.log(`  ${'sessions'.padEnd(8)} ${'fps rx per session (median of 1 s readings)'.padEnd(44)} ${'min'.padStart(4)} ${'host CPU'.padStart(8)} ${'PSS/session'.padStart(11)} ${'players CPU'.padStart(11)} ${'load'.padStart(5)}  resolution`);
  for (const r of rows) {
    console.log(
      `  ${String(r.n).padEnd(8)} ${r.fps.map((x) => x.toFixed(0)).join(' / ').padEnd(44)} ${Math.min(...r.fps).toFixed(0).padStart(4)} ${`${r.hostCpu.toFixed(0)}%`.padStart(8)} ${`${r.pss.toFixed(0)} MB`.padStart(11)} ${`${r.playerCpu.toFixed(0)}%`.padStart(11)} ${r.load.toFixed(1).padStart(5)}  ${r.res.join(', ')}`,
    );
  }
  const holding = rows.filter((r) => Math.min(...r.fps) >= MIN_FPS).map((r) => r.n);
  console.log(`sessions held at ≥ ${MIN_FPS} fps: ${holding.length ? Math.max(...holding) : 0}${holding.length === MAX && rows.length === MAX ? ` (the cap; --max to go further)` : ''}`);
  console.log(`(decoded fps per session at the last step: ${rows.at(-1)?.decoded.map((x) => x.toFixed(1)).join(' / ')}; median of the medians: ${median(rows.at(-1)?.fps ?? []).toFixed(0)})`);
  await finish(0);
}

main().catch(async (e) => {
  console.error(e);
  await finish(1);
});
