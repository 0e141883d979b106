/**
 * One session in a light runtime's worker process (./worker.ts; docs/light-runtime.md "The
 * session's glue"): what the page's bridge (../page/bridge.ts) does for a session, with the
 * engine in Node and GStreamer as the transport. neko-style, each part apart:
 *   capture   = runtime/node/runtime.ts's LightRuntime: runtime/src's engine drawing into a Node
 *               canvas when the picture changes (frames.ts's `change` mode), its pixels handed
 *               to the sender at each draw;
 *   transport = runtime/node/sender.ts (sender.py: webrtcbin, VP8 + Opus, the "input" channel);
 *               the signalling is the api's /v1/signal through lib/streaming's SignalClient (on
 *               the `ws` package's socket): a player's `peer-joined` makes the sender's fresh
 *               connection and offer, answer and ICE are relayed, the same page id is not offered
 *               again while its connection is up (as the page's publisher);
 *   input     = every raw channel message through the session's rules (../session-rules.ts, the
 *               page bridge's own): rate limit → parse → the engine's applyInput, quality (the
 *               engine's and the encoder's bitrate), screenshot (the agent's upload), ping → pong;
 *   text      = the engine's lines and choices → ../page/textRelay.ts, as on a page.
 * The agent's side of the calls (screenshot upload, input activity, connection, end) and the
 * engine's events go through `ports` (the worker's IPC).
 */
import WebSocket from 'ws';
import { serializeMessage, type HostMessage, type QualityLevel } from '../../../lib/streaming/messages';
import type { SignalMessage } from '../../../lib/streaming/signal';
import { QUALITY_PROFILES } from '../../../lib/streaming/types';
import { SignalClient } from '../../../lib/streaming/webrtc/signalClient';
import { LightRuntime } from '../../../runtime/node/runtime';
import { LightSender, type SenderEvent } from '../../../runtime/node/sender';
import type { EngineState } from '../../../runtime/src/types';
import type { BridgeCounters, BridgeReadyInfo } from '../bridge-protocol';
import { TextRelay } from '../page/textRelay';
import { SessionRules, type CallHost } from '../session-rules';
import type { WorkerMethods } from './worker-protocol';

/** The picture's size (the engine's W × H). */
const WIDTH = 1280;
const HEIGHT = 720;
/** How long `ready` waits for the signalling to open (as the page's bridge). */
const SIGNAL_OPEN_MS = 5000;
/** The engine's events the agent hears (saves and endings go to the api). */
const AGENT_EVENTS = ['save', 'autosave', 'ending', 'error'] as const;

export interface LightSessionPorts {
  callHost: CallHost;
  event(name: string, payload: unknown): void;
  log(level: 'info' | 'warn' | 'error', message: string): void;
}

/** An RTCIceServer's URLs as webrtcbin takes them: `stun://host:port`, `turn://user:pass@host:port`. */
export function iceForSender(servers: readonly RTCIceServer[]): { stun?: string; turn: string[] } {
  let stun: string | undefined;
  const turn: string[] = [];
  for (const s of servers) {
    for (const url of Array.isArray(s.urls) ? s.urls : [s.urls]) {
      const m = /^(stuns?|turns?):([^?]+)(\?.*)?$/.exec(String(url));
      if (!m) continue;
      if (m[1].startsWith('stun')) stun ??= `stun://${m[2]}`;
      else if (s.username && typeof s.credential === 'string') turn.push(`${m[1]}://${encodeURIComponent(s.username)}:${encodeURIComponent(s.credential)}@${m[2]}${m[3] ?? ''}`);
    }
  }
  return { stun, turn };
}

export class LightSession {
  private rules: SessionRules | null = null;
  private sender: LightSender | null = null;
  private signal: SignalClient | null = null;
  private text: TextRelay | null = null;
  private detach: (() => void)[] = [];
  /** The page id last offered to, and the state of the sender's connection to it. */
  private offeredTo: string | undefined;
  private pcState = 'new';
  private channelOpen = false;
  private signalOpens = 0;
  private closed = false;

  constructor(
    private readonly runtime: LightRuntime,
    /** The session's own folder (the sender's frames file), made and removed by the agent. */
    private readonly dir: string,
    private readonly ports: LightSessionPorts,
  ) {}

