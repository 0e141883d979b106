/**
 * Test players with probes, for benches and tests that need more than window.player gives:
 * the received video's inbound-rtp stats, the first presented frame, input-to-photon latency
 * measured from the received video (requestVideoFrameCallback + pixel comparison), a log of
 * the page's signalling WebSocket (frames and close codes), and its connection timeline.
 *
 * - `launchPlayerBrowser(pages)`: one player Chromium (a persistent context in a private folder,
 *   so the process table can tell all of its processes apart, crashpad's handler included);
 *   `newPlayer()` opens one more test player page (player-page.ts, served by a FakeApi) in it.
 * - `instrumentPage(page)`: the same probe for a page opened elsewhere (init script + reload).
 * - `newPlayer({ jitterTarget: false, answerFirst: false })`: the receiver as before issue 11
 *   (the player's jitterBufferTarget setting made a no-op; the answer sent after it is applied),
 *   for the benches' before/after.
 * - `playerTimeline(page)`: where a join's time goes (bench/play-timeline.ts): every signalling
 *   frame sent and received by type, the sockets' open / close, each peer connection's creation,
 *   connection and ICE state changes, tracks and data channel, and each first frame
 *   `firstFrame()` saw, in Date.now() ms (the clock the bench and the host share).
 *
 * The page code (player-probe-script.ts) wraps RTCPeerConnection and WebSocket (recording every
 * instance); the player's own code is unchanged.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import type { HostMessage } from '../../../lib/streaming/messages';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../shared/chromium';
import { listProcs, type ProcInfo } from '../procs';
import type { FakeApi } from './fake-api';
import { ANSWER_AFTER_APPLY_SCRIPT, DEFAULT_JITTER_SCRIPT, PROBE_SCRIPT } from './player-probe-script';

export interface InboundVideo {
  fps: number;
  width: number;
  height: number;
  decoded: number;
  dropped: number;
  bytes: number;
  at: number;
  codec: string;
  /** Seconds spent in the jitter buffer, summed over jitterBufferEmitted frames. */
  jitterBufferDelay: number;
  jitterBufferEmitted: number;
  /** Seconds spent decoding, summed over `decoded` frames. */
  decodeTime: number;
  /** Packets lost and NACKs sent (retransmissions asked for). */
  lost: number;
  nacks: number;
}

export interface LatencySample {
  /**
   * Input-to-photon: the requestVideoFrameCallback time of the first frame showing the change −
   * send time (the frame is the video's picture from then on: the probe reads its pixels there).
   */
  photonMs?: number;
  /** rVFC callback time − send time (the same as photonMs). */
  presentedMs?: number;
  /**
   * metadata.expectedDisplayTime − send time: the same as the callback's time on the jitter
   * buffer's path, stale on the low-latency path (playout delay 0), so not the figure.
   */
  displayMs?: number;
  /** metadata.presentationTime − send time (frame submitted for composition). */
  submittedMs?: number | null;
  /** metadata.receiveTime − send time (the frame's last packet arrived). */
  receivedMs?: number | null;
  /** metadata.processingDuration: the frame's decode time. */
  decodeMs?: number | null;
  diff?: number;
  threshold?: number;
  frames?: number;
  error?: string;
}

export interface SignalSocketLog {
  url: string;
  opened: boolean;
  /** Text frames received, whole up to 1000 characters (longer ones cut, ending in "…(cut)"). */
  frames: string[];
  close: { code: number; reason: string; at: number } | null;
}

export async function instrumentPage(page: Page): Promise<void> {
  await page.addInitScript({ content: PROBE_SCRIPT });
  await page.reload();
  await page.waitForFunction('!!window.player && !!window.__probe');
}

/** Evaluates `window.__probe.<fn>(...args)` in the page. */
function probe<T>(page: Page, fn: string, ...args: unknown[]): Promise<T> {
  return page.evaluate(`window.__probe.${fn}(...${JSON.stringify(args)})`) as Promise<T>;
}

