/**
 * The two "how many sessions does one machine hold" counts of bench/play-host-cost.ts (issue 11),
 * for one host configuration:
 *   - reading sessions within the latency goal: one real browser player (the probed test player)
 *     on a static story line measures input-to-photon ('h' toggles the text window) over all its
 *     samples, while cheap receiving peers (server/host/testing/cheap-peer.ts) are added one
 *     session at a time, each reading on (Enter and '1' every 250 ms on the data channel, as a
 *     player would); a step passes while the real player's median ≤ 45 ms and p95 ≤ 80 ms, every
 *     sample is seen and every reader still receives video;
 *   - moving worst case: sessions on the fixture title's falling petals (the engine draws 30 fps),
 *     the real player first, then cheap peers; a step passes while every session receives ≥ 25 fps.
 * Each count stops at the first failing step (--keep-going: goes on to the cap, to see the
 * trend on a busy machine; the count held is still the steps before the first failure) or at its cap. Host CPU (every process of the host's
 * browsers), the cheap peers' process and the real player's Chromium are measured apart.
 */
import os from 'node:os';
import type { PlayerMessage, QualityLevel } from '../lib/streaming/messages';
import type { CheapPeers } from '../server/host/testing/cheap-peer-process';
import { sleep, type TestAgent } from '../server/host/testing/harness';
import { keyLatency, sampleVideo, type PlayerBrowser, type ProbedPlayer } from '../server/host/testing/player-probe';
import { readProc } from '../server/host/procs';
import { FIXTURE_GAME, cpuStart, stealStart, engineState, fullVideo, hostProcs, intoPetals, intoStory, median, pssPerSessionMb, quantile, sendKey } from './play-common';
import type { Click, PlayStack } from './play-stack';

/** The latency goal of issue 11, in the real player. */
export const GOAL = { medianMs: 45, p95Ms: 80, fps: 25 };
/** The text window (runtime/src/ui.ts TEXT_WINDOW: 40,484 1200×222 of 1280×720). */
export const TEXT_WINDOW: [number, number, number, number] = [40 / 1280, 484 / 720, 1240 / 1280, 706 / 720];

export interface Step {
  n: number;
  ok: boolean;
  why: string;
  hostCpu: number;
  peersCpu: number;
  playerCpu: number;
  pssPerSession: number;
  /** Input-to-photon in the real player (reading count). */
  medianMs?: number;
  p95Ms?: number;
  samples?: string;
  /** Received fps: the real player's, and the lowest of the cheap peers'. */
  playerFps?: number;
  peersMinFps?: number;
  /** Reading count: readers still in the story (not at its end or back on the title). */
  readersInStory?: string;
  /** Reading count: readers whose music plays live notes now, whose chain has built its reverb (a live sound), their live sound effects, and the beats of their tracks played live. */
  readersLive?: string;
  load: number;
  /** The machine's steal time over the step's window, % of all cores (play-common stealStart). */
  steal: number;
}

export interface CapacityEnv {
  stack: PlayStack;
  host: TestAgent;
  peers: CheapPeers;
  players: PlayerBrowser;
  jitterTarget: boolean;
  game: string;
  /**
   * The video quality every reading session asks for once in the story, as a player's settings
   * do (lib/streaming/types.ts QUALITY_PROFILES; the spec's default `high`: nothing is sent).
   */
  quality?: QualityLevel;
}

interface Live {
  c: Click;
  peer?: number;
  player?: ProbedPlayer;
}

const pressVia = (peers: CheapPeers, peer: number) => (key: string) => peers.key(peer, key);

/** The quality message a reading session sends once in the story (none at the spec's default, `high`, or on the petals). */
function qualityMessage(env: CapacityEnv, petals: boolean): PlayerMessage | null {
  return !petals && env.quality && env.quality !== 'high' ? { v: 1, type: 'quality', level: env.quality } : null;
}

/** A session for a cheap peer, joined and into the story (or the petals). */
async function cheapSession(env: CapacityEnv, gameId: string, petals: boolean): Promise<Live> {
  const c = await env.stack.click(env.host, gameId, { poll: 'fast' });
  const peer = await env.peers.join(c.signal.url, c.signal.token);
  await (petals ? intoPetals : intoStory)(env.host, c.sid, pressVia(env.peers, peer));
  const quality = qualityMessage(env, petals);
  if (quality && !(await env.peers.send(peer, quality))) throw new Error(`cheap peer ${peer}: its input channel refused the quality message`);
  return { c, peer };
}

