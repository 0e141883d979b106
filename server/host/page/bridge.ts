/**
 * The page-side bridge: runs inside the runtime's Chromium page next to the VN engine
 * (window.yumecast), bundled by the agent (server/host/bridge-bundle.ts) and loaded with it: a
 * runtime loads /runtime/host.html, the runtime's page with this script after the engine's
 * (server/host/page-paths.ts). neko-style separation:
 *   capture   = yumecast.captureStream(fps, { mode }), the engine's canvas + WebAudio
 *               MediaStream (frames on change or at the draw rate);
 *   transport = WebRtcPublisher (lib/streaming/webrtc/publisher.ts), signalling via the api,
 *               opened while the game loads when joinDuringStart (see begin), the preferred
 *               video codec first;
 *   input     = every raw data-channel message → RateLimiter → parsePlayerMessage →
 *               yumecast.applyInput (pointer, key, wheel) or the host's own handling
 *               (ping → pong, quality → publisher + engine, screenshot → the agent);
 *   text      = the engine's lines and choices, and its `cleared` → `line` / `choices` / `clear`
 *               messages (./textRelay.ts).
 * It also keeps the idle, join and reconnect timers of DESIGN §4 and counts what it dropped, and
 * runs a warm runtime's preload (./prewarm.ts).
 * Nothing a player sends reaches anything but applyInput, setQuality, pong or a screenshot.
 */
import {
  hostMessage,
  isInputMessage,
  parsePlayerMessage,
  type ByeReason,
  type HostErrorCode,
  type HostMessage,
  type QualityLevel,
} from '../../../lib/streaming/messages';
import { RateLimiter } from '../../../lib/streaming/rateLimiter';
import type { WebRtcToken } from '../../../lib/streaming/types';
import { WebRtcPublisher } from '../../../lib/streaming/webrtc/publisher';
import type { YumecastApi } from '../../../runtime/src/main';
import type {
  BridgeApi,
  BridgeCounters,
  BridgeEndReason,
  BridgeReadyInfo,
  BridgeSessionConfig,
  HostCall,
  PrewarmResult,
  ScreenshotCallResult,
} from '../bridge-protocol';
import type { PrewarmPlan } from '../prewarm';
import { installNativeEngine, type NativeEngine } from './native-engine';
import { prewarmPage } from './prewarm';
import { signalOpenCount, signalOpened } from './signalOpen';
import { TextRelay } from './textRelay';

type HostCallFn = (kind: HostCall['kind'], data: Omit<HostCall, 'kind'>) => Promise<unknown>;

declare global {
  interface Window {
    __yumecastHost?: BridgeApi;
    __yumecastHostCall?: HostCallFn;
  }
}

/** The VN runtime's API on the page, or null before its script has run. */
function loadedYumecast(): YumecastApi | null {
  return (window as unknown as { yumecast?: YumecastApi }).yumecast ?? null;
}

function yumecast(): YumecastApi {
  const y = loadedYumecast();
  if (!y) throw new Error('the VN runtime (window.yumecast) is not loaded');
  return y;
}

function callHost<K extends HostCall['kind']>(kind: K, data: Omit<Extract<HostCall, { kind: K }>, 'kind'>): Promise<unknown> {
  const fn = window.__yumecastHostCall;
  if (typeof fn !== 'function') return Promise.resolve(null);
  try {
    return Promise.resolve(fn(kind, data)).catch(() => null);
  } catch {
    return Promise.resolve(null);
  }
}

const now = () => performance.now();

