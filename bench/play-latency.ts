/**
 * Play latency as a player sees it, for several host configurations side by side in one run
 * (bench/play-configs.ts: before, after, one lever at a time). Per configuration:
 *   1. click → first decoded frame, cold (no warm runtime: a browser launched, or a new context in
 *      the browser another session keeps up) and warm (from the warm pool), in the
 *      play page's own flow: the steps lib/session/playController.ts takes (the real api: GET
 *      session/all, GET start, status polled as the page does (lib/session/pollDelay.ts), get_token, join; the
 *      fake api: POST /sessions, `ready` seen at the same poll times, join), the page's
 *      WebRtcSubscriber joining in a test player page; the first frame presented in its <video>;
 *      and where that time went, each run cut into consecutive segments that add up to its total
 *      (the host's start request, runtime, game start, publish; the player learning of `ready`;
 *      signalling open, peer-joined, offer, answer, ICE, DTLS, first frame: bench/play-timeline.ts,
 *      from the host's session record and the player probe's timeline, on one clock, Date.now()),
 *      each segment's median in the table under the totals (medians need not add up);
 *   2. input-to-photon over all samples from the first one: right after the player is in the
 *      story, a key whose effect is visible ('h' hides / shows the text window) sent on the data
 *      channel until the received video shows it (requestVideoFrameCallback + pixel comparison
 *      of the text-window region), median and p95 over --samples (40), nothing discarded; on a
 *      native (Ren'Py) title (--game the-question) Enter to the next line instead, rolled back
 *      between samples (bench/play-native.ts), and no moving-quality figures;
 *   3. frames per second and resolution received per quality on the moving fixture title, and on a
 *      static line (--skip quality leaves it out).
 * Then one table with every configuration, one per lever (before | +lever) and before | after.
 * Prints figures; never fails on speed; stops itself after --minutes (8 per configuration).
 *
 *   npx tsx bench/play-latency.ts [--config before,after] [--levers join,jitter,browser,frames]
 *       [--runs 3] [--samples 40] [--game hajimari-no-eki] [--skip cold,coldUp,warm,latency,quality] [--fake]
 *       [--timeline]   (each run's player timeline as it goes)
 *   npx tsx server/dev/with-services.ts -- npx tsx bench/play-latency.ts   # the real api
 *
 * The page's flow is replayed by the bench rather than by driving /play/[id] of a running web
 * (a Next build and server on a 2-core machine would weigh on every figure); the page adds only
 * its dynamic import of the subscriber and React rendering to what is measured here.
 * The real api is used when DATABASE_URL and FIREBASE_AUTH_EMULATOR_HOST are set (what
 * with-services gives), else the host's fake api peer. Loopback only.
 */
import os from 'node:os';
import { sleep } from '../server/host/testing/harness';
import { inboundVideo, keyLatency, sampleVideo, type PlayerBrowser } from '../server/host/testing/player-probe';
import { TEXT_WINDOW } from './play-capacity';
import { describe, ms, num, playConfigs, playerOpts, printTables, type PlayConfig, type Row } from './play-configs';
import {
  FIXTURE_GAME,
  arg,
  bound,
  finish,
  fmtList,
  fullVideo,
  intoPetals,
  intoStory,
  machine,
  machineBusy,
  median,
  otherChromium,
  quantile,
  sendKey,
  benchRuntime,
} from './play-common';
import { startStackAndPlayers, type PlayStack } from './play-stack';
import { intoNativeStory, isNativeTitle, nativeEnterLatency } from './play-native';
import { addBreakdown, clickToFirstFrame, describeRuns, noBreakdowns, runColumns, segmentRows, type Breakdown, type Breakdowns } from './play-timeline';

const RUNS = Math.max(1, Number(arg('runs', '3')));
const SAMPLES = Math.max(1, Number(arg('samples', '40')));
const SKIP = new Set(arg('skip', '').split(',').filter(Boolean));
/** --trace: each input-to-photon sample's frame times (received, decoded, submitted, presented, displayed). */
const TRACE = process.argv.includes('--trace');

type Video = Awaited<ReturnType<typeof sampleVideo>>;
/** Starts of one kind: click → ready, click → first frame, and where each run's time went (bench/play-timeline.ts). */
interface Starts {
  ready: number[];
  frame: number[];
  segments: Breakdowns;
}
const noStarts = (): Starts => ({ ready: [], frame: [], segments: noBreakdowns() });
/**
 * The kinds of start: `cold` (no warm runtime and no browser: one is launched), `coldUp` (no warm
 * runtime, but the host's browser is up, serving another session: the runtime is a new context
 * and page in it, what a busy host's pool-exhausted start is), `warm` (from the warm pool).
 */
const START_KINDS = ['cold', 'coldUp', 'warm'] as const;
type StartKind = (typeof START_KINDS)[number];
const KIND_LABEL: Record<StartKind, string> = { cold: 'cold', coldUp: 'cold, a browser up', warm: 'warm' };