/** A session for the real player, joined at full size and into the story (or the petals). */
async function playerSession(env: CapacityEnv, gameId: string, petals: boolean): Promise<Live> {
  const player = await env.players.newPlayer({ jitterTarget: env.jitterTarget });
  const c = await env.stack.click(env.host, gameId, { poll: 'fast' });
  await c.join(player);
  await fullVideo(player, 60_000);
  await (petals ? intoPetals : intoStory)(env.host, c.sid, player);
  const quality = qualityMessage(env, petals);
  if (quality) await player.page.evaluate((m) => window.player.send(m), quality);
  return { c, player };
}

async function endAll(env: CapacityEnv, live: Live[]): Promise<void> {
  for (const s of live.splice(0)) {
    if (s.peer !== undefined) await env.peers.leave(s.peer).catch(() => undefined);
    await s.c.end().catch(() => undefined);
    await s.player?.close().catch(() => undefined);
  }
}

/** Starts the CPU meters: host, cheap peers, real player. */
function meters(env: CapacityEnv) {
  const host = cpuStart(() => hostProcs(env.host));
  const peers = cpuStart(() => [readProc(env.peers.pid)].filter((p) => p !== null));
  const player = cpuStart(env.players.procs);
  const steal = stealStart();
  return () => ({ hostCpu: host(), peersCpu: peers(), playerCpu: player(), steal: steal() });
}

/** Frames each cheap peer received per second over `fn`. */
async function peerFps<T>(env: CapacityEnv, live: Live[], fn: () => Promise<T>): Promise<{ result: T; fps: number[] }> {
  const withPeer = live.filter((s) => s.peer !== undefined);
  const a = await Promise.all(withPeer.map((s) => env.peers.stats(s.peer!)));
  const result = await fn();
  const b = await Promise.all(withPeer.map((s) => env.peers.stats(s.peer!)));
  return { result, fps: b.map((x, i) => ((x.frames - a[i].frames) * 1000) / Math.max(1, x.at - a[i].at)) };
}

export async function readingCapacity(env: CapacityEnv, opts: { max: number; samples: number; keepGoing?: boolean; log: (s: string) => void }): Promise<Step[]> {
  const live: Live[] = [];
  const steps: Step[] = [];
  try {
    const real = await playerSession(env, env.game, false);
    live.push(real);
    const page = real.player!.page;
    for (let n = 1; n <= opts.max; n++) {
      if (n > 1) {
        const s = await cheapSession(env, env.game, false);
        await env.peers.keysEvery(s.peer!, ['Enter', '1'], 250);
        live.push(s);
      }
      await sleep(2000);
      const stop = meters(env);
      const { result: lat, fps } = await peerFps(env, live, () => keyLatency(page, { key: 'h', samples: opts.samples, region: TEXT_WINDOW, gapMs: 250, timeoutMs: 2000 }));
      const cpu = stop();
      const seen = lat.filter((x) => !x.error);
      if (seen.length % 2 === 1) await sendKey(real.player!, 'h'); // the text window shown again
      // a sample never seen counts as missing the goal
      const display = lat.map((x) => (x.error ? Infinity : x.photonMs!));
      const med = median(display);
      const p95 = quantile(display, 0.95);
      const peersMinFps = fps.length ? Math.min(...fps) : NaN;
      const pic = (await page.evaluate('window.player.video()')) as { width: number; height: number };
      const readers = live.filter((s) => s.peer !== undefined);
      const states = await Promise.all(readers.map((s) => engineState(env.host, s.c.sid).catch(() => null)));
      const screens = states.map((st) => st?.screen ?? '?');
      const count = (f: (st: NonNullable<(typeof states)[number]>) => boolean) => states.filter((st) => st && f(st)).length;
      const why = [
        seen.length < lat.length ? `${lat.length - seen.length} sample(s) not seen (${[...new Set(lat.filter((x) => x.error).map((x) => x.error))].join('; ')})` : '',
        !(med <= GOAL.medianMs) ? `median ${med.toFixed(0)} > ${GOAL.medianMs}` : '',
        !(p95 <= GOAL.p95Ms) ? `p95 ${Number.isFinite(p95) ? p95.toFixed(0) : '∞'} > ${GOAL.p95Ms}` : '',
        fps.some((f) => f === 0) ? 'a reader received no frame' : '',
      ].filter(Boolean);
      const step: Step = {
        n,
        ok: why.length === 0,
        why: why.join(', '),
        ...cpu,
        pssPerSession: pssPerSessionMb(env.host),
        medianMs: median(seen.map((x) => x.photonMs!)),
        p95Ms: p95,
        samples: `${seen.length}/${lat.length}`,
        peersMinFps,
        readersInStory: `${screens.filter((x) => x === 'story').length}/${readers.length}`,
        readersLive: `music live ${count((st) => st.audio.music === 'live')}/${readers.length}, reverb built ${count((st) => st.audio.sends?.reverb === true)}/${readers.length}, sfx live ${states.reduce((a, st) => a + (st?.audio.sfx?.live ?? 0), 0)}, live beats ${states.reduce((a, st) => a + (st?.audio.liveBeats ?? 0), 0).toFixed(0)}`,
        load: os.loadavg()[0],
      };
      steps.push(step);
      opts.log(
        `  … ${n} reading session(s): input-to-photon median ${step.medianMs!.toFixed(0)} ms, p95 ${Number.isFinite(p95) ? p95.toFixed(0) : '∞'} ms (${step.samples}, the real player's picture ${pic.width}×${pic.height}), readers ≥ ${Number.isFinite(peersMinFps) ? peersMinFps.toFixed(1) : '–'} fps (${step.readersInStory} in the story; ${step.readersLive}), host CPU ${cpu.hostCpu.toFixed(0)}%, peers ${cpu.peersCpu.toFixed(0)}%, player ${cpu.playerCpu.toFixed(0)}%, steal ${cpu.steal.toFixed(0)}%, ${step.pssPerSession.toFixed(0)} MB/session${step.ok ? '' : ` — FAILS: ${step.why}`}`,
      );
      if (!step.ok && !opts.keepGoing) break;
    }
  } finally {
    await endAll(env, live);
  }
  return steps;
}

