/**
 * The session service, what `app.sessions` is (plugins/sessions.ts): starts, queues, allocates,
 * closes and fails game sessions, keeps the host registry (Agones-like: Ready, Allocated,
 * Unhealthy, Shutdown) and runs the idle rules. All state lives in PostgreSQL, so any api
 * process can serve any session and a restarted api picks up where the last one stopped. See
 * docs/sessions.md.
 *
 * This class is only the face: it builds the shared context (context.ts) and the parts, and
 * hands each call to its part — player.ts (the player's calls), lifecycle.ts (closing and
 * failing), allocation.ts (queue and placement), hosts.ts (registry), reports.ts (host reports),
 * signalling.ts (the relay's calls) and sweeper.ts (background rules).
 */
import type { SessionFailureReason, SessionCloseReason, SessionState } from '../../../../lib/api-types/sessions';
import type { SessionListAnswer, SessionStatusAnswer, SessionTokenAnswer } from '../../../../lib/api-types/schemas/sessions';
import type { QualityLevel } from '../../../../lib/streaming/messages';
import type { HeartbeatAnswer, HeartbeatBody, HostReportedState, RegisterBody, SaveBody } from '../../../shared/host-contract';
import type { Actor, SessionRow } from '../sessionStore';
import { SessionAllocation } from './allocation';
import { BackgroundWork, SessionEvents, type SessionContext, type SessionEndedListener, type SessionReadyListener, type SessionServiceOptions } from './context';
import { HostRegistry } from './hosts';
import { SessionLifecycle } from './lifecycle';
import { PlayerCalls, type StartUser } from './player';
import { HostReports } from './reports';
import { SignalCalls } from './signalling';
import { Sweeper } from './sweeper';

export type { SessionEndedListener, SessionReadyListener, SessionServiceOptions, StartUser };

export class SessionService {
  private readonly ctx: SessionContext;
  private readonly lifecycle: SessionLifecycle;
  private readonly allocation: SessionAllocation;
  private readonly player: PlayerCalls;
  private readonly hosts: HostRegistry;
  private readonly reports: HostReports;
  private readonly signal: SignalCalls;
  private readonly sweeper: Sweeper;

  constructor(options: SessionServiceOptions) {
    const ctx: SessionContext = {
      ...options,
      events: new SessionEvents(options.log),
      work: new BackgroundWork(options.log),
      cooldown: new Map(),
      drainQueue: () => this.allocation.drainQueue(),
      kickDrain: () => ctx.work.track(this.allocation.drainQueue()),
    };
    this.ctx = ctx;
    this.lifecycle = new SessionLifecycle(ctx);
    this.allocation = new SessionAllocation(ctx, this.lifecycle);
    this.player = new PlayerCalls(ctx, this.lifecycle);
    this.hosts = new HostRegistry(ctx, this.lifecycle);
    this.reports = new HostReports(ctx);
    this.signal = new SignalCalls(ctx);
    this.sweeper = new Sweeper(ctx, this.lifecycle);
  }

  onSessionEnded(listener: SessionEndedListener): void {
    this.ctx.events.on(listener);
  }

  /** `listener` hears each session the first time its host reports it ready (start latency). */
  onSessionReady(listener: SessionReadyListener): void {
    this.ctx.events.onReady(listener);
  }

  /** Stops starting background work and waits for what is under way (app close). */
  async stop(): Promise<void> {
    // the input times this process still holds (sessions/inputActivity.ts)
    this.reports.flushInputActivity();
    this.allocation.stop();
    await this.settle();
  }

  /** Waits for background work (host calls, close follow-ups) started so far. For tests. */
  async settle(): Promise<void> {
    while (this.ctx.work.pending().length > 0 || this.allocation.draining) {
      await Promise.allSettled([...this.ctx.work.pending(), this.allocation.draining]);
    }
  }

  // ── the player's calls (player.ts) ────────────────────────────────────────────────────────

  start(user: StartUser, gameId: string, quality: QualityLevel): Promise<string> {
    return this.player.start(user, gameId, quality);
  }

