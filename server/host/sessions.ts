/**
 * Sessions on this host: one runtime each, from the api's start request to the runtime's kill.
 *   start  (POST /sessions)  → report `starting` → take a warm runtime → bridge.begin (game +
 *                              publish) → report `ready` → the player connects → `playing`
 *   end    (DELETE, the bridge's idle/join/reconnect rules, a crash, shutdown)
 *          → save progress (slot "auto") → `bye` to the player → report → kill the runtime
 *            (all its processes) → the pool warms a fresh one.
 * The bridge's calls (screenshot, input activity, connection, end) and the engine's events
 * (save, autosave) arrive here and go to the api.
 */
import type { ByeReason } from '../../lib/streaming/messages';
import { SAVE_SLOT_PATTERN, type HostReportedState, type StartSessionBody } from '../shared/host-contract';
import type { ApiClient } from './api-client';
import { ApiCallError } from './api-client';
import { bridgeSessionConfig } from './bridge-config';
import type { BridgeCounters, BridgeEndReason, BridgeReadyInfo, HostCall, ScreenshotCallResult } from './bridge-protocol';
import type { HostConfig } from './config';
import { withGameProcesses, type NativeHost, type NativeRun } from './native/host';
import type { SessionMetricsSink } from './metrics';
import { NoCapacityError, type RuntimePool } from './pool';
import { footprintSummary } from './procs';
import { pngSize } from './runtime';
import type { SessionRuntime } from './session-runtime';
import type { HostSessionState, SessionInfo, SessionSummary } from './schemas';

const SAVE_SLOT_RE = new RegExp(SAVE_SLOT_PATTERN);

export interface HostSession {
  id: string;
  gameId: string;
  uid: string;
  state: HostSessionState;
  req: StartSessionBody;
  runtime: SessionRuntime | null;
  createdAt: number;
  /** ms from the start request to `ready` (runtime started the game and publishes). */
  startMs: number | null;
  ready: BridgeReadyInfo | null;
  /** The player's WebRTC connection is up (it may come before `ready`: the player joins while the game starts). */
  playerConnected: boolean;
  /** Whether the runtime came from the warm pool (false = a cold start). */
  fromWarm: boolean | null;
  endReason: string | null;
  endedAt: number | null;
  /** The last counters read from the bridge (kept after the runtime is gone). */
  counters: BridgeCounters | null;
  saves: number;
  screenshots: number;
  endings: string[];
  /** Serialises this session's state reports so the api sees them in order. */
  reports: Promise<unknown>;
  reported: Set<HostReportedState>;
  ending: Promise<void> | null;
  /** A native title's game (native/host.ts), started beside the runtime page; null for the web engine's titles. */
  native: Promise<NativeRun> | null;
}

export interface EndOptions {
  /** The `bye` reason the player is sent (if connected). */
  bye: ByeReason;
  /** Report this state to the api (closed / failed), or nothing (the api already knows). */
  report?: 'closed' | 'failed';
  /** Reason stored with the end and sent with the report. */
  reason: string;
  /** Save the play state (slot "auto") before the runtime goes. Default true. */
  save?: boolean;
}

type Log = (level: 'info' | 'warn' | 'error', msg: string) => void;

/** The api's close reasons (DELETE ?reason=) → the player's bye reason. */
export function byeForApiReason(reason: string | undefined): ByeReason {
  return reason === 'idle' ? 'idle_timeout' : 'session_closed';
}

const ENDED_KEEP_MS = 10 * 60_000;
const ENDED_KEEP_MAX = 500;

export class SessionManager {
  private readonly live = new Map<string, HostSession>();
  private readonly ended = new Map<string, HostSession>();
  private accepting = true;
  /** Told when a session is ready or ended (routes/metrics.ts sets it). */
  metrics: SessionMetricsSink | null = null;

  constructor(
    private readonly pool: RuntimePool<SessionRuntime>,
    private readonly api: ApiClient | null,
    private readonly config: HostConfig,
    private readonly log: Log,
    private readonly nativeHost: NativeHost | null = null,
  ) {}

  get activeCount(): number {
    return this.live.size;
  }

  ids(): string[] {
    return [...this.live.keys()];
  }

  get(id: string): HostSession | undefined {
    return this.live.get(id) ?? this.ended.get(id);
  }

