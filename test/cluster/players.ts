/**
 * Test players for the cluster suite: one headless Debian Chromium, a context per player, each on
 * the host tests' player page (server/host/testing/player-page.ts: the real WebRtcSubscriber), served
 * from a loopback server here. An init script makes the page's peer connections use the ICE servers
 * of the session's token (TURN included) and, for a relay-only player, `iceTransportPolicy:
 * 'relay'`; it also records every frame the page's signalling sockets receive, so a test can see
 * what the player was told (`closed`, `peer-left`).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../server/shared/chromium';
import { bundlePageScript } from '../../server/shared/page-script';
import { getToken, until, type TokenAnswer, type User } from './cluster-client';

type IceServer = TokenAnswer['webrtc_ice_servers'][number];

interface PageOptions {
  iceServers: IceServer[] | null;
  relayOnly: boolean;
}

declare global {
  interface Window {
    __signalFrames: { type: string; [k: string]: unknown }[];
    __peers: RTCPeerConnection[];
    __OriginalPeerConnection: typeof RTCPeerConnection;
  }
}

/** Runs in the page before its scripts (serialised by Playwright: self-contained). */
function instrument(o: PageOptions) {
  const Original = window.RTCPeerConnection;
  window.__OriginalPeerConnection = Original;
  window.__peers = [];
  window.__signalFrames = [];
  class Instrumented extends Original {
    constructor(config: RTCConfiguration = {}) {
      super({ ...config, ...(o.iceServers ? { iceServers: o.iceServers } : {}), ...(o.relayOnly ? { iceTransportPolicy: 'relay' as const } : {}) });
      window.__peers.push(this);
    }
  }
  window.RTCPeerConnection = Instrumented;
  const OriginalSocket = window.WebSocket;
  class RecordingSocket extends OriginalSocket {
    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols);
      this.addEventListener('message', (e) => {
        try {
          window.__signalFrames.push(JSON.parse(String(e.data)));
        } catch {
          /* not JSON */
        }
      });
    }
  }
  window.WebSocket = RecordingSocket;
}

export interface Player {
  page: Page;
  sessionId: string;
  /** Decoded video so far (the <video>'s playback quality). */
  video(): Promise<{ width: number; height: number; frames: number }>;
  /** Waits until at least `more` new frames were decoded. */
  waitForFrames(more?: number, ms?: number): Promise<number>;
  /** The local candidate type of the connection's selected pair: host, srflx, relay. */
  candidateType(): Promise<string | null>;
  signalFrames(): Promise<{ type: string; [k: string]: unknown }[]>;
  /** Sends a ping on the data channel (player input); the host answers pong with the same t. */
  ping(t: number): Promise<boolean>;
  pongs(): Promise<number[]>;
  states(): Promise<string[]>;
  close(): Promise<void>;
}

export class Players {
  private browser: Browser | null = null;
  private server: http.Server | null = null;
  private origin = '';
  private readonly contexts: BrowserContext[] = [];

  async start(): Promise<void> {
    const js = await bundlePageScript(path.join(__dirname, '..', '..', 'server', 'host', 'testing', 'player-page.ts'));
    const html = '<!doctype html><html><body style="margin:0;background:#000"><video id="v" autoplay playsinline muted style="width:1280px;height:720px"></video><script src="/player.js"></script></body></html>';
    this.server = http.createServer((req, res) => {
      const js_ = req.url === '/player.js';
      res.writeHead(js_ || req.url === '/player.html' ? 200 : 404, { 'content-type': js_ ? 'text/javascript' : 'text/html' });
      res.end(js_ ? js : req.url === '/player.html' ? html : '');
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    this.browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: [...CHROMIUM_ARGS], handleSIGTERM: false, handleSIGINT: false });
  }