export const inboundVideo = (page: Page): Promise<InboundVideo | null> => probe(page, 'inbound');

/** Resolves with the page's performance.now() of the next presented frame (null on timeout). */
export const firstFrame = (page: Page, timeoutMs = 30_000): Promise<number | null> => probe(page, 'firstFrame', timeoutMs);

export const keyLatency = (
  page: Page,
  opts: { key: string; samples: number; gapMs?: number; region?: [number, number, number, number]; timeoutMs?: number; minDiff?: number },
): Promise<LatencySample[]> => probe(page, 'keyLatency', opts);

export const signalLog = (page: Page): Promise<SignalSocketLog[]> => page.evaluate('window.__probe.sig') as Promise<SignalSocketLog[]>;

/** One entry of a player page's connection timeline, in the order it happened. */
export interface TimelineEvent {
  /** Date.now() ms (the first frame's: its performance.now() time converted when taken). */
  at: number;
  /**
   * 'ws:new' | 'ws:open' | 'ws:close' (detail: the close code); 'rx:<type>' / 'tx:<type>': a
   * signalling frame received / sent (offer, answer, ice, peer-joined (detail: the role), …);
   * 'pc:new', 'pc:connection:<connectionState>', 'pc:ice:<iceConnectionState>',
   * 'pc:track:<kind>', 'pc:datachannel' (detail: its label); 'video:first-frame'.
   */
  ev: string;
  /** Which signalling socket ('ws:', 'rx:', 'tx:') or peer connection ('pc:'), from 0. */
  n?: number;
  detail?: string;
}

/** The page's connection timeline so far (a fresh one per page load). */
export const playerTimeline = (page: Page): Promise<TimelineEvent[]> => page.evaluate('window.__probe.timeline') as Promise<TimelineEvent[]>;

/**
 * Samples inbound-rtp over `ms`: framesPerSecond readings (one per `everyMs`), the decoded
 * frame rate over the window, and the resolution at the end.
 */
export async function sampleVideo(
  page: Page,
  ms: number,
  everyMs = 1000,
): Promise<{ fpsReadings: number[]; fpsMedian: number; decodedFps: number; width: number; height: number; dropped: number; kbps: number }> {
  const first = await inboundVideo(page);
  const readings: number[] = [];
  let last = first;
  const end = Date.now() + ms;
  while (Date.now() < end) {
    await new Promise((r) => setTimeout(r, Math.min(everyMs, Math.max(0, end - Date.now()))));
    const s = await inboundVideo(page);
    if (s) {
      readings.push(s.fps);
      last = s;
    }
  }
  const dt = first && last ? (last.at - first.at) / 1000 : 0;
  const sorted = [...readings].sort((a, b) => a - b);
  return {
    fpsReadings: readings,
    fpsMedian: sorted.length ? sorted[Math.floor((sorted.length - 1) / 2)] : 0,
    decodedFps: dt > 0 ? (last!.decoded - first!.decoded) / dt : 0,
    width: last?.width ?? 0,
    height: last?.height ?? 0,
    dropped: last && first ? last.dropped - first.dropped : 0,
    kbps: dt > 0 ? ((last!.bytes - first!.bytes) * 8) / 1000 / dt : 0,
  };
}