interface Figures {
  starts: Record<StartKind, Starts>;
  display: number[];
  /** Per sample: when its frame was received (ms after the key) and how many frames came before it matched. */
  received: number[];
  framesSeen: number[];
  /** Video packets lost and NACKs the player sent over the samples. */
  lossNacks: string;
  failed: number;
  errors: string[];
  jitterMs: number;
  quality: { name: string; v: Video }[];
}

async function run(stack: PlayStack, players: PlayerBrowser, cfg: PlayConfig, game: string): Promise<Figures> {
  const f: Figures = { starts: { cold: noStarts(), coldUp: noStarts(), warm: noStarts() }, display: [], received: [], framesSeen: [], lossNacks: '', failed: 0, errors: [], jitterMs: NaN, quality: [] };
  const add = (kind: StartKind, r: { ready: number; frame: number; segments: Breakdown }) => {
    f.starts[kind].ready.push(r.ready);
    f.starts[kind].frame.push(r.frame);
    addBreakdown(f.starts[kind].segments, r.segments);
  };
  // cold: no warm runtime; `coldUp`: another session (no player: the bench's join timeout is
  // 10 min) keeps the host's browser up, so each start is a new context in it
  for (const kind of ['cold', 'coldUp'] as const) {
    if (SKIP.has(kind)) continue;
    const host = await stack.startHost({ HOST_WARM_POOL: '0', HOST_CAPACITY: kind === 'cold' ? '1' : '2', ...cfg.hostEnv });
    let holder: Awaited<ReturnType<PlayStack['click']>> | null = null;
    try {
      if (kind === 'coldUp') holder = await stack.click(host, game, { poll: 'fast' });
      for (let i = 0; i < RUNS; i++) {
        await sleep(holder ? 1500 : 1000);
        add(kind, await clickToFirstFrame(stack, host, players, cfg, game));
      }
    } finally {
      try {
        await holder?.end();
      } finally {
        await host.stop();
      }
    }
  }
  const host = await stack.startHost({ HOST_WARM_POOL: '1', HOST_CAPACITY: '2', ...cfg.hostEnv });
  try {
    const settle = async () => {
      await host.agent.pool.whenWarm(1, 120_000);
      await sleep(1500); // a real host is idle between sessions: let the new runtime settle
    };
    if (!SKIP.has('warm')) {
      for (let i = 0; i < RUNS; i++) {
        await settle();
        add('warm', await clickToFirstFrame(stack, host, players, cfg, game));
      }
    }
    if (!SKIP.has('latency')) {
      await settle();
      const p = await players.newPlayer(playerOpts(cfg));
      const click = await stack.click(host, game);
      try {
        await click.join(p);
        await fullVideo(p);
        // a native (Ren'Py) title: Enter from line 2 to 3, rolled back between samples (bench/play-native.ts)
        const native = isNativeTitle(game);
        if (native) await intoNativeStory(host, click.sid);
        else await intoStory(host, click.sid, p);
        // no wait: every sample from the first one counts
        const rx0 = await inboundVideo(p.page);
        const lat = native
          ? await nativeEnterLatency(host, click.sid, p, SAMPLES)
          : await keyLatency(p.page, { key: 'h', samples: SAMPLES, region: TEXT_WINDOW, gapMs: 250, timeoutMs: 2000 });
        if (TRACE) {
          const t = (v: number | null | undefined) => num(v ?? NaN, 0);
          lat.forEach((x, i) => console.log(`    sample ${i + 1}: ${x.error ?? `received ${t(x.receivedMs)}, decoded in ${num(x.decodeMs ?? NaN, 1)}, submitted ${t(x.submittedMs)}, callback ${t(x.presentedMs)}, display ${t(x.displayMs)} ms after the key`}`));
        }
        const rx1 = await inboundVideo(p.page);
        f.display = lat.map((x) => (x.error ? Infinity : x.photonMs!));
        f.received = lat.map((x) => (x.error || x.receivedMs === null || x.receivedMs === undefined ? NaN : x.receivedMs));
        f.framesSeen = lat.map((x) => x.frames ?? NaN);
        f.failed = lat.filter((x) => x.error).length;
        f.errors = [...new Set(lat.filter((x) => x.error).map((x) => x.error!))];
        const frames = (rx1?.jitterBufferEmitted ?? 0) - (rx0?.jitterBufferEmitted ?? 0);
        if (frames > 0) f.jitterMs = ((rx1!.jitterBufferDelay - rx0!.jitterBufferDelay) / frames) * 1000;
        f.lossNacks = `${(rx1?.lost ?? 0) - (rx0?.lost ?? 0)} lost, ${(rx1?.nacks ?? 0) - (rx0?.nacks ?? 0)} NACKs`;
        if (!native && lat.filter((x) => !x.error).length % 2 === 1) await sendKey(p, 'h');
        if (!SKIP.has('quality')) {
          await sleep(1500);
          f.quality.push({ name: 'static line, high', v: await sampleVideo(p.page, 5000) });
        }
      } finally {
        await click.end();
        await p.close();
      }
    }
    // the moving quality figures are the web engine's fixture title: not repeated in a native title's run
    if (!SKIP.has('quality') && !isNativeTitle(game)) {
      await settle();
      const p = await players.newPlayer(playerOpts(cfg));
      const click = await stack.click(host, FIXTURE_GAME);
      try {
        await click.join(p);
        await fullVideo(p);
        await intoPetals(host, click.sid, p);
        for (const level of ['high', 'medium', 'low']) {
          await p.page.evaluate(`window.player.send({ v: 1, type: 'quality', level: ${JSON.stringify(level)} })`);
          await sleep(3000);
          f.quality.push({ name: `moving (petals), ${level}`, v: await sampleVideo(p.page, 5000) });
        }
      } finally {
        await click.end();
        await p.close();
      }
    }
  } finally {
    await host.stop();
  }
  return f;
}

