/**
 * A session's rules on the host, for every runtime kind (docs/host.md, DESIGN §4): what the host
 * does with each raw message a player sends (RateLimiter → parsePlayerMessage → ping/pong, input,
 * quality, screenshot; one `error` notice per noticeMs at most, whatever the flood), the idle,
 * join and reconnect clocks, `ready` once the channel is open, and the counters. The one home of
 * these rules: the page's bridge (page/bridge.ts, inside the runtime's Chromium page) and the
 * light runtime's session (light/session.ts, in Node) both run this class and plug their own
 * engine and transport in through `RulesPorts`. Plain timers and performance.now(): no DOM, no Node.
 * Nothing a player sends reaches anything but applyInput, setQuality, pong or a screenshot.
 */
import { hostMessage, isInputMessage, parsePlayerMessage, type ByeReason, type HostErrorCode, type HostMessage, type InputMessage, type QualityLevel } from '../../lib/streaming/messages';
import { RateLimiter } from '../../lib/streaming/rateLimiter';
import type { BridgeCounters, BridgeEndReason, BridgeSessionConfig, HostCall, ScreenshotCallResult } from './bridge-protocol';

/** A call to the agent (the page's binding, the light worker's line); resolves null when it fails. */
export type CallHost = <K extends HostCall['kind']>(kind: K, data: Omit<Extract<HostCall, { kind: K }>, 'kind'>) => Promise<unknown>;

/** What a runtime kind plugs into the rules. */
export interface RulesPorts {
  /** A host message to the player on the input channel; false when it could not go (closed channel). */
  send(msg: HostMessage): boolean;
  callHost: CallHost;
  /** One input to the engine; false (or a throw) when the engine refused it. */
  applyInput(msg: InputMessage): boolean;
  /** The engine's and the encoder's quality (a failure keeps the old settings). */
  setQuality(level: QualityLevel): Promise<void> | void;
  /** A fresh frame now: the player has just got the stream. */
  refreshFrames(): void;
  /** The text relay's held lines, after `ready`. */
  flushText(): void;
}

const now = () => performance.now();