class Bridge implements BridgeApi {
  readonly version = 1 as const;
  private cfg: BridgeSessionConfig | null = null;
  private publisher: WebRtcPublisher | null = null;
  private limiter: RateLimiter | null = null;
  private ended = false;
  private lastAction = now();
  private warned = false;
  private lastNotice = -1e12;
  private lastActivityReport = -1e12;
  private screenshotBusy = false;
  private lastScreenshot = -1e12;
  private timer: ReturnType<typeof setInterval> | null = null;
  /** When the current wait for a player (first join or reconnect) started, or null. */
  private waitingSince: number | null = null;
  private waitingLimit = 0;
  private waitingReason: BridgeEndReason = 'join_timeout';
  private readyToSend = false;
  /** The engine's stream is in the publisher (begin() has captured it). */
  private streaming = false;
  /** The game's lines and choices on their way to the player (issue 13). */
  private text: TextRelay | null = null;
  private detachText: (() => void) | null = null;
  /** A native title's engine (it replaced window.yumecast for this session), or null. */
  private native: NativeEngine | null = null;
  private c: BridgeCounters = {
    received: 0,
    malformed: 0,
    rateLimited: 0,
    inputs: 0,
    inputsRefused: 0,
    pings: 0,
    screenshots: 0,
    qualityChanges: 0,
    quality: 'high',
    idleWarnings: 0,
    notices: 0,
    connections: 0,
    idleMs: 0,
    signalOpens: 0,
    offersAhead: 0,
    estimateMaxKbps: 0,
    connection: 'waiting',
  };

  prewarm(plan: PrewarmPlan): Promise<PrewarmResult> {
    return prewarmPage(plan, loadedYumecast());
  }

  /**
   * Starts the game and publishing; resolves when the host may report `ready`: the game is
   * running, its stream published and the signalling open (docs/sessions.md).
   * joinDuringStart: the signalling socket opens first, so its handshake runs while the engine
   * starts (the engine keeps this page's thread busy; the socket's handshake does not need it),
   * and the stream goes into the open publisher the moment the engine has drawn. Otherwise the
   * order before issue 11: start, then publish (which opens the socket).
   * `ready` is not reported before the game runs: the agent's and the api's contract, and their
   * tests, read the game's state right after it (docs/streaming.md "The webrtc provider").
   */
  async begin(cfg: BridgeSessionConfig): Promise<BridgeReadyInfo> {
    if (this.cfg) throw new Error('this runtime already runs a session');
    const t0 = now();
    this.cfg = cfg;
    this.limiter = new RateLimiter({ ratePerSecond: cfg.rate.perSecond, burst: cfg.rate.burst });
    if (cfg.native) this.native = installNativeEngine(cfg.native);
    const y = yumecast();
    y.setQuality(cfg.quality);
    this.c.quality = cfg.quality;
    const publisher = new WebRtcPublisher({ videoCodec: cfg.videoCodec, bitrateFloor: cfg.bitrateFloor, estimateHeadroom: cfg.estimateHeadroom ?? undefined, audioPtimeMs: cfg.audioPtimeMs || undefined, offerAhead: cfg.offerAhead });
    this.publisher = publisher;
    await publisher.setQuality(cfg.quality);
    const token: WebRtcToken = {
      provider: 'webrtc',
      webrtc: { signalUrl: cfg.signalUrl, signalToken: cfg.signalToken, iceServers: cfg.iceServers },
    };
    if (cfg.joinDuringStart) await publisher.publish(null, token, this.publisherEvents());
    // before start: a resumed save shows its line during start, and the player reads it on ready
    this.text = new TextRelay((m) => this.send(m));
    this.detachText = this.text.attach(y);
    const info = await y.start({
      gameId: cfg.gameId,
      sessionId: cfg.sessionId,
      assetBase: cfg.assetBase,
      storyUrl: cfg.storyUrl,
      state: cfg.resumeState ?? undefined,
      saves: cfg.saves,
      fps: cfg.captureFps,
    });
    const startMs = now() - t0;
    if (this.ended) throw new Error('session ended while starting');
    const stream = y.captureStream(cfg.captureFps, { mode: cfg.frameMode });
    if (cfg.joinDuringStart) await publisher.setStream(stream);
    else await publisher.publish(stream, token, this.publisherEvents());
    this.streaming = true;
    if (this.c.connection === 'connected') this.onStreamToPlayer();
    // `ready` means the signalling connection is open (the SignalClient keeps retrying if not)
    const open = await signalOpened(5000);
    if (!open) void callHost('log', { level: 'warn', message: 'signalling not open after 5 s; reporting ready anyway' });
    this.lastAction = now();
    // a player who connected while the game started (get_token answers from the host's slot on,
    // docs/sessions.md) is not waited for; one who came and went has the reconnect clock running
    if (this.c.connection === 'waiting') this.setWaiting(cfg.timings.joinTimeoutMs, 'join_timeout');
    this.timer = setInterval(() => this.tick(), Math.max(20, Math.min(1000, cfg.timings.idleGraceMs / 4, cfg.timings.reconnectGraceMs / 4)));
    return { gameId: info.gameId, title: info.title, startMs: Math.round(startMs), beginMs: Math.round(now() - t0) };
  }