  /** Starts the game and the sender, opens the signalling; resolves when the host may report `ready`. */
  async begin(a: WorkerMethods['begin']['args']): Promise<BridgeReadyInfo> {
    if (this.rules) throw new Error('this runtime already runs a session');
    const t0 = performance.now();
    const { cfg } = a;
    const rt = this.runtime;
    const rules = new SessionRules(cfg, {
      send: (m) => this.send(m),
      callHost: this.ports.callHost,
      applyInput: (m) => rt.applyInput(m),
      setQuality: (level) => this.setQuality(level),
      refreshFrames: () => rt.refreshFrames(),
      flushText: () => this.text?.flush(),
    });
    this.rules = rules;
    rt.setQuality(cfg.quality);
    // before start: a resumed save shows its line during start, and the player reads it on ready
    this.text = new TextRelay((m) => this.send(m));
    this.detach.push(this.text.attach(rt.events));
    for (const name of AGENT_EVENTS) this.detach.push(rt.events.on(name, (payload) => this.ports.event(name, payload)));
    // GStreamer's start (its plugins, ~0.3–1 s) runs while the engine loads the game
    const ice = iceForSender(cfg.iceServers);
    const senderStart = LightSender.start({
      width: WIDTH,
      height: HEIGHT,
      dir: this.dir,
      bitrate: QUALITY_PROFILES[cfg.quality].maxBitrate,
      cpuUsed: a.cpuUsed,
      stun: ice.stun,
      turn: ice.turn,
      script: a.senderScript,
      python: a.python,
    });
    senderStart.catch(() => undefined);
    const info = await rt.start({ gameId: cfg.gameId, sessionId: cfg.sessionId, assetBase: cfg.assetBase, storyUrl: cfg.storyUrl, state: cfg.resumeState ?? undefined, saves: cfg.saves, fps: cfg.captureFps });
    const startMs = performance.now() - t0;
    const sender = await senderStart;
    if (this.closed) {
      await sender.close();
      throw new Error('session ended while starting');
    }
    this.sender = sender;
    sender.on((e) => this.onSender(e));
    rt.onFrame = () => sender.frame(rt.pixels());
    rt.refreshFrames();
    rules.streamIn();
    const open = await this.openSignal(cfg.signalUrl, cfg.signalToken);
    if (!open) this.ports.log('warn', 'signalling not open after 5 s; reporting ready anyway');
    rules.started();
    return { gameId: info.gameId, title: info.title, startMs: Math.round(startMs), beginMs: Math.round(performance.now() - t0) };
  }

  /** Opens the api's signalling for this session; resolves true once open (false after SIGNAL_OPEN_MS). */
  private openSignal(url: string, token: string): Promise<boolean> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), SIGNAL_OPEN_MS);
      this.signal = new SignalClient({
        url,
        token,
        open: (u) => new WebSocket(u, { maxPayload: 256 * 1024 }) as unknown as globalThis.WebSocket,
        onMessage: (m) => this.onSignal(m),
        onOpen: () => {
          this.signalOpens++;
          clearTimeout(timer);
          resolve(true);
        },
        // the api refused the signalling for good (session closed, token invalid)
        onRefused: () => this.rules?.onConnection('closed'),
      });
      this.signal.connect();
    });
  }

  private onSignal(m: SignalMessage): void {
    const rules = this.rules;
    if (!rules || rules.isEnded || !this.sender) return;
    if (m.type === 'peer-joined' && m.role === 'player') {
      rules.onPeerJoined();
      // the same page again with our connection to it up: only a signalling socket reconnected
      if (m.peer && m.peer === this.offeredTo && this.pcState === 'connected') return;
      this.offeredTo = m.peer;
      this.channelOpen = false;
      this.sender.send({ type: 'offer' });
    } else if (m.type === 'peer-left' && m.role === 'player') {
      rules.onPlayerGone();
    } else if (m.type === 'answer') {
      this.sender.send({ type: 'answer', sdp: m.sdp });
    } else if (m.type === 'ice' && m.candidate) {
      this.sender.send({ type: 'ice', candidate: m.candidate });
    }
  }

  private onSender(e: SenderEvent): void {
    const rules = this.rules;
    if (!rules) return;
    switch (e.type) {
      case 'offer':
        this.signal?.send({ type: 'offer', sdp: e.sdp });
        return;
      case 'ice':
        if (e.candidate) this.signal?.send({ type: 'ice', candidate: e.candidate });
        return;
      case 'state':
        this.pcState = e.state;
        // a connection torn down for the next offer says `closed`: only the signalling's refusal ends the session
        if (e.state === 'connected' || e.state === 'disconnected' || e.state === 'failed') rules.onConnection(e.state);
        return;
      case 'channel':
        this.channelOpen = e.state === 'open';
        return;
      case 'message':
        rules.onRaw(e.data);
        return;
      case 'error':
        this.ports.log('warn', `sender: ${e.message.slice(0, 300)}`);
        return;
    }
  }

  private async setQuality(level: QualityLevel): Promise<void> {
    this.runtime.setQuality(level);
    this.sender?.send({ type: 'bitrate', bps: QUALITY_PROFILES[level].maxBitrate });
  }

  private send(msg: HostMessage): boolean {
    if (!this.channelOpen || !this.sender) return false;
    this.sender.send({ type: 'send', data: serializeMessage(msg) });
    return true;
  }

  screenshot(): Buffer {
    return this.runtime.screenshot();
  }

  counters(): BridgeCounters {
    const extra = { signalOpens: this.signalOpens, offersAhead: 0, estimateMaxKbps: 0 };
    return this.rules!.counters(extra);
  }

  getState(): EngineState {
    return this.runtime.getState();
  }

  snapshot(): string | null {
    return this.runtime.snapshot();
  }

  /** `bye` to a connected player, then the signalling, the sender and the engine closed. */
  async bye(reason: string): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.rules?.end(reason);
    for (const d of this.detach.splice(0)) d();
    // give the bye a moment to leave before the connection goes
    await new Promise((r) => setTimeout(r, 60));
    this.signal?.close();
    await this.sender?.close();
    this.runtime.close();
  }
}