  listLive(uid: string): Promise<SessionListAnswer['game_sessions']> {
    return this.player.listLive(uid);
  }

  /** The caller's session, or 404 session_not_found (also for someone else's). */
  owned(sessionId: string, uid: string): Promise<SessionRow> {
    return this.player.owned(sessionId, uid);
  }

  status(sessionId: string, uid: string): Promise<Omit<SessionStatusAnswer, 'status'>> {
    return this.player.status(sessionId, uid);
  }

  token(sessionId: string, uid: string, publicSignalUrl: string): Promise<SessionTokenAnswer> {
    return this.player.token(sessionId, uid, publicSignalUrl);
  }

  forceClose(sessionId: string, uid: string): Promise<void> {
    return this.player.forceClose(sessionId, uid);
  }

  // ── closing and failing (lifecycle.ts) ────────────────────────────────────────────────────

  /** Ends a session normally (idempotent); resolves when its host answered (or the call failed). */
  close(sessionId: string, reason: SessionCloseReason, actor: Actor): Promise<void> {
    return this.lifecycle.close(sessionId, reason, actor);
  }

  /** Fails a session (any live state) with `reason`; optionally asks its host to stop it. */
  fail(sessionId: string, reason: SessionFailureReason, actor: Actor, options: { stopOnHost?: boolean } = {}): Promise<void> {
    return this.lifecycle.fail(sessionId, reason, actor, options);
  }

  // ── scheduling (allocation.ts) ────────────────────────────────────────────────────────────

  /** Places queued sessions on hosts; resolves when the database part is done. */
  drainQueue(): Promise<void> {
    return this.allocation.drainQueue();
  }

  // ── host registry (hosts.ts) ──────────────────────────────────────────────────────────────

  registerHost(input: RegisterBody): Promise<void> {
    return this.hosts.registerHost(input);
  }

  heartbeat(hostId: string, input: HeartbeatBody): Promise<Omit<HeartbeatAnswer, 'status'>> {
    return this.hosts.heartbeat(hostId, input);
  }

  shutdownHost(hostId: string): Promise<void> {
    return this.hosts.shutdownHost(hostId);
  }

  // ── host reports (reports.ts) ─────────────────────────────────────────────────────────────

  /** The session if it is (or was) placed on this host; 404 otherwise. */
  sessionOnHost(hostId: string, sessionId: string): Promise<SessionRow> {
    return this.reports.sessionOnHost(hostId, sessionId);
  }

  hostReportState(hostId: string, sessionId: string, state: HostReportedState, reason: string | undefined): Promise<SessionState> {
    return this.reports.hostReportState(hostId, sessionId, state, reason);
  }

  hostSave(hostId: string, sessionId: string, slot: string, state: SaveBody['state']): Promise<Date> {
    return this.reports.hostSave(hostId, sessionId, slot, state);
  }

  hostInputActivity(hostId: string, sessionId: string, at: number | undefined): Promise<void> {
    return this.reports.hostInputActivity(hostId, sessionId, at);
  }

  // ── signalling (signalling.ts) ────────────────────────────────────────────────────────────

  /** For the relay: may this uid's peer connect to the session now? */
  signalTarget(sessionId: string): Promise<{ uid: string; state: SessionState } | null> {
    return this.signal.signalTarget(sessionId);
  }

  /** The player's signalling connection opened: `ready` → `playing`; the reconnect grace ends. */
  playerJoined(sessionId: string): Promise<void> {
    return this.signal.playerJoined(sessionId);
  }

  /** The player's signalling connection went away (and no newer one replaced it). */
  playerLeft(sessionId: string): Promise<void> {
    return this.signal.playerLeft(sessionId);
  }

  /** Of these sessions, the ones that are over or closing (with their reason). */
  endedAmong(sessionIds: string[]): Promise<{ id: string; reason: string }[]> {
    return this.signal.endedAmong(sessionIds);
  }

  // ── the sweeper (sweeper.ts) ──────────────────────────────────────────────────────────────

  /** One pass of the background rules (docs/sessions.md 3). Safe to run in several processes. */
  sweep(): Promise<void> {
    return this.sweeper.sweep();
  }
}