  private publisherEvents() {
    return {
      onRawMessage: (raw: unknown) => this.onRaw(raw),
      onState: (state: string) => this.onConnection(state),
      onPeerJoined: () => {
        // a (re)joining player gets a fresh offer from the publisher; stop the reconnect clock
        this.readyToSend = false;
        if (this.c.connection !== 'connected') this.setWaiting(null);
      },
      onPeerLeft: () => this.onPlayerGone(),
    };
  }

  // ------------------------------------------------------------------------------------------
  // input

  private onRaw(raw: unknown): void {
    if (this.ended || !this.cfg || !this.limiter) return;
    this.c.received++;
    if (!this.limiter.take()) {
      this.c.rateLimited++;
      this.notice('rate_limited');
      return;
    }
    const msg = parsePlayerMessage(raw);
    if (!msg) {
      this.c.malformed++;
      this.notice('bad_message');
      return;
    }
    if (msg.type === 'ping') {
      this.c.pings++;
      this.send(hostMessage({ type: 'pong', t: msg.t }));
      return;
    }
    // everything else is a player action: it resets the idle clock
    this.onAction();
    if (isInputMessage(msg)) {
      let ok = false;
      try {
        ok = yumecast().applyInput(msg);
      } catch {
        ok = false;
      }
      if (ok) this.c.inputs++;
      else this.c.inputsRefused++;
      return;
    }
    if (msg.type === 'quality') {
      void this.setQuality(msg.level);
      return;
    }
    if (msg.type === 'screenshot') void this.screenshot(msg.requestId);
  }

  private onAction(): void {
    const afterWarning = this.warned;
    this.lastAction = now();
    this.warned = false;
    const t = this.cfg!.timings;
    // at most every inputActivityMs while input arrives, and at once after an idle warning
    if (afterWarning || now() - this.lastActivityReport >= t.inputActivityMs) {
      this.lastActivityReport = now();
      void callHost('input-activity', {});
    }
  }

  /** One `error` notice per noticeMs at most, whatever the flood. */
  private notice(code: HostErrorCode): void {
    if (now() - this.lastNotice < this.cfg!.timings.noticeMs) return;
    this.lastNotice = now();
    if (this.send(hostMessage({ type: 'error', code }))) this.c.notices++;
  }

  private async setQuality(level: QualityLevel): Promise<void> {
    this.c.qualityChanges++;
    this.c.quality = level;
    try {
      yumecast().setQuality(level);
      await this.publisher?.setQuality(level);
    } catch {
      /* the encoder keeps its old settings */
    }
  }

  private async screenshot(requestId: string): Promise<void> {
    if (this.screenshotBusy || now() - this.lastScreenshot < this.cfg!.timings.screenshotIntervalMs) {
      this.send(hostMessage({ type: 'error', code: 'screenshot_limit', requestId }));
      return;
    }
    this.screenshotBusy = true;
    try {
      const r = (await callHost('screenshot', { requestId })) as ScreenshotCallResult | null;
      if (r && 'screenshotId' in r) {
        this.c.screenshots++;
        this.send(hostMessage({ type: 'screenshot-saved', requestId, screenshotId: r.screenshotId }));
      } else {
        this.send(hostMessage({ type: 'error', code: r && 'error' in r ? r.error : 'screenshot_failed', requestId }));
      }
    } finally {
      // The gap counts from the end of the last one: a slow capture on a busy host must not
      // let the next request through at once.
      this.lastScreenshot = now();
      this.screenshotBusy = false;
    }
  }

  // ------------------------------------------------------------------------------------------
  // connection, idle, reconnect