  stopAccepting(): void {
    this.accepting = false;
  }

  /**
   * Accepts a start request (the caller answers 202) and starts in the background.
   * 'accepted' | 'duplicate' (already running: idempotent) | throws NoCapacityError.
   */
  start(req: StartSessionBody): 'accepted' | 'duplicate' | 'ended' {
    if (this.live.has(req.sessionId)) return 'duplicate';
    if (this.ended.has(req.sessionId)) return 'ended';
    if (!this.accepting || this.live.size >= this.pool.capacity) throw new NoCapacityError();
    const s: HostSession = {
      id: req.sessionId,
      gameId: req.gameId,
      uid: req.uid,
      state: 'starting',
      req,
      runtime: null,
      createdAt: Date.now(),
      startMs: null,
      ready: null,
      playerConnected: false,
      fromWarm: null,
      endReason: null,
      endedAt: null,
      counters: null,
      saves: 0,
      screenshots: 0,
      endings: [],
      reports: Promise.resolve(),
      reported: new Set(),
      ending: null,
      native: null,
    };
    this.live.set(s.id, s);
    void this.run(s);
    return 'accepted';
  }

  private async run(s: HostSession): Promise<void> {
    this.report(s, 'starting');
    // a native title's game starts while a runtime page is found (its display, sound and game boot)
    const spec = this.nativeHost?.specFor(s.gameId) ?? null;
    if (spec) {
      s.native = this.nativeHost!.start(s.req, spec);
      s.native.catch(() => undefined);
    }
    let rt: SessionRuntime;
    try {
      s.fromWarm = this.pool.stats().warm > 0;
      // a native title's stream plays in a page, whatever kind the pool keeps warm
      rt = await this.pool.acquire(this.config.timings.launchTimeoutMs + 5000, spec ? 'page' : undefined);
    } catch (e) {
      const reason = e instanceof NoCapacityError ? 'no_capacity' : 'runtime_unavailable';
      this.log('error', `session ${s.id}: no runtime (${e instanceof Error ? e.message : String(e)})`);
      await this.end(s.id, { bye: 'error', report: 'failed', reason, save: false });
      return;
    }
    if (s.ending || s.state !== 'starting') {
      await this.pool.release(rt);
      return;
    }
    s.runtime = rt;
    try {
      rt.attach(s.id, this.handlerFor(s, rt), s.req.signalUrl);
      const cfg = bridgeSessionConfig(this.config, s.req);
      if (s.native) {
        const run = await s.native;
        // the game may have ended while the page was found: then the start has failed
        if (run.game.exitReason) throw new Error(`the game ended while starting: ${run.game.exitReason}`);
        run.game.once('exit', (why: string) => void this.end(s.id, { bye: 'session_closed', report: 'closed', reason: `game_exited: ${why}`.slice(0, 100) }));
        cfg.native = run.bridge;
      }
      const ready = await rt.begin(cfg, s.native ? Math.max(this.config.timings.startTimeoutMs, this.config.native.startTimeoutMs) : undefined);
      if (s.state !== 'starting') return;
      s.ready = ready;
      s.startMs = Date.now() - s.createdAt;
      s.state = 'ready';
      this.log('info', `session ${s.id}: ${s.gameId} ready in ${s.startMs} ms (${s.fromWarm ? 'warm' : 'cold'}; game start ${ready.startMs} ms)`);
      this.metrics?.sessionReady({ startMs: s.startMs, fromWarm: s.fromWarm });
      this.report(s, 'ready');
      // the player connected while the game started: it plays from now on
      if (s.playerConnected) this.markPlaying(s);
    } catch (e) {
      if (s.state !== 'starting') return;
      this.log('error', `session ${s.id}: start failed: ${e instanceof Error ? e.message : String(e)}`);
      await this.end(s.id, { bye: 'error', report: 'failed', reason: 'runtime_start_failed', save: false });
    }
  }

  /** `ready` → `playing`: the player is connected (reported after `ready`, in that order). */
  private markPlaying(s: HostSession): void {
    s.state = 'playing';
    this.report(s, 'playing');
  }