export async function movingCapacity(env: CapacityEnv, opts: { max: number; windowMs: number; keepGoing?: boolean; log: (s: string) => void }): Promise<Step[]> {
  const live: Live[] = [];
  const steps: Step[] = [];
  try {
    for (let n = 1; n <= opts.max; n++) {
      live.push(n === 1 ? await playerSession(env, FIXTURE_GAME, true) : await cheapSession(env, FIXTURE_GAME, true));
      await sleep(3000);
      const stop = meters(env);
      const { result: v, fps } = await peerFps(env, live, () => sampleVideo(live[0].player!.page, opts.windowMs));
      const cpu = stop();
      const all = [v.fpsMedian, ...fps];
      const step: Step = {
        n,
        ok: Math.min(...all) >= GOAL.fps,
        why: Math.min(...all) >= GOAL.fps ? '' : `${Math.min(...all).toFixed(1)} fps < ${GOAL.fps}`,
        ...cpu,
        pssPerSession: pssPerSessionMb(env.host),
        playerFps: v.fpsMedian,
        peersMinFps: fps.length ? Math.min(...fps) : NaN,
        load: os.loadavg()[0],
      };
      steps.push(step);
      opts.log(
        `  … ${n} moving session(s): real player ${v.fpsMedian.toFixed(0)} fps (${v.width}x${v.height}), cheap peers ≥ ${Number.isFinite(step.peersMinFps!) ? step.peersMinFps!.toFixed(1) : '–'} fps, host CPU ${cpu.hostCpu.toFixed(0)}%, peers ${cpu.peersCpu.toFixed(0)}%, player ${cpu.playerCpu.toFixed(0)}%, steal ${cpu.steal.toFixed(0)}%, ${step.pssPerSession.toFixed(0)} MB/session${step.ok ? '' : ` — FAILS: ${step.why}`}`,
      );
      if (!step.ok && !opts.keepGoing) break;
    }
  } finally {
    await endAll(env, live);
  }
  return steps;
}

/** The count held: the steps before the first failing one (0 when the first failed). */
export const held = (steps: Step[]): number => {
  const bad = steps.findIndex((s) => !s.ok);
  return bad < 0 ? steps.length : bad;
};
