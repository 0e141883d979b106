/**
 * Play latency as a player sees it, from the received video:
 *   1. click → first decoded frame, cold (no warm runtime: Chromium is launched for the session)
 *      and warm (from the warm pool);
 *   2. input-to-photon: a key whose effect is visible ('h' hides / shows the text window) sent on
 *      the data channel, until the received video shows it (requestVideoFrameCallback + pixel
 *      comparison of the text-window region), median and p95 over --samples (40) inputs;
 *   3. frames per second and resolution received (getStats inbound-rtp framesPerSecond,
 *      frameWidth × frameHeight) at quality high, medium and low, on a moving scene (the fixture
 *      title's falling petals: the engine draws 30 fps) and on a static line (12 fps by design).
 * Prints figures; never fails on speed; stops itself after 10 minutes.
 *
 *   npx tsx bench/play-latency.ts [--runs 3] [--samples 40] [--game hajimari-no-eki] [--fake]
 *   # with the real api (click = GET start → status → get_token → join):
 *   npx tsx server/dev/with-services.ts -- npx tsx bench/play-latency.ts
 *
 * The host publishes audio and video in streams of their own (lib/streaming/webrtc/publisher.ts), so
 * the receiver does not hold video back for lip sync; before that, sync cost ~70 ms (docs/performance.md).
 *
 * The real api is used when DATABASE_URL and FIREBASE_AUTH_EMULATOR_HOST are set (what
 * with-services gives), else the host's fake api peer (click = the api's POST /sessions to the
 * host). Everything is on loopback; the player is a test player page in its own Chromium.
 */
import fs from 'node:fs';
import { buildTestRuntime, sleep } from '../server/host/testing/harness';
import { firstFrame, inboundVideo, keyLatency, launchPlayerBrowser, sampleVideo, type ProbedPlayer } from '../server/host/testing/player-probe';
import { FIXTURE_GAME, arg, bound, finish, fmt, fmtList, fullVideo, intoStory, machine, machineBusy, median, onCleanup, otherChromium, quantile, sendKey, startPlayStack, type PlayStack } from './play-common';
import type { TestAgent } from '../server/host/testing/harness';

const RUNS = Math.max(1, Number(arg('runs', '3')));
const SAMPLES = Math.max(1, Number(arg('samples', '40')));
/** The text window (runtime/src/ui.ts TEXT_WINDOW: 40,484 1200×222 of 1280×720). */
const TEXT_WINDOW: [number, number, number, number] = [40 / 1280, 484 / 720, 1240 / 1280, 706 / 720];

interface StartFigures {
  readyMs: number;
  frameMs: number;
}

async function clickToFirstFrame(stack: PlayStack, host: TestAgent, player: ProbedPlayer, game: string): Promise<StartFigures & { end(): Promise<void> }> {
  const click = await stack.click(host, game);
  const frame = firstFrame(player.page, 30_000);
  await click.join(player);
  const at = await frame;
  if (at === null) throw new Error(`${click.sid}: no frame within 30 s`);
  const frameMs = performance.now() - click.t0;
  return { readyMs: click.readyAt - click.t0, frameMs, end: click.end };
}