function rows(configs: PlayConfig[], figs: Map<string, Figures>): Row[] {
  const out: Row[] = [];
  const row = (figure: string, fn: (x: Figures) => string) => out.push({ figure, values: Object.fromEntries(configs.map((c) => [c.name, figs.has(c.name) ? fn(figs.get(c.name)!) : '–'])) });
  const names = configs.map((c) => c.name);
  for (const kind of START_KINDS) {
    row(`click → ready, ${KIND_LABEL[kind]} (median)`, (f) => ms(median(f.starts[kind].ready)));
    row(`click → first decoded frame, ${KIND_LABEL[kind]} (median)`, (f) => ms(median(f.starts[kind].frame)));
    // the same without the probe's answer reaching the bench (its last segment): when the page presented it
    row(`  presented, by the page's clock (median)`, (f) => ms(median(f.starts[kind].frame.map((t, i) => t - f.starts[kind].segments.notice[i]))));
    // each segment's median (bench/play-timeline.ts), where that kind of start ran
    if ([...figs.values()].some((f) => f.starts[kind].frame.length)) out.push(...segmentRows(names, figs, (f) => f.starts[kind].segments));
  }
  row('input-to-photon median / p95 (all samples)', (f) => (f.display.length ? `${num(median(f.display), 1)} / ${num(quantile(f.display, 0.95), 1)} ms` : '–'));
  row('  first 10 samples, median', (f) => ms(median(f.display.slice(0, 10))));
  row('  samples not seen', (f) => (f.display.length ? `${f.failed}/${f.display.length}` : '–'));
  row('  video jitter buffer, mean per frame', (f) => ms(f.jitterMs));
  for (const name of [...new Set([...figs.values()].flatMap((f) => f.quality.map((q) => q.name)))]) {
    row(`fps / kbit/s, ${name}`, (f) => {
      const q = f.quality.find((x) => x.name === name);
      return q ? `${q.v.fpsMedian.toFixed(0)} / ${q.v.kbps.toFixed(0)} (${q.v.width}x${q.v.height})` : '–';
    });
  }
  return out;
}

async function main(): Promise<void> {
  const configs = playConfigs();
  bound(Number(arg('minutes', String(8 * configs.length))) * 60_000);
  const { game } = await benchRuntime();
  const { stack, players } = await startStackAndPlayers();
  console.log(`play latency bench: ${new Date().toISOString()}, api: ${stack.mode === 'api' ? 'real (buildApp, PostgreSQL, Auth emulator)' : 'fake api peer'}, game ${game}, ${RUNS} runs, ${SAMPLES} samples`);
  console.log(`machine: ${machine()}; ${otherChromium((p) => p.cmdline.includes(players.dir))} other Chromium processes running; CPU busy before the run (3 s): ${(await machineBusy()).toFixed(0)}% of all cores`);
  for (const c of configs) console.log(`  config ${describe(c)}`);
  const figs = new Map<string, Figures>();
  for (const cfg of configs) {
    console.log(`\n[${cfg.name}] ${new Date().toISOString().slice(11, 19)} UTC, load ${os.loadavg()[0].toFixed(1)}`);
    try {
      const f = await run(stack, players, cfg, game);
      figs.set(cfg.name, f);
      const list = (xs: number[]) => (xs.length ? `${fmtList(xs)} ms` : '–');
      console.log(`  ${START_KINDS.map((k) => `${KIND_LABEL[k]}: ready ${list(f.starts[k].ready)}, first frame ${list(f.starts[k].frame)}`).join('; ')}`);
      for (const kind of START_KINDS) {
        const b = f.starts[kind].segments;
        if (b.toHost.length) console.log(`  ${KIND_LABEL[kind]} runs, ms (${runColumns()}):\n${describeRuns(b).map((l) => `    ${l}`).join('\n')}`);
      }
      console.log(`  input-to-photon, all ${f.display.length} samples in order (ms): ${fmtList(f.display)}${f.errors.length ? `; not seen: ${f.errors.join('; ')}` : ''}`);
      console.log(`    its frame received at (ms after the key): ${fmtList(f.received)}`);
      console.log(`    frames presented until the change showed: ${fmtList(f.framesSeen)}; over the samples: ${f.lossNacks}`);
    } catch (e) {
      console.error(`[${cfg.name}] stopped: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  printTables(`play latency (${stack.mode === 'api' ? 'real api' : 'fake api'}, the play page's status poll)`, rows(configs, figs), configs);
  await finish(0);
}

main().catch(async (e) => {
  console.error(e);
  await finish(1);
});
