/**
 * Test players with probes, for benches and tests that need more than window.player gives:
 * the received video's inbound-rtp stats, the first presented frame, input-to-photon latency
 * measured from the received video (requestVideoFrameCallback + pixel comparison), and a log of
 * the page's signalling WebSocket (frames and close codes).
 *
 * - `launchPlayerBrowser(pages)`: one player Chromium (a persistent context in a private folder,
 *   so the process table can tell all of its processes apart, crashpad's handler included);
 *   `newPlayer()` opens one more test player page (player-page.ts, served by a FakeApi) in it.
 * - `instrumentPage(page)`: the same probe for a page opened elsewhere (init script + reload).
 * - `newPlayer({ jitterTarget: false })`: the receiver as before issue 11 (the player's
 *   jitterBufferTarget setting made a no-op), for the benches' before/after.
 *
 * The probe wraps RTCPeerConnection and WebSocket (recording every instance); the player's own
 * code is unchanged. The page code is plain JavaScript text, so it runs the same under tsx and
 * Jest.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import type { HostMessage } from '../../../lib/streaming/messages';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../shared/chromium';
import { listProcs, type ProcInfo } from '../procs';
import type { FakeApi } from './fake-api';

const PROBE_SCRIPT = String.raw`
(() => {
  if (window.__probe) return;
  const pcs = [];
  const sig = [];
  const NativePC = window.RTCPeerConnection;
  window.RTCPeerConnection = class extends NativePC {
    constructor(...args) {
      super(...args);
      pcs.push(this);
    }
  };
  const NativeWS = window.WebSocket;
  window.WebSocket = class extends NativeWS {
    constructor(url, protocols) {
      super(url, protocols);
      const rec = { url: String(url).replace(/token=[^&]*/, 'token=…'), opened: false, frames: [], close: null };
      sig.push(rec);
      this.addEventListener('open', () => { rec.opened = true; });
      // whole frames, except long ones (SDP): those are cut and marked
      this.addEventListener('message', (e) => { rec.frames.push(typeof e.data !== 'string' ? '(binary)' : e.data.length > 1000 ? e.data.slice(0, 200) + '…(cut)' : e.data); });
      this.addEventListener('close', (e) => { rec.close = { code: e.code, reason: e.reason, at: Date.now() }; });
    }
  };
  const video = () => document.getElementById('v');
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const nextFrame = (v, ms) => new Promise((resolve) => {
    let done = false;
    const t = setTimeout(() => { done = true; resolve(null); }, ms);
    v.requestVideoFrameCallback((now, meta) => { if (done) return; clearTimeout(t); resolve({ now, meta }); });
  });
  window.__probe = {
    pcs,
    sig,
    /** inbound-rtp video of the newest peer connection (null before one exists). */
    async inbound() {
      const pc = pcs[pcs.length - 1];
      if (!pc || pc.connectionState === 'closed') return null;
      const report = await pc.getStats();
      let out = null;
      report.forEach((s) => {
        if (s.type === 'inbound-rtp' && s.kind === 'video') {
          out = { fps: s.framesPerSecond ?? 0, width: s.frameWidth ?? 0, height: s.frameHeight ?? 0, decoded: s.framesDecoded ?? 0,
                  dropped: s.framesDropped ?? 0, bytes: s.bytesReceived ?? 0, at: s.timestamp, codec: s.codecId ?? '',
                  jitterBufferDelay: s.jitterBufferDelay ?? 0, jitterBufferEmitted: s.jitterBufferEmittedCount ?? 0,
                  decodeTime: s.totalDecodeTime ?? 0 };
        }
      });
      return out;
    },
    /** performance.now() of the first presented video frame after this call (null on timeout). */
    firstFrame(timeoutMs) {
      const v = video();
      const start = v.getVideoPlaybackQuality().totalVideoFrames;
      return new Promise((resolve) => {
        let done = false;
        const finish = (t) => { if (done) return; done = true; clearInterval(iv); clearTimeout(to); resolve(t); };
        v.requestVideoFrameCallback((now) => finish(now));
        // rVFC needs a source; a decoded-frame counter catches the frame too
        const iv = setInterval(() => { if (v.getVideoPlaybackQuality().totalVideoFrames > start) finish(performance.now()); }, 4);
        const to = setTimeout(() => finish(null), timeoutMs);
      });
    },
    /**
     * Sends a key (down + up) on the data channel and waits for the received video to change in
     * region [x0, y0, x1, y1] (0..1 of the frame). Per sample: the picture on screen and the
     * frames that follow within 250 ms each (their noise sets the threshold), send, then compare
     * every presented frame. Returns one entry per sample.
     */
    async keyLatency(opts) {
      const { key, samples, gapMs = 300, region = [0, 0, 1, 1], timeoutMs = 2000, minDiff = 6 } = opts;
      const v = video();
      const W = 320, H = 180;
      const c = document.createElement('canvas');
      c.width = W; c.height = H;
      const g = c.getContext('2d', { willReadFrequently: true });
      const x0 = Math.floor(region[0] * W), y0 = Math.floor(region[1] * H);
      const rw = Math.max(1, Math.floor(region[2] * W) - x0), rh = Math.max(1, Math.floor(region[3] * H) - y0);
      const grab = () => {
        g.drawImage(v, 0, 0, W, H);
        const d = g.getImageData(x0, y0, rw, rh).data;
        const out = new Uint8Array(d.length / 4);
        for (let i = 0; i < out.length; i++) out[i] = (d[4 * i] * 2 + d[4 * i + 1] * 5 + d[4 * i + 2]) >> 3;
        return out;
      };
      const diff = (a, b) => { let s = 0; for (let i = 0; i < a.length; i++) s += Math.abs(a[i] - b[i]); return s / a.length; };
      const results = [];
      for (let n = 0; n < samples; n++) {
        // a random phase against the frame cadence
        await sleep(gapMs + Math.random() * 100);
        // the picture on screen is the baseline: a host that sends frames only when the picture
        // changes (issue 11) may send none for seconds on a still scene
        if (!v.videoWidth) { results.push({ error: 'no video before the input' }); continue; }
        let f = await nextFrame(v, 100);
        let base = grab();
        let noise = 0;
        for (let k = 0; k < 3; k++) {
          f = await nextFrame(v, 250);
          if (!f) break; // a static scene may send few frames: what we have is the baseline
          const cur = grab();
          noise = Math.max(noise, diff(base, cur));
          base = cur;
        }
        const threshold = Math.max(minDiff, noise * 4);
        const t0 = performance.now();
        window.player.send({ v: 1, type: 'key', kind: 'down', key });
        window.player.send({ v: 1, type: 'key', kind: 'up', key });
        let hit = null;
        let frames = 0;
        while (performance.now() - t0 < timeoutMs) {
          const fr = await nextFrame(v, timeoutMs);
          if (!fr) break;
          frames++;
          const d = diff(base, grab());
          if (d > threshold) {
            const m = fr.meta;
            hit = { presentedMs: fr.now - t0, displayMs: (m.expectedDisplayTime ?? fr.now) - t0,
                    submittedMs: m.presentationTime !== undefined ? m.presentationTime - t0 : null,
                    receivedMs: m.receiveTime !== undefined ? m.receiveTime - t0 : null,
                    decodeMs: m.processingDuration !== undefined ? m.processingDuration * 1000 : null,
                    diff: d, threshold, frames };
            break;
          }
        }
        results.push(hit ?? { error: 'no change seen within ' + timeoutMs + ' ms', threshold, frames });
      }
      return results;
    },
  };
})();
`;

/**
 * The receiver as before issue 11: the player's code sets RTCRtpReceiver.jitterBufferTarget
 * (lib/streaming/webrtc/subscriber.ts); this makes that setter (and Chromium's older
 * playoutDelayHint) do nothing, so the browser keeps its default jitter buffer. The player's code
 * still sees the property, so it runs unchanged.
 */
const DEFAULT_JITTER_SCRIPT = String.raw`
(() => {
  for (const name of ['jitterBufferTarget', 'playoutDelayHint']) {
    const d = Object.getOwnPropertyDescriptor(RTCRtpReceiver.prototype, name);
    if (d && d.configurable) Object.defineProperty(RTCRtpReceiver.prototype, name, { configurable: true, enumerable: d.enumerable, get: d.get, set() {} });
  }
})();
`;

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
}

export interface LatencySample {
  /** rVFC callback time − send time. */
  presentedMs?: number;
  /** metadata.expectedDisplayTime − send time (the photon). */
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
   * player's jitterBufferTarget setting neutralised; default true: the player's code as it is).
   */
  newPlayer(opts?: { jitterTarget?: boolean }): Promise<ProbedPlayer>;
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