/** The counters of a session that has not begun. */
export function newCounters(): BridgeCounters {
  return {
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
}

export class SessionRules {
  private readonly limiter: RateLimiter;
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
  /** The engine's stream is in the transport (the runtime has drawn and published). */
  private streaming = false;
  readonly c: BridgeCounters = newCounters();

  constructor(
    private readonly cfg: Pick<BridgeSessionConfig, 'rate' | 'timings' | 'quality'>,
    private readonly ports: RulesPorts,
  ) {
    this.limiter = new RateLimiter({ ratePerSecond: cfg.rate.perSecond, burst: cfg.rate.burst });
    this.c.quality = cfg.quality;
  }

  get isEnded(): boolean {
    return this.ended;
  }

  /**
   * The game runs and its stream is published: the join clock starts (unless a player connected
   * while the game started; one who came and went has the reconnect clock running) and so do
   * the idle rules.
   */
  started(): void {
    this.lastAction = now();
    if (this.c.connection === 'waiting') this.setWaiting(this.cfg.timings.joinTimeoutMs, 'join_timeout');
    const t = this.cfg.timings;
    this.timer = setInterval(() => this.tick(), Math.max(20, Math.min(1000, t.idleGraceMs / 4, t.reconnectGraceMs / 4)));
  }

  /** The engine's stream is in the transport now: a player already connected gets it. */
  streamIn(): void {
    this.streaming = true;
    if (this.c.connection === 'connected') this.onStreamToPlayer();
  }

  // ------------------------------------------------------------------------------------------
  // input

  /** Every raw message the player sent on the input channel. */
  onRaw(raw: unknown): void {
    if (this.ended) return;
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
      this.ports.send(hostMessage({ type: 'pong', t: msg.t }));
      return;
    }
    // everything else is a player action: it resets the idle clock
    this.onAction();
    if (isInputMessage(msg)) {
      let ok = false;
      try {
        ok = this.ports.applyInput(msg);
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
    // at most every inputActivityMs while input arrives, and at once after an idle warning
    if (afterWarning || now() - this.lastActivityReport >= this.cfg.timings.inputActivityMs) {
      this.lastActivityReport = now();
      void this.ports.callHost('input-activity', {});
    }
  }

  /** One `error` notice per noticeMs at most, whatever the flood. */
  private notice(code: HostErrorCode): void {
    if (now() - this.lastNotice < this.cfg.timings.noticeMs) return;
    this.lastNotice = now();
    if (this.ports.send(hostMessage({ type: 'error', code }))) this.c.notices++;
  }

  private async setQuality(level: QualityLevel): Promise<void> {
    this.c.qualityChanges++;
    this.c.quality = level;
    try {
      await this.ports.setQuality(level);
    } catch {
      /* the encoder keeps its old settings */
    }
  }

  private async screenshot(requestId: string): Promise<void> {
    if (this.screenshotBusy || now() - this.lastScreenshot < this.cfg.timings.screenshotIntervalMs) {
      this.ports.send(hostMessage({ type: 'error', code: 'screenshot_limit', requestId }));
      return;
    }
    this.screenshotBusy = true;
    try {
      const r = (await this.ports.callHost('screenshot', { requestId })) as ScreenshotCallResult | null;
      if (r && 'screenshotId' in r) {
        this.c.screenshots++;
        this.ports.send(hostMessage({ type: 'screenshot-saved', requestId, screenshotId: r.screenshotId }));
      } else {
        this.ports.send(hostMessage({ type: 'error', code: r && 'error' in r ? r.error : 'screenshot_failed', requestId }));
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

  /** The transport's state of the player's connection. */
  onConnection(state: string): void {
    if (this.ended) return;
    if (state === 'connected') {
      if (this.c.connection !== 'connected') {
        this.c.connections++;
        this.c.connection = 'connected';
        this.setWaiting(null);
        // a reconnect is an action too: do not idle-close a player who just came back
        this.lastAction = now();
        this.warned = false;
        void this.ports.callHost('connection', { state: 'connected' });
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

  /** A (re)joining player gets a fresh offer from the transport; the reconnect clock stops. */
  onPeerJoined(): void {
    this.readyToSend = false;
    if (this.c.connection !== 'connected') this.setWaiting(null);
  }

  /**
   * The player is connected and the game's stream is in the connection: say `ready` on the data
   * channel, and send a fresh frame now: frames drawn before the connection (or before the
   * tracks went into it) never reached the player, and with frames only on change the next could
   * be seconds away.
   */
  private onStreamToPlayer(): void {
    void this.sendReady();
    try {
      this.ports.refreshFrames();
    } catch {
      /* the engine keeps its own refresh */
    }
  }

  onPlayerGone(): void {
    if (this.ended) return;
    if (this.c.connection === 'connected') {
      this.c.connection = 'reconnecting';
      void this.ports.callHost('connection', { state: 'reconnecting' });
    }
    if (this.waitingSince === null) this.setWaiting(this.cfg.timings.reconnectGraceMs, 'reconnect_timeout');
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
      if (this.ports.send(hostMessage({ type: 'ready' }))) {
        this.ports.flushText();
        return;
      }
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  private tick(): void {
    if (this.ended) return;
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
      this.ports.send(hostMessage({ type: 'idle-warning', secondsLeft: Math.round(t.idleGraceMs / 1000) }));
    } else if (this.warned && idle >= t.idleWarningMs + t.idleGraceMs) {
      void this.finish('idle_timeout');
    }
  }

  /** The rules decided to end: say bye (when it means something) and ask the agent. */
  private async finish(reason: BridgeEndReason): Promise<void> {
    if (this.ended) return;
    if (reason === 'idle_timeout') this.ports.send(hostMessage({ type: 'bye', reason: 'idle_timeout' }));
    await this.ports.callHost('end', { reason });
  }

  /** The agent ends the session: `bye` to a connected player, and every clock stops. */
  end(reason: string): void {
    if (this.ended) return;
    if (this.c.connection === 'connected') this.ports.send(hostMessage({ type: 'bye', reason: reason as ByeReason }));
    this.ended = true;
    this.c.connection = 'closed';
    if (this.timer) clearInterval(this.timer);
  }

  /** The counters with the idle time now; the transport's own figures are the caller's. */
  counters(extra: Pick<BridgeCounters, 'signalOpens' | 'offersAhead' | 'estimateMaxKbps'>): BridgeCounters {
    return { ...this.c, idleMs: Math.round(now() - this.lastAction), ...extra };
  }
}
