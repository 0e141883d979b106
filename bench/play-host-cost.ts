/**
 * What a session costs the game host, and how many one machine holds (issue 11), for several
 * host configurations side by side in one run (bench/play-configs.ts: before, after, one lever
 * at a time). Per configuration:
 *   1. per session, one at a time, over a --window (10 s) each: host CPU (% of one core:
 *      utime + stime from /proc of every process of the host's browsers) and memory (the
 *      session's footprint: its own processes + its share of its browser's shared ones), with the
 *      fps and bitrate a cheap receiving peer gets (server/host/testing/cheap-peer.ts: werift, no
 *      decoding), on a static story line, reading on (Enter and '1' every 250 ms) and the fixture
 *      title's falling petals (30 fps drawn); the cheap peers' CPU in a column of its own;
 *   2. reading sessions one machine holds within the latency goal (input-to-photon median ≤ 45 ms,
 *      p95 ≤ 80 ms in one real browser player, the others cheap peers reading on), capped at
 *      --max-reading (12);
 *   3. moving worst case: sessions on the petals at ≥ 25 fps received, capped at --max-moving (6).
 * Then one table with every configuration, one per lever (before | +lever) and before | after.
 * Prints figures; never fails on speed; stops itself after --minutes (12 per configuration).
 *
 * A native (Ren'Py) title (--game the-question): its own scenes instead (bench/play-host-cost-native.ts:
 * the title screen still, a still line, reading on), the game's processes counted in the host's
 * columns and split by part; no capacity counts.
 *
 *   npx tsx bench/play-host-cost.ts [--config before,after] [--levers frames,browser,codec,join,jitter] [--game id]
 *       [--window 10] [--samples 20] [--max-reading 12] [--max-moving 6] [--skip scenes,reading,moving] [--keep-going]
 *       [--quality high|medium|low] [--fake]
 * --quality: the video quality every reading session of the capacity count asks for, as a player's
 * settings do (the spec's default and the goal's: high).
 *   npx tsx server/dev/with-services.ts -- npx tsx bench/play-host-cost.ts   # through the real api
 *
 * The players run on this machine too: the cheap peers in a Node process of their own, the real
 * player in its own Chromium; both take cores a real host would have to itself. Loopback only.
 */
import os from 'node:os';
import { QUALITY_LEVELS, type QualityLevel } from '../lib/streaming/messages';
import { startCheapPeers, type CheapPeers } from '../server/host/testing/cheap-peer-process';
import { sleep, type TestAgent } from '../server/host/testing/harness';
import { readProc } from '../server/host/procs';
import { GOAL, held, movingCapacity, readingCapacity, type CapacityEnv, type Step } from './play-capacity';
import { describe, num, pct, playConfigs, printTables, type PlayConfig, type Row } from './play-configs';
import {
  FIXTURE_GAME,
  arg,
  bound,
  cpuStart,
  finish,
  flag,
  hostProcs,
  intoPetals,
  intoStory,
  machine,
  machineBusy,
  onCleanup,
  otherChromium,
  pssPerSessionMb,
  benchRuntime,
} from './play-common';
import { startStackAndPlayers, type PlayStack } from './play-stack';
import { nativeScenes } from './play-host-cost-native';
import { isNativeTitle } from './play-native';

const WINDOW_MS = Math.max(2, Number(arg('window', '10'))) * 1000;
/**
 * Wait this long in the scene before its window: the pool's replacement runtime launches right
 * after a start (HOST_REFILL_DELAY_MS) and the engine renders its art and music loop once; the
 * figures are a session's steady cost, not its start.
 */
const SETTLE_MS = Math.max(0, Number(arg('settle', '15'))) * 1000;
const SAMPLES = Math.max(4, Number(arg('samples', '20')));
const MAX_READING = Math.max(1, Number(arg('max-reading', '12')));
const MAX_MOVING = Math.max(1, Number(arg('max-moving', '6')));
const SKIP = new Set(arg('skip', '').split(',').filter(Boolean));
const KEEP_GOING = flag('keep-going');
/** --quality medium|low: every reading session asks for that video quality (the spec's default: high). */
const QUALITY = arg('quality', 'high');
if (!(QUALITY_LEVELS as readonly string[]).includes(QUALITY)) throw new Error(`--quality: one of ${QUALITY_LEVELS.join(', ')}`);

export interface Scene {
  scene: string;
  hostCpu: number;
  peersCpu: number;
  pss: number;
  fps: number;
  kbps: number;
  /** The sound received (Opus payload): a still line with music is tens of kbit/s, silence ~1. */
  audioKbps: number;
  codec: string;
  /** A native session: host CPU (% of a core) and PSS (MB) by part: the runtime page's browser processes and the game's. */
  split?: { cpu: Record<string, number>; pss: Record<string, number> };
}