async function main(): Promise<void> {
  bound(10 * 60_000);
  const runtimeDir = await buildTestRuntime();
  const built = fs.readdirSync(`${runtimeDir}/games`).map((f) => f.replace(/\.json$/, ''));
  const game = arg('game', built.includes('hajimari-no-eki') ? 'hajimari-no-eki' : FIXTURE_GAME);
  const stack = await startPlayStack();
  onCleanup(() => stack.close());
  const players = await launchPlayerBrowser(stack.pages);
  onCleanup(() => players.close());
  const others = otherChromium((p) => p.cmdline.includes(players.dir));
  console.log(
    `play latency bench: ${new Date().toISOString()}, api: ${stack.mode === 'api' ? 'real (buildApp, PostgreSQL, Auth emulator)' : 'fake api peer'}, game ${game}`,
  );
  console.log(`machine: ${machine()}; ${others} other Chromium processes running; CPU busy before the run (3 s): ${(await machineBusy()).toFixed(0)}% of all cores`);

  // ---- 1. click → first frame, cold (no warm pool: the session waits for a browser launch)
  const cold: StartFigures[] = [];
  {
    const host = await stack.startHost({ HOST_WARM_POOL: '0', HOST_CAPACITY: '1' });
    onCleanup(() => host.stop());
    for (let i = 0; i < RUNS; i++) {
      await sleep(1000);
      const p = await players.newPlayer();
      const r = await clickToFirstFrame(stack, host, p, game);
      cold.push(r);
      await r.end();
      await p.close();
    }
    await host.stop();
  }

  // ---- warm pool (1 warm of 2): click → first frame, then latency and quality on this host
  const warm: StartFigures[] = [];
  const host = await stack.startHost({ HOST_WARM_POOL: '1', HOST_CAPACITY: '2' });
  onCleanup(() => host.stop());
  for (let i = 0; i < RUNS; i++) {
    await host.agent.pool.whenWarm(1, 120_000);
    await sleep(1500); // a real host is idle between sessions: let the new browser settle
    const p = await players.newPlayer();
    const r = await clickToFirstFrame(stack, host, p, game);
    warm.push(r);
    await r.end();
    await p.close();
  }

  // ---- 2. input-to-photon: 'h' toggles the text window on a static story line
  await host.agent.pool.whenWarm(1, 120_000);
  await sleep(1500);
  let p = await players.newPlayer();
  let click = await stack.click(host, game);
  await click.join(p);
  await fullVideo(p);
  await intoStory(host, click.sid, p);
  await sleep(1500);
  const rx0 = await inboundVideo(p.page);
  const lat = await keyLatency(p.page, { key: 'h', samples: SAMPLES, region: TEXT_WINDOW, gapMs: 250, timeoutMs: 2000 });
  const rx1 = await inboundVideo(p.page);
  if (lat.filter((x) => !x.error).length % 2 === 1) await sendKey(p, 'h'); // the window shown again
  await sleep(1500);
  const staticHigh = await sampleVideo(p.page, 5000);
  await click.end();
  await p.close();

  // ---- 3. fps and resolution per quality, on a moving scene (fixture title: petals, 30 fps drawn)
  await host.agent.pool.whenWarm(1, 120_000);
  await sleep(1500);
  p = await players.newPlayer();
  click = await stack.click(host, FIXTURE_GAME);
  await click.join(p);
  await fullVideo(p);
  const quality: { level: string; v: Awaited<ReturnType<typeof sampleVideo>> }[] = [];
  for (const level of ['high', 'medium', 'low']) {
    await p.page.evaluate(`window.player.send({ v: 1, type: 'quality', level: ${JSON.stringify(level)} })`);
    await sleep(4000);
    quality.push({ level, v: await sampleVideo(p.page, 6000) });
  }
  await click.end();
  await p.close();

  const ok = lat.filter((x) => !x.error);
  const presented = ok.map((x) => x.presentedMs!);
  const display = ok.map((x) => x.displayMs!);
  const nums = (f: 'receivedMs' | 'decodeMs' | 'submittedMs') => ok.map((x) => x[f]).filter((x): x is number => typeof x === 'number');
  const received = nums('receivedMs');
  const decode = nums('decodeMs');
  const jbFrames = (rx1?.jitterBufferEmitted ?? 0) - (rx0?.jitterBufferEmitted ?? 0);
  const jbMs = jbFrames > 0 ? (((rx1!.jitterBufferDelay - rx0!.jitterBufferDelay) / jbFrames) * 1000).toFixed(1) : '?';
  console.log('');
  console.log(`click → ready (${stack.mode === 'api' ? 'start → status ready → get_token' : 'POST /sessions → ready'}), cold:  ${fmt(cold.map((x) => x.readyMs))}`);
  console.log(`click → first decoded frame, cold (no warm runtime):           ${fmt(cold.map((x) => x.frameMs))}`);
  console.log(`click → ready, warm pool:                                      ${fmt(warm.map((x) => x.readyMs))}`);
  console.log(`click → first decoded frame, warm pool:                        ${fmt(warm.map((x) => x.frameMs))}`);
  console.log(
    `input-to-photon ('h' → text window change in the received video), ${ok.length}/${lat.length} samples: ` +
      `median ${median(display).toFixed(1)} ms, p95 ${quantile(display, 0.95).toFixed(1)} ms, min ${Math.min(...display).toFixed(1)}, max ${Math.max(...display).toFixed(1)} (expectedDisplayTime)`,
  );
  console.log(`  frame presented (rVFC now):    median ${median(presented).toFixed(1)} ms, p95 ${quantile(presented, 0.95).toFixed(1)} ms`);
  if (received.length) console.log(`  its last packet received:      median ${median(received).toFixed(1)} ms, p95 ${quantile(received, 0.95).toFixed(1)} ms (rVFC receiveTime)`);
  if (decode.length) console.log(`  its decode:                    median ${median(decode).toFixed(1)} ms (rVFC processingDuration)`);
  console.log(`  receiver jitter buffer, mean per frame over the samples: ${jbMs} ms (inbound-rtp jitterBufferDelay / jitterBufferEmittedCount)`);
  console.log(`  all (ms): ${fmtList(display)}`);
  if (lat.length > ok.length) console.log(`  failed samples: ${lat.filter((x) => x.error).map((x) => x.error).join('; ')}`);
  console.log(`  change threshold (mean abs. luma diff in the text window): median ${median(ok.map((x) => x.threshold!)).toFixed(1)}, seen diff median ${median(ok.map((x) => x.diff!)).toFixed(1)}`);
  console.log('received video (getStats inbound-rtp; fps = median of 1 s readings, decoded = framesDecoded / time):');
  console.log(`  ${'scene / quality'.padEnd(26)} ${'fps'.padStart(5)} ${'decoded'.padStart(8)} ${'resolution'.padStart(11)} ${'kbit/s'.padStart(7)} ${'dropped'.padStart(8)}`);
  const row = (name: string, v: Awaited<ReturnType<typeof sampleVideo>>) =>
    console.log(
      `  ${name.padEnd(26)} ${v.fpsMedian.toFixed(0).padStart(5)} ${v.decodedFps.toFixed(1).padStart(8)} ${`${v.width}x${v.height}`.padStart(11)} ${v.kbps.toFixed(0).padStart(7)} ${String(v.dropped).padStart(8)}`,
    );
  for (const q of quality) row(`moving (petals), ${q.level}`, q.v);
  row('static line, high', staticHigh);
  await finish(0);
}

main().catch(async (e) => {
  console.error(e);
  await finish(1);
});