  /** A page on the player page, instrumented (not joined yet). */
  async page(o: PageOptions = { iceServers: null, relayOnly: false }): Promise<Page> {
    const context = await this.browser!.newContext({ viewport: { width: 1280, height: 720 } });
    this.contexts.push(context);
    await context.addInitScript(instrument, o);
    const page = await context.newPage();
    await page.goto(`${this.origin}/player.html`);
    await page.waitForFunction(() => !!window.player);
    return page;
  }

  /** Gets the session's token through HAProxy and joins with it (its ICE servers, TURN included). */
  async join(user: User, sessionId: string, o: { relayOnly?: boolean; token?: TokenAnswer } = {}): Promise<Player> {
    const token = o.token ?? (await getToken(user, sessionId));
    const page = await this.page({ iceServers: token.webrtc_ice_servers, relayOnly: !!o.relayOnly });
    await page.evaluate(([u, t]) => window.player.join(u, t), [token.webrtc_signal_url, token.webrtc_signal_token] as const);
    const video = () => page.evaluate(() => window.player.video());
    const player: Player = {
      page,
      sessionId,
      video,
      async waitForFrames(more = 1, ms = 45_000) {
        const start = (await video()).frames;
        return until(async () => {
          const v = await video();
          return v.frames >= start + more && v.width > 0 ? v.frames : null;
        }, `${more} more video frames for ${sessionId} (states ${(await page.evaluate(() => window.player.states)).join(',')})`, ms);
      },
      candidateType: () =>
        page.evaluate(async () => {
          for (const pc of window.__peers.filter((p) => p.connectionState === 'connected')) {
            const stats = await pc.getStats();
            let pairId: string | undefined;
            stats.forEach((s: { type: string; selectedCandidatePairId?: string }) => {
              if (s.type === 'transport' && s.selectedCandidatePairId) pairId = s.selectedCandidatePairId;
            });
            const pair = pairId ? (stats.get(pairId) as { localCandidateId?: string } | undefined) : undefined;
            const local = pair?.localCandidateId ? (stats.get(pair.localCandidateId) as { candidateType?: string } | undefined) : undefined;
            if (local?.candidateType) return local.candidateType;
          }
          return null;
        }),
      signalFrames: () => page.evaluate(() => window.__signalFrames),
      ping: (t) => page.evaluate((t_) => window.player.send({ v: 1, type: 'ping', t: t_ }), t),
      pongs: () => page.evaluate(() => window.player.messages.filter((m) => m.type === 'pong').map((m) => (m as { t: number }).t)),
      states: () => page.evaluate(() => window.player.states),
      close: () => page.context().close(),
    };
    return player;
  }

  /**
   * Gathers ICE candidates with these servers and relay only (no media, no signalling): which
   * candidate types came, and the errors (e.g. 401 from coturn for a refused credential).
   */
  async gatherRelay(iceServers: IceServer[]): Promise<{ types: string[]; errors: number[] }> {
    const page = await this.page();
    try {
      return await page.evaluate(async (servers) => {
        const pc = new window.__OriginalPeerConnection({ iceServers: servers, iceTransportPolicy: 'relay' });
        const types: string[] = [];
        const errors: number[] = [];
        pc.onicecandidateerror = (e) => errors.push((e as RTCPeerConnectionIceErrorEvent).errorCode);
        const done = new Promise<void>((resolve) => {
          pc.onicecandidate = (e) => (e.candidate ? types.push(e.candidate.type ?? 'unknown') : resolve());
          setTimeout(resolve, 10_000);
        });
        pc.createDataChannel('probe');
        await pc.setLocalDescription(await pc.createOffer());
        await done;
        pc.close();
        return { types, errors };
      }, iceServers);
    } finally {
      await page.context().close();
    }
  }

  async stop(): Promise<void> {
    for (const c of this.contexts.splice(0)) await c.close().catch(() => undefined);
    await this.browser?.close().catch(() => undefined);
    await new Promise((r) => (this.server ? this.server.close(r) : r(undefined)));
  }
}