interface Figures {
  scenes: Scene[];
  reading: Step[];
  moving: Step[];
}

/** One session at a time, each scene measured with a cheap peer. */
async function scenes(stack: PlayStack, host: TestAgent, peers: CheapPeers, game: string): Promise<Scene[]> {
  const out: Scene[] = [];
  const measure = async (scene: string, peer: number): Promise<void> => {
    const hostCpu = cpuStart(() => hostProcs(host));
    const peersCpu = cpuStart(() => [readProc(peers.pid)].filter((p) => p !== null));
    const a = await peers.stats(peer);
    await sleep(WINDOW_MS);
    const b = await peers.stats(peer);
    const dt = Math.max(1, b.at - a.at);
    out.push({ scene, hostCpu: hostCpu(), peersCpu: peersCpu(), pss: pssPerSessionMb(host), fps: ((b.frames - a.frames) * 1000) / dt, kbps: ((b.bytes - a.bytes) * 8) / dt, audioKbps: ((b.audioBytes - a.audioBytes) * 8) / dt, codec: b.codec });
  };
  for (const petals of [false, true]) {
    await sleep(1000);
    const c = await stack.click(host, petals ? FIXTURE_GAME : game, { poll: 'fast' });
    const peer = await peers.join(c.signal.url, c.signal.token);
    try {
      const press = (k: string) => peers.key(peer, k);
      await (petals ? intoPetals : intoStory)(host, c.sid, press);
      await sleep(SETTLE_MS);
      if (petals) await measure('weather effect: petals (fixture)', peer);
      else {
        await measure(`static line (${game})`, peer);
        await peers.keysEvery(peer, ['Enter', '1'], 250);
        await sleep(1000);
        await measure(`reading on: Enter every 250 ms (${game})`, peer);
        await peers.keysEvery(peer, [], 0);
      }
    } finally {
      await peers.leave(peer).catch(() => undefined);
      await c.end();
    }
  }
  return out;
}