  private handlerFor(s: HostSession, rt: SessionRuntime) {
    return {
      onHostCall: (call: HostCall): Promise<unknown> => this.onHostCall(s, rt, call),
      onEngineEvent: (name: string, payload: unknown): void => this.onEngineEvent(s, name, payload),
      onCrash: (reason: string): void => {
        if (s.ending) return;
        this.log('error', `session ${s.id}: runtime died (${reason})`);
        void this.end(s.id, { bye: 'error', report: 'failed', reason: 'runtime_crashed', save: false });
      },
    };
  }

  private async onHostCall(s: HostSession, rt: SessionRuntime, call: HostCall): Promise<unknown> {
    switch (call.kind) {
      case 'screenshot':
        return this.screenshot(s, rt);
      case 'connection':
        s.playerConnected = call.state === 'connected';
        if (s.playerConnected && s.state === 'ready') this.markPlaying(s);
        return null;
      case 'input-activity':
        if (this.api) this.api.inputActivity(s.id, Date.now()).catch((e: unknown) => this.log('warn', `session ${s.id}: input-activity: ${msg(e)}`));
        return null;
      case 'end': {
        const reason: BridgeEndReason = call.reason;
        // the bridge has said bye itself (idle) or there is nobody to say it to
        void this.end(s.id, { bye: reason === 'idle_timeout' ? 'idle_timeout' : 'session_closed', report: 'closed', reason });
        return null;
      }
      case 'log':
        this.log(call.level, `session ${s.id}: ${call.message}`);
        return null;
      default:
        return null;
    }
  }

  private async screenshot(s: HostSession, rt: SessionRuntime): Promise<ScreenshotCallResult> {
    if (!this.api) return { error: 'screenshot_failed' };
    try {
      const png = await rt.screenshotPng();
      const size = pngSize(png);
      if (!size || size.width !== 1280 || size.height !== 720) throw new Error(`screenshot is ${size ? `${size.width}x${size.height}` : 'not a PNG'}`);
      const screenshotId = await this.api.screenshot(s.id, png);
      s.screenshots++;
      return { screenshotId };
    } catch (e) {
      this.log('warn', `session ${s.id}: screenshot failed: ${msg(e)}`);
      if (e instanceof ApiCallError && (e.status === 429 || e.code === 'instance_limit' || e.code === 'rate_limited')) return { error: 'screenshot_limit' };
      return { error: 'screenshot_failed' };
    }
  }

  private onEngineEvent(s: HostSession, name: string, payload: unknown): void {
    if (name === 'save' || name === 'autosave') {
      const slot = name === 'autosave' ? 'auto' : String((payload as { slot?: unknown })?.slot ?? '');
      const json = name === 'autosave' ? payload : (payload as { stateJson?: unknown })?.stateJson;
      if (!SAVE_SLOT_RE.test(slot) || typeof json !== 'string') return;
      void this.saveState(s, slot, json);
    } else if (name === 'ending') {
      const id = (payload as { endingId?: unknown })?.endingId;
      if (typeof id === 'string') s.endings.push(id);
    } else if (name === 'error') {
      this.log('warn', `session ${s.id}: engine error ${JSON.stringify(payload).slice(0, 300)}`);
    }
  }

  private async saveState(s: HostSession, slot: string, json: string): Promise<void> {
    if (!this.api) return;
    let state: unknown;
    try {
      state = JSON.parse(json);
    } catch {
      return;
    }
    if (!state || typeof state !== 'object' || Array.isArray(state)) return;
    try {
      await this.api.save(s.id, slot, state as Record<string, unknown>);
      s.saves++;
    } catch (e) {
      this.log('warn', `session ${s.id}: save ${slot} failed: ${msg(e)}`);
    }
  }

