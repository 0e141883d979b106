/**
 * One session per host configuration, received by a cheap peer: the frame that
 * bench/host-cpu-profile.ts and bench/play-sender.ts share (issue 11). Not a bench by itself.
 *
 *   setUp()        builds the runtime, starts the play stack (bench/play-stack.ts: the real api
 *                  under with-services, else the fake api peer) and the cheap peers' process
 *                  (server/host/testing/cheap-peer-process.ts: werift, no decoding), bounds the
 *                  run (--minutes) and prints its header (machine, load, configurations);
 *   eachConfig()   a fresh host per configuration (bench/play-configs.ts: --config a,b,…),
 *                  stopped after it, whatever happened;
 *   storySession() the click, a cheap peer joined, into the story until its first line is typed;
 *                  `readingOn` presses Enter and '1' every 250 ms on the data channel, the
 *                  "reading on" of bench/play-host-cost.ts; `received()` what the peer got.
 * Every process started here is closed by `finish()` (play-common's cleanups).
 */
import os from 'node:os';
import type { Page } from 'playwright-core';
import { startCheapPeers, type CheapPeers } from '../server/host/testing/cheap-peer-process';
import type { TestAgent } from '../server/host/testing/harness';
import { describe, playConfigs, type PlayConfig } from './play-configs';
import { arg, bound, intoStory, machine, machineBusy, onCleanup, otherChromium, benchRuntime } from './play-common';
import { startPlayStack, type Click, type PlayStack } from './play-stack';
import { pageOf } from '../server/host/testing/page-runtime';

/** The keys and their period of "reading on" (as bench/play-host-cost.ts and play-capacity.ts). */
export const READING_KEYS = ['Enter', '1'];
export const READING_EVERY_MS = 250;

export interface Bench {
  configs: PlayConfig[];
  stack: PlayStack;
  peers: CheapPeers;
  /** The title the sessions play (--game; default hajimari-no-eki when built, else the fixture). */
  game: string;
}

/** What a cheap peer received over a window. */
export interface Received {
  fps: number;
  kbps: number;
  codec: string;
}

export interface StorySession {
  click: Click;
  peer: number;
  /** The session's runtime page (the publisher's). */
  page: Page;
  /**
   * Reading on (true: `keys`, default Enter and '1', every 250 ms) or stopped (false);
   * `releaseMs`: each key let go that long after it went down (default 0: at once).
   */
  readingOn(on: boolean, keys?: string[], releaseMs?: number): Promise<void>;
  /** Starts a window of the peer's reception; the function it returns ends it. */
  received(): Promise<() => Promise<Received>>;
  /** The peer leaves and the session ends (its runtime gone). */
  end(): Promise<void>;
}

/**
 * The run's stack, peers and configurations (`defConfigs` when no --config / --levers), bounded
 * to --minutes (default `minutesPerConfig` per configuration).
 */
export async function setUp(title: string, defConfigs: string, minutesPerConfig: number): Promise<Bench> {
  const configs = playConfigs(defConfigs);
  bound(Number(arg('minutes', String(minutesPerConfig * configs.length))) * 60_000);
  const { game } = await benchRuntime();
  const stack = await startPlayStack();
  onCleanup(() => stack.close());
  const peers = await startCheapPeers();
  onCleanup(() => peers.close());
  const busy = await machineBusy();
  console.log(`${title}: ${new Date().toISOString()}, api: ${stack.mode === 'api' ? 'real' : 'fake api peer'}, game ${game}`);
  console.log(`machine: ${machine()}; ${otherChromium(() => false)} other Chromium processes running; CPU busy before the run (3 s): ${busy.toFixed(0)}% of all cores`);
  for (const c of configs) console.log(`  config ${describe(c)}`);
  return { configs, stack, peers, game };
}

/**
 * Runs `fn` on a fresh host per configuration (`hostEnv`, then the configuration's settings);
 * a configuration that fails is reported and left out of the result.
 */
export async function eachConfig<F>(b: Bench, hostEnv: Record<string, string>, fn: (cfg: PlayConfig, host: TestAgent) => Promise<F>): Promise<Map<string, F>> {
  const out = new Map<string, F>();
  for (const cfg of b.configs) {
    console.log(`\n[${cfg.name}] ${new Date().toISOString().slice(11, 19)} UTC, load ${os.loadavg()[0].toFixed(1)}`);
    const host = await b.stack.startHost({ ...hostEnv, ...cfg.hostEnv });
    onCleanup(() => host.stop());
    try {
      out.set(cfg.name, await fn(cfg, host));
    } catch (e) {
      console.error(`[${cfg.name}] stopped: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      await host.stop();
    }
  }
  return out;
}

/** A session of `b.game` on `host`, a cheap peer joined, in the story with its first line typed. */
export async function storySession(b: Bench, host: TestAgent): Promise<StorySession> {
  const click = await b.stack.click(host, b.game, { poll: 'fast' });
  let peer = -1;
  try {
    peer = await b.peers.join(click.signal.url, click.signal.token);
    await intoStory(host, click.sid, (k) => b.peers.key(peer, k));
  } catch (e) {
    if (peer >= 0) await b.peers.leave(peer).catch(() => undefined);
    await click.end().catch(() => undefined);
    throw e;
  }
  const page = pageOf(host.agent.sessions.get(click.sid)!.runtime).livePage;
  return {
    click,
    peer,
    page,
    readingOn: (on, keys = READING_KEYS, releaseMs = 0) => b.peers.keysEvery(peer, on ? keys : [], on ? READING_EVERY_MS : 0, releaseMs),
    async received() {
      const a = await b.peers.stats(peer);
      return async () => {
        const z = await b.peers.stats(peer);
        const dt = Math.max(1, z.at - a.at);
        return { fps: ((z.frames - a.frames) * 1000) / dt, kbps: ((z.bytes - a.bytes) * 8) / dt, codec: z.codec };
      };
    },
    async end() {
      await b.peers.leave(peer).catch(() => undefined);
      await click.end();
    },
  };
}