function rows(configs: PlayConfig[], figs: Map<string, Figures>): Row[] {
  const out: Row[] = [];
  const row = (figure: string, f: (x: Figures) => string) => out.push({ figure, values: Object.fromEntries(configs.map((c) => [c.name, figs.has(c.name) ? f(figs.get(c.name)!) : '–'])) });
  const sceneNames = [...new Set([...figs.values()].flatMap((f) => f.scenes.map((s) => s.scene)))];
  for (const name of sceneNames) {
    // the web scenes' short names as before; a native title's scenes by their own names
    const short = /petals/.test(name) ? 'petals' : name.startsWith('static line') ? 'static line' : name.startsWith('reading on') ? 'reading on' : name.replace(/ \(.*$/, '');
    const sc = (f: Figures) => f.scenes.find((s) => s.scene === name);
    row(`host CPU per session, ${short}`, (f) => pct(sc(f)?.hostCpu ?? NaN));
    row(`  fps rx / kbit/s, ${short}`, (f) => (sc(f) ? `${num(sc(f)!.fps, 1)} / ${num(sc(f)!.kbps)}` : '–'));
    row(`  sound rx kbit/s, ${short}`, (f) => num(sc(f)?.audioKbps ?? NaN));
    row(`  cheap peer CPU, ${short}`, (f) => pct(sc(f)?.peersCpu ?? NaN));
  }
  if (sceneNames.length) row('memory per session, one session (MB)', (f) => num(f.scenes[0]?.pss ?? NaN));
  // a native title: host CPU and PSS by part, per scene
  for (const name of sceneNames) {
    const parts = [...new Set([...figs.values()].flatMap((f) => Object.keys(f.scenes.find((s) => s.scene === name)?.split?.cpu ?? {})))];
    for (const part of parts) {
      row(`  ${name}: ${part} CPU / PSS`, (f) => {
        const sp = f.scenes.find((s) => s.scene === name)?.split;
        return sp ? `${pct(sp.cpu[part] ?? NaN)} / ${num(sp.pss[part] ?? NaN)} MB` : '–';
      });
    }
  }
  if ([...figs.values()].some((f) => f.reading.length)) {
    const last = (f: Figures) => f.reading[held(f.reading) - 1];
    row(`reading sessions within ${GOAL.medianMs}/${GOAL.p95Ms} ms${QUALITY === 'high' ? '' : `, quality ${QUALITY}`}`, (f) => `${held(f.reading)}${held(f.reading) === MAX_READING ? ' (cap)' : ''}`);
    row('  at that count: input-to-photon median/p95', (f) => (last(f) ? `${num(last(f)!.medianMs!)}/${num(last(f)!.p95Ms!)} ms` : '–'));
    row('  at that count: host CPU (all sessions)', (f) => pct(last(f)?.hostCpu ?? NaN));
    row('  at that count: memory per session (MB)', (f) => num(last(f)?.pssPerSession ?? NaN));
    row('  at that count: cheap peers / real player CPU', (f) => (last(f) ? `${pct(last(f)!.peersCpu)} / ${pct(last(f)!.playerCpu)}` : '–'));
    row("  the machine's steal time, mean of the steps", (f) => pct(f.reading.reduce((a, s) => a + s.steal, 0) / f.reading.length));
    row('  first failing step', (f) => f.reading.find((s) => !s.ok)?.why ?? 'none');
  }
  if ([...figs.values()].some((f) => f.moving.length)) {
    const last = (f: Figures) => f.moving[held(f.moving) - 1];
    row(`moving sessions at ≥ ${GOAL.fps} fps`, (f) => `${held(f.moving)}${held(f.moving) === MAX_MOVING ? ' (cap)' : ''}`);
    row('  at that count: host CPU / memory per session', (f) => (last(f) ? `${pct(last(f)!.hostCpu)} / ${num(last(f)!.pssPerSession)} MB` : '–'));
  }
  return out;
}

async function main(): Promise<void> {
  const configs = playConfigs();
  bound(Number(arg('minutes', String(12 * configs.length))) * 60_000);
  const { game } = await benchRuntime();
  const native = isNativeTitle(game);
  // a native title: its own scenes (title screen, a still line, reading on); the capacity counts are the web engine's
  if (native) for (const k of ['reading', 'moving']) SKIP.add(k);
  const { stack, players } = await startStackAndPlayers();
  const peers = await startCheapPeers();
  onCleanup(() => peers.close());
  console.log(`host cost bench: ${new Date().toISOString()}, api: ${stack.mode === 'api' ? 'real' : 'fake api peer'}, window ${WINDOW_MS / 1000} s, ${SAMPLES} latency samples per step`);
  console.log(`machine: ${machine()}; ${otherChromium((p) => p.cmdline.includes(players.dir))} other Chromium processes running; CPU busy before the run (3 s): ${(await machineBusy()).toFixed(0)}% of all cores`);
  for (const c of configs) console.log(`  config ${describe(c)}`);

  const figs = new Map<string, Figures>();
  for (const cfg of configs) {
    console.log(`\n[${cfg.name}] ${new Date().toISOString().slice(11, 19)} UTC, load ${os.loadavg()[0].toFixed(1)}`);
    // no warm runtime: nothing warms in the background while a figure is taken
    const host = await stack.startHost({ HOST_WARM_POOL: '0', HOST_CAPACITY: String(Math.max(MAX_READING, MAX_MOVING) + 1), ...cfg.hostEnv });
    onCleanup(() => host.stop());
    const f: Figures = { scenes: [], reading: [], moving: [] };
    figs.set(cfg.name, f);
    try {
      const env: CapacityEnv = { stack, host, peers, players, jitterTarget: cfg.jitterTarget, game, quality: QUALITY as QualityLevel };
      const log = (s: string) => console.log(s);
      if (!SKIP.has('scenes')) {
        f.scenes = native ? await nativeScenes(stack, host, peers, game, { windowMs: WINDOW_MS, settleMs: SETTLE_MS, log }) : await scenes(stack, host, peers, game);
        for (const s of f.scenes) log(`  ${s.scene}: host CPU ${s.hostCpu.toFixed(0)}%, ${s.pss.toFixed(0)} MB, ${s.fps.toFixed(1)} fps rx, ${s.kbps.toFixed(0)} kbit/s (${s.codec}), sound ${s.audioKbps.toFixed(0)} kbit/s, cheap peer CPU ${s.peersCpu.toFixed(0)}%`);
      }
      if (!SKIP.has('reading')) f.reading = await readingCapacity(env, { max: MAX_READING, samples: SAMPLES, keepGoing: KEEP_GOING, log });
      if (!SKIP.has('moving')) f.moving = await movingCapacity(env, { max: MAX_MOVING, windowMs: WINDOW_MS, keepGoing: KEEP_GOING, log });
    } catch (e) {
      console.error(`[${cfg.name}] stopped: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      await host.stop();
    }
  }

  printTables('host cost (CPU in % of one core; memory = the session\'s share of every process it uses)', rows(configs, figs), configs);
  await finish(0);
}

main().catch(async (e) => {
  console.error(e);
  await finish(1);
});