export interface ProbedPlayer {
  page: Page;
  /** Joins a FakeApi session (its own tokens). */
  join(sid: string): Promise<void>;
  /** Joins with a real signal URL and token (from the api's get_token). */
  joinWith(signalUrl: string, token: string): Promise<void>;
  messages(): Promise<HostMessage[]>;
  states(): Promise<string[]>;
  waitForMessage(type: string, ms?: number, pred?: (m: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
  /** Leaves the session (signalling closed, peer connection closed). */
  leave(): Promise<void>;
  /** Closes the page. */
  close(): Promise<void>;
}

export interface PlayerBrowser {
  context: BrowserContext;
  /** The private folder every process of this browser names (profile, crashpad database). */
  dir: string;
  /**
   * One more test player page. `jitterTarget: false` = the receiver as before issue 11 (the
   * player's jitterBufferTarget setting neutralised; default true: the player's code as it is);
   * `answerFirst: false` = the answer sent after it is applied (ANSWER_AFTER_APPLY_SCRIPT).
   */
  newPlayer(opts?: { jitterTarget?: boolean; answerFirst?: boolean }): Promise<ProbedPlayer>;
  /** This browser's living processes. */
  procs(): ProcInfo[];
  /** Closes the browser, SIGKILLs anything left of it, removes its folder. Idempotent. */
  close(): Promise<void>;
}

/** A player Chromium whose pages are test players (served by `pages`) with the probe. */
export async function launchPlayerBrowser(pages: FakeApi): Promise<PlayerBrowser> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'yumecast-player-'));
  const procs = () => listProcs().filter((p) => p.state !== 'Z' && p.state !== 'X' && p.cmdline.includes(dir));
  const context = await chromium.launchPersistentContext(path.join(dir, 'profile'), {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [...CHROMIUM_ARGS],
    viewport: { width: 1280, height: 720 },
    handleSIGTERM: false,
    handleSIGINT: false,
    handleSIGHUP: false,
    // crashpad's handler leaves the browser's process group; this makes it name `dir` too
    env: { ...process.env, XDG_CONFIG_HOME: path.join(dir, 'xdg-config'), XDG_CACHE_HOME: path.join(dir, 'xdg-cache') } as Record<string, string>,
  });
  await context.grantPermissions(['camera', 'microphone'], { origin: pages.url });
  await context.addInitScript({ content: PROBE_SCRIPT });
  let spare: Page | null = context.pages()[0] ?? null;
  let closed: Promise<void> | null = null;
  return {
    context,
    dir,
    procs,
    async newPlayer(opts = {}) {
      const page = spare ?? (await context.newPage());
      spare = null;
      if (opts.jitterTarget === false) await page.addInitScript({ content: DEFAULT_JITTER_SCRIPT });
      if (opts.answerFirst === false) await page.addInitScript({ content: ANSWER_AFTER_APPLY_SCRIPT });
      await page.goto(`${pages.url}/player.html`);
      await page.waitForFunction('!!window.player && !!window.__probe');
      const messages = () => page.evaluate('window.player.messages') as Promise<HostMessage[]>;
      const joinWith = (u: string, t: string) => page.evaluate(`window.player.join(${JSON.stringify(u)}, ${JSON.stringify(t)})`) as Promise<void>;
      return {
        page,
        join: (sid) => joinWith(pages.signalUrl, pages.playerToken(sid)),
        joinWith,
        messages,
        states: () => page.evaluate('window.player.states') as Promise<string[]>,
        async waitForMessage(type, ms = 10_000, pred = () => true) {
          const end = Date.now() + ms;
          for (;;) {
            const m = (await messages()).find((x) => x.type === type && pred(x as unknown as Record<string, unknown>));
            if (m) return m as unknown as Record<string, unknown>;
            if (Date.now() > end) throw new Error(`player: no ${type} message within ${ms} ms; got ${JSON.stringify(await messages()).slice(0, 500)}`);
            await new Promise((r) => setTimeout(r, 25));
          }
        },
        leave: () => page.evaluate('window.player.leave()') as Promise<void>,
        close: () => page.close(),
      };
    },
    close() {
      closed ??= (async () => {
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([context.close().catch(() => undefined), new Promise((r) => (timer = setTimeout(r, 5000)))]);
        clearTimeout(timer);
        for (let i = 0; i < 60; i++) {
          const left = procs();
          if (left.length === 0) break;
          for (const p of left) {
            try {
              process.kill(p.pid, 'SIGKILL');
            } catch {
              /* gone */
            }
          }
          await new Promise((r) => setTimeout(r, 50));
        }
        fs.rmSync(dir, { recursive: true, force: true });
      })();
      return closed;
    },
  };
}