  /** Queues a state report; a 409 session_closed answer means the api has ended it: stop. */
  private report(s: HostSession, state: HostReportedState, reason?: string): Promise<unknown> {
    if (!this.api) return Promise.resolve();
    const api = this.api;
    s.reported.add(state);
    s.reports = s.reports.then(async () => {
      try {
        const r = await api.reportState(s.id, state, reason);
        if (r.status === 409 && !s.ending) {
          this.log('info', `session ${s.id}: the api has closed it; stopping`);
          void this.end(s.id, { bye: 'session_closed', reason: 'api_closed' });
        } else if (r.status >= 400) {
          this.log('warn', `session ${s.id}: report ${state}: ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
        }
      } catch (e) {
        this.log('warn', `session ${s.id}: report ${state} failed: ${msg(e)}`);
      }
    });
    return s.reports;
  }

  /**
   * Ends a session: save, bye, report, kill the runtime (and the pool refills). Idempotent;
   * resolves when the runtime's processes are gone.
   */
  end(id: string, o: EndOptions): Promise<void> {
    const s = this.live.get(id);
    if (!s) return this.ended.get(id)?.ending ?? Promise.resolve();
    if (s.ending) return s.ending;
    const before = s.state;
    s.state = 'closing';
    s.endReason = o.reason;
    s.ending = (async () => {
      const rt = s.runtime;
      if (rt && rt.state === 'busy') {
        s.counters = (await rt.counters()) ?? s.counters;
        if (o.save !== false && before !== 'starting') {
          const snap = await rt.snapshot();
          if (snap) await this.saveState(s, 'auto', snap);
        }
        await rt.bye(o.bye);
      }
      // a native game goes before the report (an api that hangs must not keep it running); its saves go up after it stopped
      const run = await s.native?.catch(() => null);
      if (run) {
        const k = await this.nativeHost!.end(s.id, run);
        this.log(k.leftover.length ? 'error' : 'info', `session ${s.id}: native game killed in ${k.ms} ms${k.leftover.length ? `; left: ${k.leftover.join(',')}` : ''}`);
      }
      if (o.report) await this.report(s, o.report, o.reason);
      else await s.reports;
      s.state = o.report === 'failed' ? 'failed' : 'closed';
      s.endedAt = Date.now();
      this.metrics?.sessionEnded({ sessionId: s.id, state: s.state, reason: o.reason, reachedReady: s.startMs !== null, fromWarm: s.fromWarm, counters: s.counters });
      if (rt) {
        const k = await this.pool.release(rt);
        this.log('info', `session ${s.id}: ended (${o.reason}); runtime ${rt.id} killed in ${k.ms} ms`);
      }
      this.live.delete(s.id);
      this.ended.set(s.id, s);
      this.pruneEnded();
    })();
    return s.ending;
  }

  private pruneEnded(): void {
    const cutoff = Date.now() - ENDED_KEEP_MS;
    for (const [id, s] of this.ended) {
      if (this.ended.size > ENDED_KEEP_MAX || (s.endedAt ?? 0) < cutoff) this.ended.delete(id);
      else break;
    }
  }

  /** Heartbeat answer: stop runtimes the api no longer counts as live (started > reconcileGraceMs ago). */
  reconcile(apiLive: string[]): void {
    const keep = new Set(apiLive);
    for (const s of this.live.values()) {
      if (!keep.has(s.id) && !s.ending && Date.now() - s.createdAt > this.config.timings.reconcileGraceMs) {
        this.log('warn', `session ${s.id}: not live on the api any more; stopping its runtime`);
        void this.end(s.id, { bye: 'session_closed', reason: 'api_forgot' });
      }
    }
  }

  /** Ends every session (shutdown): save, `bye host_shutdown`, kill. */
  async endAll(bye: ByeReason, reason: string): Promise<void> {
    await Promise.all([...this.live.keys()].map((id) => this.end(id, { bye, reason })));
  }

  async info(id: string): Promise<SessionInfo | null> {
    const s = this.get(id);
    if (!s) return null;
    const rt = s.runtime;
    if (rt && rt.state === 'busy') s.counters = (await rt.counters()) ?? s.counters;
    return {
      sessionId: s.id,
      gameId: s.gameId,
      state: s.state,
      runtimeId: rt?.id ?? null,
      startMs: s.startMs,
      fromWarm: s.fromWarm,
      ready: s.ready,
      endReason: s.endReason,
      counters: s.counters,
      blocked: rt ? { requests: rt.blocked.requests, websockets: rt.blocked.websockets } : null,
      saves: s.saves,
      screenshots: s.screenshots,
      endings: s.endings,
      engine: rt && rt.state === 'busy' ? await rt.engineState() : null,
      footprint: rt && rt.state === 'busy' ? footprintSummary(this.nativeHost?.runOf(s.id) ? withGameProcesses(rt, this.nativeHost.runOf(s.id)!.game) : rt) : null,
    };
  }

  list(): SessionSummary[] {
    return [...this.live.values()].map((s) => ({ sessionId: s.id, gameId: s.gameId, state: s.state }));
  }
}

function msg(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