  private onConnection(state: string): void {
    if (this.ended) return;
    if (state === 'connected') {
      if (this.c.connection !== 'connected') {
        this.c.connections++;
        this.c.connection = 'connected';
        this.setWaiting(null);
        // a reconnect is an action too: do not idle-close a player who just came back
        this.lastAction = now();
        this.warned = false;
        void callHost('connection', { state: 'connected' });
        // connected while the game still starts: the stream's first frames go out once it is in
        if (this.streaming) this.onStreamToPlayer();
      }
    } else if (state === 'reconnecting' || state === 'failed' || state === 'disconnected') {
      this.onPlayerGone();
    } else if (state === 'closed') {
      // the api refused the signalling for good (session closed, token invalid)
      void this.finish('signal_closed');
    }
  }

  /**
   * The player is connected and the game's stream is in the connection: say `ready` on the data
   * channel, and send a fresh frame now (and the refinement): frames drawn before the connection
   * (or before the tracks went into it) never reached the player, and with frames only on change
   * the next could be seconds away.
   */
  private onStreamToPlayer(): void {
    void this.sendReady();
    try {
      yumecast().refreshFrames();
    } catch {
      /* the engine keeps its own refresh */
    }
  }

  private onPlayerGone(): void {
    if (this.ended) return;
    if (this.c.connection === 'connected') {
      this.c.connection = 'reconnecting';
      void callHost('connection', { state: 'reconnecting' });
    }
    if (this.waitingSince === null) this.setWaiting(this.cfg!.timings.reconnectGraceMs, 'reconnect_timeout');
  }

  private setWaiting(limitMs: number | null, reason: BridgeEndReason = 'join_timeout'): void {
    if (limitMs === null) {
      this.waitingSince = null;
      return;
    }
    this.waitingSince = now();
    this.waitingLimit = limitMs;
    this.waitingReason = reason;
  }

  /** `ready` once the data channel is open (it opens a moment after the peer connects). */
  private async sendReady(): Promise<void> {
    this.readyToSend = true;
    for (let i = 0; i < 200 && this.readyToSend && !this.ended; i++) {
      if (this.send(hostMessage({ type: 'ready' }))) {
        this.text?.flush();
        return;
      }
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  private tick(): void {
    if (this.ended || !this.cfg) return;
    const t = this.cfg.timings;
    const t1 = now();
    if (this.waitingSince !== null && t1 - this.waitingSince >= this.waitingLimit) {
      void this.finish(this.waitingReason);
      return;
    }
    // idle rules apply to a connected player; before the first join and while reconnecting
    // the join and reconnect clocks above apply instead (a (re)connection resets the idle clock)
    if (this.c.connection !== 'connected') return;
    const idle = t1 - this.lastAction;
    if (!this.warned && idle >= t.idleWarningMs) {
      this.warned = true;
      this.c.idleWarnings++;
      this.send(hostMessage({ type: 'idle-warning', secondsLeft: Math.round(t.idleGraceMs / 1000) }));
    } else if (this.warned && idle >= t.idleWarningMs + t.idleGraceMs) {
      void this.finish('idle_timeout');
    }
  }

  /** The bridge itself decided to end: say bye (when it means something) and ask the agent. */
  private async finish(reason: BridgeEndReason): Promise<void> {
    if (this.ended) return;
    if (reason === 'idle_timeout') this.send(hostMessage({ type: 'bye', reason: 'idle_timeout' }));
    await callHost('end', { reason });
  }

  async end(reason: string): Promise<void> {
    if (this.ended) return;
    const bye = reason as ByeReason;
    if (this.c.connection === 'connected') this.send(hostMessage({ type: 'bye', reason: bye }));
    this.ended = true;
    this.c.connection = 'closed';
    if (this.timer) clearInterval(this.timer);
    this.detachText?.();
    // give the bye a moment to leave before the connection goes
    await new Promise((r) => setTimeout(r, 60));
    this.publisher?.close();
    this.native?.close();
  }

  private send(msg: HostMessage): boolean {
    try {
      return this.publisher?.send(msg) ?? false;
    } catch {
      return false;
    }
  }

  counters(): BridgeCounters {
    return { ...this.c, idleMs: Math.round(now() - this.lastAction), signalOpens: signalOpenCount(), offersAhead: this.publisher?.offersAhead ?? 0, estimateMaxKbps: this.publisher?.estimateMaxKbps ?? 0 };
  }
}

window.__yumecastHost = new Bridge();
window.dispatchEvent(new CustomEvent('yumecast-host:loaded'));
