/**
 * The session service: starts, queues, allocates, closes and fails game sessions, keeps the host
 * registry (Agones-like: Ready, Allocated, Unhealthy, Shutdown) and runs the idle rules. All
 * state lives in PostgreSQL, so any api process can serve any session and a restarted api picks
 * up where the last one stopped. See docs/sessions.md.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type pg from 'pg';
import type { SessionState } from '../../../lib/api-types/sessions';
import { OPEN_PLAY_GAME_ID } from '../../../lib/api-types/sessions';
import type { QualityLevel } from '../../../lib/streaming/messages';
import type { SessionTokenWire } from '../../../lib/streaming/types';
import { ApiError } from '../errors';
import type { HostClient } from './hostClient';
import type { SessionConfig } from './sessionConfig';
import {
  HOLDING_STATES,
  isHolding,
  isLive,
  LIVE_STATES,
  lockSession,
  refreshHostState,
  transition,
  withTransaction,
  type Actor,
  type SessionRow,
} from './sessionStore';
import { providerTokens, type SignalTokens } from './tokens';

/** How often the api tries to place one session before it fails with host_unavailable. */
export const MAX_ALLOCATION_ATTEMPTS = 3;
/** A host that refused or could not be reached is skipped for this long (per process). */
export const HOST_COOLDOWN_MS = 3_000;
export const MAX_SAVE_SLOTS = 32;

export type HostState = 'Ready' | 'Allocated' | 'Shutdown' | 'Unhealthy';

export interface HostRow {
  id: string;
  url: string;
  capacity: number;
  state: HostState;
  reported_warm?: number;
}

/** Told when a session ends or starts closing (the signalling relay sends `closed`). */
export type SessionEndedListener = (sessionId: string, reason: string) => void;

export interface SessionServiceOptions {
  db: pg.Pool;
  config: SessionConfig;
  log: FastifyBaseLogger;
  hostClient: HostClient;
  signalTokens: SignalTokens;
  /** ws(s)://…/v1/signal as browsers and hosts reach it. */
  signalUrl: () => string;
}

export interface StartUser {
  uid: string;
  isAnonymous: boolean;
}

export class SessionService {
  private readonly db: pg.Pool;
  private readonly config: SessionConfig;
  private readonly log: FastifyBaseLogger;
  private readonly listeners = new Set<SessionEndedListener>();
  private readonly inflight = new Set<Promise<unknown>>();
  private readonly cooldown = new Map<string, number>();
  private draining: Promise<void> | null = null;
  private drainAgain = false;
  private stopped = false;

  /** When this api process started: hosts could not reach it before, so they get one timeout's grace. */
  private readonly startedAt = Date.now();

  constructor(private readonly options: SessionServiceOptions) {
    this.db = options.db;
    this.config = options.config;
    this.log = options.log;
  }

  onSessionEnded(listener: SessionEndedListener): void {
    this.listeners.add(listener);
  }

  /** Stops starting background work and waits for what is under way (app close). */
  async stop(): Promise<void> {
    this.stopped = true;
    while (this.inflight.size > 0 || this.draining) {
      await Promise.allSettled([...this.inflight, this.draining]);
    }
  }

  /** Waits for background work (host calls, close follow-ups) started so far. For tests. */
  async settle(): Promise<void> {
    while (this.inflight.size > 0 || this.draining) {
      await Promise.allSettled([...this.inflight, this.draining]);
    }
  }

  // ── the player's calls ────────────────────────────────────────────────────────────────────

  async start(user: StartUser, gameId: string, quality: QualityLevel): Promise<string> {
    const sessionId = randomUUID();
    await withTransaction(this.db, async (client) => {
      const limit = this.config.gameSessionLimit;
      // With a title limit, the title's row serialises its starts (count, then insert).
      const game = await client.query<{ available: boolean }>(
        `SELECT available FROM games WHERE id = $1 ${limit > 0 ? 'FOR UPDATE' : ''}`,
        [gameId],
      );
      if (!game.rows[0]?.available) throw new ApiError('game_not_found');
      if (user.isAnonymous && gameId !== OPEN_PLAY_GAME_ID) throw new ApiError('verified_required');

      await client.query(`INSERT INTO users (uid, last_seen_at) VALUES ($1, now())
                          ON CONFLICT (uid) DO UPDATE SET last_seen_at = EXCLUDED.last_seen_at`, [user.uid]);
      const mine = await client.query('SELECT 1 FROM sessions WHERE uid = $1 AND state = ANY($2::text[]) LIMIT 1', [
        user.uid,
        LIVE_STATES,
      ]);
      if (mine.rowCount) throw new ApiError('instance_limit');
      if (limit > 0) {
        const { rows } = await client.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM sessions WHERE game_id = $1 AND state = ANY($2::text[])',
          [gameId, LIVE_STATES],
        );
        if (rows[0].n >= limit) throw new ApiError('instance_limit');
      }
      const queued = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM sessions WHERE state = 'queued'`);
      if (queued.rows[0].n >= this.config.queueMax) throw new ApiError('no_capacity');

      try {
        await client.query('SAVEPOINT insert_session');
        await client.query(`INSERT INTO sessions (id, uid, game_id, state, quality) VALUES ($1, $2, $3, 'queued', $4)`, [
          sessionId,
          user.uid,
          gameId,
          quality,
        ]);
      } catch (error) {
        // Two starts of one user raced past the check: the partial unique index decides.
        if ((error as { constraint?: string }).constraint === 'sessions_one_live_per_user') {
          throw new ApiError('instance_limit', undefined, { cause: error });
        }
        throw error;
      }
      await client.query(
        `INSERT INTO session_events (session_id, from_state, to_state, reason, actor) VALUES ($1, NULL, 'queued', NULL, 'player')`,
        [sessionId],
      );
    });
    await this.drainQueue();
    return sessionId;
  }

  async listLive(uid: string): Promise<{ id: string; game_id: string }[]> {
    const { rows } = await this.db.query<{ id: string; game_id: string }>(
      'SELECT id, game_id FROM sessions WHERE uid = $1 AND state = ANY($2::text[]) ORDER BY created_at',
      [uid, LIVE_STATES],
    );
    return rows;
  }

  /** The caller's session, or 404 session_not_found (also for someone else's). */
  async owned(sessionId: string, uid: string): Promise<SessionRow> {
    const { rows } = await this.db.query<SessionRow>('SELECT * FROM sessions WHERE id = $1 AND uid = $2', [sessionId, uid]);
    if (!rows[0]) throw new ApiError('session_not_found');
    return rows[0];
  }

  async status(
    sessionId: string,
    uid: string,
  ): Promise<{ session_state: SessionState; queue_position?: number; failure_reason?: string }> {
    let row = await this.owned(sessionId, uid);
    if (row.state === 'queued') {
      const { rows } = await this.db.query<SessionRow & { position: number }>(
        `WITH polled AS (
           UPDATE sessions SET last_polled_at = now() WHERE id = $1 AND state = 'queued' RETURNING *
         )
         SELECT polled.*, (SELECT count(*)::int FROM sessions q
                           WHERE q.state = 'queued' AND (q.queued_at, q.id) <= (polled.queued_at, polled.id)) AS position
         FROM polled`,
        [sessionId],
      );
      if (rows[0]) return { session_state: 'queued', queue_position: Math.max(1, rows[0].position) };
      row = await this.owned(sessionId, uid);
    }
    if (row.state === 'failed') return { session_state: 'failed', failure_reason: row.failure_reason ?? 'unknown' };
    return { session_state: row.state };
  }

  async token(sessionId: string, uid: string, publicSignalUrl: string): Promise<SessionTokenWire> {
    const row = await this.owned(sessionId, uid);
    if (!isLive(row.state) || row.state === 'closing') throw new ApiError('session_closed');
    if (row.state !== 'ready' && row.state !== 'playing') throw new ApiError('session_not_ready');
    const signalToken = await this.options.signalTokens.sign(
      { sessionId, uid, role: 'player' },
      this.config.signalTokenTtlS,
    );
    return {
      status: 'ok',
      ...providerTokens(this.config, sessionId, uid),
      webrtc_signal_url: publicSignalUrl,
      webrtc_signal_token: signalToken,
      webrtc_ice_servers: this.config.iceServers as RTCIceServer[],
      provider: this.config.provider,
    };
  }

  async forceClose(sessionId: string, uid: string): Promise<void> {
    await this.owned(sessionId, uid);
    await this.close(sessionId, 'user', 'player');
  }

  // ── closing and failing ───────────────────────────────────────────────────────────────────

  /**
   * Ends a session normally: queued → closed; holding a slot → closing, then DELETE on the host,
   * then closed. Idempotent. Resolves when the host answered (or the call failed).
   */
  async close(sessionId: string, reason: string, actor: Actor): Promise<void> {
    const row = await withTransaction(this.db, async (client) => {
      const locked = await lockSession(client, sessionId);
      if (!locked || !isLive(locked.state) || locked.state === 'closing') return null;
      return this.beginClose(client, locked, reason, actor);
    });
    if (row) await this.afterClose(row);
  }

  private beginClose(client: pg.PoolClient, row: SessionRow, reason: string, actor: Actor): Promise<SessionRow> {
    return transition(client, row, row.state === 'queued' ? 'closed' : 'closing', { actor, reason });
  }

  /** After the transaction of beginClose committed. */
  private async afterClose(row: SessionRow): Promise<void> {
    this.emitEnded(row.id, row.close_reason ?? 'closed');
    if (row.state === 'closed') {
      this.kickDrain();
      return;
    }
    const host = row.host_id ? await this.hostById(row.host_id) : null;
    const result = host
      ? await this.options.hostClient.stopSession(host.url, row.id, row.close_reason ?? 'closed')
      : ({ ok: true, status: 0 } as const);
    if (!result.ok) {
      // Stays `closing`; the sweeper closes it after SESSION_CLOSE_TIMEOUT_MS, and the host's
      // heartbeat answer no longer lists it, so the host stops it on its side.
      this.log.warn({ sessionId: row.id, hostId: row.host_id, detail: result.detail }, 'host did not confirm the stop');
      return;
    }
    await this.finishClosing(row.id, 'api');
  }

  private async finishClosing(sessionId: string, actor: Actor): Promise<void> {
    const hostId = await withTransaction(this.db, async (client) => {
      const locked = await lockSession(client, sessionId);
      if (!locked || locked.state !== 'closing') return null;
      await transition(client, locked, 'closed', { actor });
      return locked.host_id;
    });
    if (hostId !== null) {
      await refreshHostState(this.db, hostId);
      this.kickDrain();
    }
  }

  /** Fails a session (any live state) with `reason`; optionally asks its host to stop it. */
  async fail(sessionId: string, reason: string, actor: Actor, options: { stopOnHost?: boolean } = {}): Promise<void> {
    const row = await withTransaction(this.db, async (client) => {
      const locked = await lockSession(client, sessionId);
      if (!locked || !isLive(locked.state)) return null;
      return this.failLocked(client, locked, reason, actor);
    });
    if (row) await this.afterFail(row, options.stopOnHost ?? false);
  }

  /** A live row ends: `closing` ones are closed (they were on their way), the rest fail. */
  private failLocked(client: pg.PoolClient, row: SessionRow, reason: string, actor: Actor): Promise<SessionRow> {
    if (row.state === 'closing') return transition(client, row, 'closed', { actor });
    return transition(client, row, 'failed', { actor, reason });
  }

  private async afterFail(row: SessionRow, stopOnHost: boolean): Promise<void> {
    this.emitEnded(row.id, row.failure_reason ?? row.close_reason ?? 'closed');
    await refreshHostState(this.db, row.host_id);
    if (stopOnHost && row.host_id) {
      const host = await this.hostById(row.host_id);
      if (host) {
        const result = await this.options.hostClient.stopSession(host.url, row.id, row.failure_reason ?? 'failed');
        if (!result.ok) this.log.warn({ sessionId: row.id, detail: result.detail }, 'host did not confirm the stop');
      }
    }
    this.kickDrain();
  }

  private emitEnded(sessionId: string, reason: string): void {
    for (const listener of this.listeners) {
      try {
        listener(sessionId, reason);
      } catch (error) {
        this.log.error({ err: error, sessionId }, 'session-ended listener failed');
      }
    }
  }

  // ── scheduling ────────────────────────────────────────────────────────────────────────────

  /**
   * Places queued sessions (FIFO) on hosts with a free slot, fewest active sessions first, then
   * calls those hosts. One drain at a time per process; across processes the host rows locked
   * FOR UPDATE serialise the decisions. Resolves when the database part is done (host calls
   * continue in the background).
   */
  drainQueue(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (this.draining) {
      this.drainAgain = true;
      return this.draining;
    }
    this.draining = (async () => {
      try {
        do {
          this.drainAgain = false;
          for (let placed = 0; placed < 100; placed += 1) {
            const allocation = await this.allocateNext();
            if (!allocation) break;
            this.track(this.startOnHost(allocation.session, allocation.host));
          }
        } while (this.drainAgain && !this.stopped);
      } catch (error) {
        this.log.error({ err: error }, 'allocation failed');
      } finally {
        this.draining = null;
      }
    })();
    return this.draining;
  }

  private kickDrain(): void {
    this.track(this.drainQueue());
  }

  private track(promise: Promise<unknown>): void {
    const tracked = promise.catch((error) => this.log.error({ err: error }, 'background session work failed'));
    this.inflight.add(tracked);
    void tracked.finally(() => this.inflight.delete(tracked));
  }

  private effectiveCapacity(capacity: number): number {
    const limit = this.config.hostSessionLimit;
    return limit > 0 ? Math.min(capacity, limit) : capacity;
  }

  private async allocateNext(): Promise<{ session: SessionRow; host: HostRow } | null> {
    return withTransaction(this.db, async (client) => {
      const { rows: hosts } = await client.query<HostRow & { reported_warm: number }>(
        `SELECT id, url, capacity, state, reported_warm FROM hosts
         WHERE state IN ('Ready', 'Allocated') AND last_heartbeat_at > now() - make_interval(secs => $1::double precision / 1000)
         ORDER BY id FOR UPDATE`,
        [this.config.hostHeartbeatTimeoutMs],
      );
      const now = Date.now();
      const candidates = hosts.filter((host) => (this.cooldown.get(host.id) ?? 0) <= now && this.effectiveCapacity(host.capacity) > 0);
      if (candidates.length === 0) return null;
      const { rows: counts } = await client.query<{ host_id: string; n: number }>(
        `SELECT host_id, count(*)::int AS n FROM sessions
         WHERE host_id = ANY($1::text[]) AND state = ANY($2::text[]) GROUP BY host_id`,
        [candidates.map((host) => host.id), HOLDING_STATES],
      );
      const active = new Map(counts.map((row) => [row.host_id, row.n]));
      const free = candidates
        .map((host) => ({ host, active: active.get(host.id) ?? 0, free: this.effectiveCapacity(host.capacity) - (active.get(host.id) ?? 0) }))
        .filter((entry) => entry.free > 0)
        // Fewest active sessions first (spread); then a host with warm runtimes; then room; then id.
        .sort(
          (a, b) =>
            a.active - b.active ||
            Number(b.host.reported_warm > 0) - Number(a.host.reported_warm > 0) ||
            b.free - a.free ||
            a.host.id.localeCompare(b.host.id),
        );
      if (free.length === 0) return null;

      const { rows: queued } = await client.query<SessionRow>(
        `SELECT * FROM sessions WHERE state = 'queued' ORDER BY queued_at, id LIMIT 1 FOR UPDATE SKIP LOCKED`,
      );
      if (!queued[0]) return null;
      const host = free[0].host;
      const session = await transition(client, queued[0], 'allocating', {
        actor: 'api',
        reason: host.id,
        set: { host_id: host.id, allocation_attempts: queued[0].allocation_attempts + 1 },
      });
      await client.query(`UPDATE hosts SET state = 'Allocated', updated_at = now() WHERE id = $1 AND state = 'Ready'`, [host.id]);
      return { session, host };
    });
  }

  private async startOnHost(session: SessionRow, host: HostRow): Promise<void> {
    const { rows: saves } = await this.db.query<{ slot: string; state: unknown; updated_at: Date }>(
      'SELECT slot, state, updated_at FROM saves WHERE uid = $1 AND game_id = $2 ORDER BY updated_at DESC, slot',
      [session.uid, session.game_id],
    );
    const resume = saves.find((save) => save.slot === 'auto') ?? saves[0];
    const signalToken = await this.options.signalTokens.sign(
      { sessionId: session.id, uid: session.uid, role: 'host' },
      this.config.signalHostTokenTtlS,
    );
    const result = await this.options.hostClient.startSession(host.url, {
      sessionId: session.id,
      gameId: session.game_id,
      uid: session.uid,
      signalUrl: this.options.signalUrl(),
      signalToken,
      iceServers: this.config.iceServers,
      quality: session.quality,
      provider: this.config.provider,
      resumeState: resume ? resume.state : null,
      saves: saves.map((save) => ({ slot: save.slot, state: save.state, updatedAt: save.updated_at.toISOString() })),
      idleWarningMs: this.config.idleWarningMs,
      idleCloseMs: this.config.idleCloseMs,
    });
    if (result.ok) return;

    this.log.warn({ sessionId: session.id, hostId: host.id, detail: result.detail }, 'host refused or missed the start');
    if (result.network || result.status >= 500 || result.status === 409 || result.status === 429) {
      this.cooldown.set(host.id, Date.now() + HOST_COOLDOWN_MS);
    }
    const failed = await withTransaction(this.db, async (client) => {
      const locked = await lockSession(client, session.id);
      if (!locked || locked.state !== 'allocating' || locked.host_id !== host.id) return null;
      if (result.retryable && locked.allocation_attempts < MAX_ALLOCATION_ATTEMPTS) {
        // Back to the head of the queue (queued_at is kept).
        await transition(client, locked, 'queued', { actor: 'api', reason: 'host_refused', set: { host_id: null } });
        return null;
      }
      return this.failLocked(client, locked, 'host_unavailable', 'api');
    });
    await refreshHostState(this.db, host.id);
    if (failed) this.emitEnded(failed.id, 'host_unavailable');
    this.kickDrain();
  }

  private async hostById(hostId: string): Promise<HostRow | null> {
    const { rows } = await this.db.query<HostRow>('SELECT id, url, capacity, state FROM hosts WHERE id = $1', [hostId]);
    return rows[0] ?? null;
  }

  // ── host registry ─────────────────────────────────────────────────────────────────────────

  async registerHost(input: { hostId: string; url: string; capacity: number; warm?: number }): Promise<void> {
    const failed = await withTransaction(this.db, async (client) => {
      await client.query(
        `INSERT INTO hosts (id, url, capacity, state, reported_active, reported_warm, registered_at, last_heartbeat_at, updated_at)
         VALUES ($1, $2, $3, 'Ready', 0, $4, now(), now(), now())
         ON CONFLICT (id) DO UPDATE SET url = EXCLUDED.url, capacity = EXCLUDED.capacity, state = 'Ready',
           reported_active = 0, reported_warm = EXCLUDED.reported_warm, registered_at = now(),
           last_heartbeat_at = now(), updated_at = now()`,
        [input.hostId, input.url, input.capacity, input.warm ?? 0],
      );
      // A (re-)registering host has no runtimes: sessions the api placed there are gone.
      return this.failHostSessions(client, input.hostId, 'host_restarted');
    });
    this.cooldown.delete(input.hostId);
    for (const row of failed) this.emitEnded(row.id, row.failure_reason ?? 'host_restarted');
    this.kickDrain();
  }

  async heartbeat(
    hostId: string,
    input: { activeSessions: number; warm: number; sessionIds?: string[] },
  ): Promise<{ state: HostState; sessions: string[] }> {
    const result = await withTransaction(this.db, async (client) => {
      const { rows } = await client.query<HostRow>('SELECT id, url, capacity, state FROM hosts WHERE id = $1 FOR UPDATE', [hostId]);
      if (!rows[0]) throw new ApiError('host_not_found');
      const revived = rows[0].state === 'Unhealthy';
      await client.query(
        `UPDATE hosts SET last_heartbeat_at = now(), reported_active = $2, reported_warm = $3, updated_at = now(),
           state = CASE WHEN state = 'Unhealthy' THEN 'Ready' ELSE state END
         WHERE id = $1`,
        [hostId, input.activeSessions, input.warm],
      );
      const lost: SessionRow[] = [];
      if (input.sessionIds) {
        const { rows: missing } = await client.query<SessionRow>(
          `SELECT * FROM sessions WHERE host_id = $1 AND state IN ('starting', 'ready', 'playing')
             AND allocated_at < now() - make_interval(secs => $2::double precision / 1000)
             AND NOT (id::text = ANY($3::text[]))
           FOR UPDATE`,
          [hostId, this.config.runtimeLostGraceMs, input.sessionIds],
        );
        for (const row of missing) lost.push(await this.failLocked(client, row, 'runtime_lost', 'host'));
      }
      return { revived, lost };
    });
    for (const row of result.lost) this.emitEnded(row.id, row.failure_reason ?? 'runtime_lost');
    await refreshHostState(this.db, hostId);
    const { rows } = await this.db.query<{ state: HostState }>('SELECT state FROM hosts WHERE id = $1', [hostId]);
    const { rows: live } = await this.db.query<{ id: string }>(
      'SELECT id FROM sessions WHERE host_id = $1 AND state = ANY($2::text[]) ORDER BY allocated_at',
      [hostId, HOLDING_STATES],
    );
    if (result.revived || result.lost.length > 0) this.kickDrain();
    else if (rows[0]?.state !== 'Shutdown') {
      // Capacity may be free and a queue waiting (e.g. right after an api restart).
      const { rows: waiting } = await this.db.query(`SELECT 1 FROM sessions WHERE state = 'queued' LIMIT 1`);
      if (waiting.length) this.kickDrain();
    }
    return { state: rows[0]?.state ?? 'Ready', sessions: live.map((row) => row.id) };
  }

  async shutdownHost(hostId: string): Promise<void> {
    const failed = await withTransaction(this.db, async (client) => {
      const { rows } = await client.query('SELECT id FROM hosts WHERE id = $1 FOR UPDATE', [hostId]);
      if (!rows[0]) throw new ApiError('host_not_found');
      await client.query(`UPDATE hosts SET state = 'Shutdown', updated_at = now() WHERE id = $1`, [hostId]);
      return this.failHostSessions(client, hostId, 'host_shutdown');
    });
    for (const row of failed) this.emitEnded(row.id, row.failure_reason ?? 'host_shutdown');
    this.kickDrain();
  }

  /** Inside a transaction that holds the host row: ends every session holding a slot there. */
  private async failHostSessions(client: pg.PoolClient, hostId: string, reason: string): Promise<SessionRow[]> {
    const { rows } = await client.query<SessionRow>(
      'SELECT * FROM sessions WHERE host_id = $1 AND state = ANY($2::text[]) ORDER BY id FOR UPDATE',
      [hostId, HOLDING_STATES],
    );
    const ended: SessionRow[] = [];
    for (const row of rows) ended.push(await this.failLocked(client, row, reason, 'api'));
    return ended;
  }

  // ── host reports ──────────────────────────────────────────────────────────────────────────

  /** The session if it is (or was) placed on this host; 404 otherwise. */
  async sessionOnHost(hostId: string, sessionId: string): Promise<SessionRow> {
    const { rows } = await this.db.query<SessionRow>('SELECT * FROM sessions WHERE id = $1 AND host_id = $2', [sessionId, hostId]);
    if (!rows[0]) throw new ApiError('session_not_found');
    return rows[0];
  }

  async hostReportState(
    hostId: string,
    sessionId: string,
    state: 'starting' | 'ready' | 'playing' | 'closed' | 'failed',
    reason: string | undefined,
  ): Promise<SessionState> {
    const outcome = await withTransaction(this.db, async (client) => {
      const row = await lockSession(client, sessionId);
      if (!row || row.host_id !== hostId) throw new ApiError('session_not_found');
      if (state === 'closed' || state === 'failed') {
        if (!isLive(row.state)) return { row, ended: false };
        const next =
          state === 'closed' || row.state === 'closing'
            ? await transition(client, row, 'closed', { actor: 'host', reason: 'host' })
            : await transition(client, row, 'failed', { actor: 'host', reason: reason ?? 'runtime_failed' });
        return { row: next, ended: true };
      }
      if (!isHolding(row.state) || row.state === 'closing') throw new ApiError('session_closed');
      const order: SessionState[] = ['allocating', 'starting', 'ready', 'playing'];
      if (order.indexOf(state) <= order.indexOf(row.state)) return { row, ended: false };
      const set = state === 'playing' ? { ready_at: row.ready_at ?? new Date() } : undefined;
      return { row: await transition(client, row, state, { actor: 'host', set }), ended: false };
    });
    if (outcome.ended) {
      this.emitEnded(sessionId, outcome.row.failure_reason ?? outcome.row.close_reason ?? 'closed');
      await refreshHostState(this.db, hostId);
      this.kickDrain();
    }
    return outcome.row.state;
  }

  async hostSave(hostId: string, sessionId: string, slot: string, state: unknown): Promise<Date> {
    const session = await this.sessionOnHost(hostId, sessionId);
    return withTransaction(this.db, async (client) => {
      // Serialise slot creation per user and title, so the slot cap holds under concurrency.
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`saves:${session.uid}:${session.game_id}`]);
      const { rows: existing } = await client.query<{ slot: string }>('SELECT slot FROM saves WHERE uid = $1 AND game_id = $2', [
        session.uid,
        session.game_id,
      ]);
      if (!existing.some((row) => row.slot === slot) && existing.length >= MAX_SAVE_SLOTS) {
        throw new ApiError('instance_limit', 'セーブスロットの上限に達しています。');
      }
      const { rows } = await client.query<{ updated_at: Date }>(
        `INSERT INTO saves (uid, game_id, slot, state, session_id, updated_at) VALUES ($1, $2, $3, $4, $5, now())
         ON CONFLICT (uid, game_id, slot) DO UPDATE SET state = EXCLUDED.state, session_id = EXCLUDED.session_id, updated_at = now()
         RETURNING updated_at`,
        [session.uid, session.game_id, slot, JSON.stringify(state), sessionId],
      );
      return rows[0].updated_at;
    });
  }

  async hostInputActivity(hostId: string, sessionId: string, at: number | undefined): Promise<void> {
    const when = at === undefined ? Date.now() : Math.min(at, Date.now());
    const { rowCount } = await this.db.query(
      `UPDATE sessions SET last_input_at = greatest(coalesce(last_input_at, to_timestamp(0)), to_timestamp($3::double precision / 1000))
       WHERE id = $1 AND host_id = $2`,
      [sessionId, hostId, when],
    );
    if (!rowCount) throw new ApiError('session_not_found');
  }

  // ── signalling ────────────────────────────────────────────────────────────────────────────

  /** For the relay: may this uid's peer connect to the session now? */
  async signalTarget(sessionId: string): Promise<{ uid: string; state: SessionState } | null> {
    const { rows } = await this.db.query<{ uid: string; state: SessionState }>('SELECT uid, state FROM sessions WHERE id = $1', [
      sessionId,
    ]);
    return rows[0] ?? null;
  }

  /** The player's signalling connection opened: `ready` → `playing`; the reconnect grace ends. */
  async playerJoined(sessionId: string): Promise<void> {
    await withTransaction(this.db, async (client) => {
      const row = await lockSession(client, sessionId);
      if (!row) return;
      if (row.state === 'ready') {
        await transition(client, row, 'playing', { actor: 'signal', set: { last_input_at: 'now()', player_left_at: null } });
      } else if (row.state === 'playing') {
        await client.query(
          `UPDATE sessions SET player_left_at = NULL, last_input_at = greatest(coalesce(last_input_at, now()), now()), updated_at = now()
           WHERE id = $1`,
          [sessionId],
        );
      }
    });
  }

  /** The player's signalling connection went away (and no newer one replaced it). */
  async playerLeft(sessionId: string): Promise<void> {
    await this.db.query(
      `UPDATE sessions SET player_left_at = now(), updated_at = now()
       WHERE id = $1 AND state IN ('ready', 'playing') AND player_left_at IS NULL`,
      [sessionId],
    );
  }

  /** Of these sessions, the ones that are over or closing (with their reason). */
  async endedAmong(sessionIds: string[]): Promise<{ id: string; reason: string }[]> {
    if (sessionIds.length === 0) return [];
    const { rows } = await this.db.query<{ id: string; reason: string | null }>(
      `SELECT id, coalesce(failure_reason, close_reason) AS reason FROM sessions
       WHERE id = ANY($1::uuid[]) AND state IN ('closing', 'closed', 'failed')`,
      [sessionIds],
    );
    return rows.map((row) => ({ id: row.id, reason: row.reason ?? 'closed' }));
  }

  // ── the sweeper ───────────────────────────────────────────────────────────────────────────

  /** One pass of the background rules (docs/sessions.md 3). Safe to run in several processes. */
  async sweep(): Promise<void> {
    await this.sweepLostHosts();
    const c = this.config;
    // allocating/starting for too long → failed start_timeout (and the host is told to stop).
    await this.sweepRule(
      `state IN ('allocating', 'starting') AND allocated_at < now() - make_interval(secs => $1::double precision / 1000)`,
      [c.startTimeoutMs],
      { fail: 'start_timeout' },
    );
    // ready, and nobody joined in time.
    await this.sweepRule(
      `state = 'ready' AND ready_at < now() - make_interval(secs => $1::double precision / 1000)`,
      [c.readyJoinTimeoutMs],
      { close: 'not_joined' },
    );
    // playing with no input.
    await this.sweepRule(
      `state = 'playing' AND coalesce(last_input_at, playing_at) < now() - make_interval(secs => $1::double precision / 1000)`,
      [c.idleCloseMs],
      { close: 'idle' },
    );
    // the player went away and did not come back.
    await this.sweepRule(
      `state = 'playing' AND player_left_at < now() - make_interval(secs => $1::double precision / 1000)`,
      [c.reconnectGraceMs],
      { close: 'disconnected' },
    );
    // queued, and nobody polls its status any more.
    await this.sweepRule(
      `state = 'queued' AND last_polled_at < now() - make_interval(secs => $1::double precision / 1000)`,
      [c.queueAbandonMs],
      { close: 'abandoned' },
    );
    // closing, and the host never confirmed.
    await this.sweepRule(
      `state = 'closing' AND closing_at < now() - make_interval(secs => $1::double precision / 1000)`,
      [c.closeTimeoutMs],
      { finish: 'close_timeout' },
    );
    // sessions on hosts that are gone (a safety net; host transitions end them already).
    await this.sweepRule(
      `state = ANY($1::text[]) AND host_id IN (SELECT id FROM hosts WHERE state IN ('Unhealthy', 'Shutdown'))`,
      [HOLDING_STATES],
      { fail: 'host_lost' },
    );
    await this.drainQueue();
  }

  private async sweepLostHosts(): Promise<void> {
    // A restarted api must not declare hosts lost for the heartbeats it could not receive while
    // it was down: judge heartbeats only once a full timeout has passed since this process started.
    if (Date.now() - this.startedAt < this.config.hostHeartbeatTimeoutMs) return;
    const ended = await withTransaction(this.db, async (client) => {
      const { rows: hosts } = await client.query<{ id: string }>(
        `SELECT id FROM hosts WHERE state IN ('Ready', 'Allocated')
           AND last_heartbeat_at < now() - make_interval(secs => $1::double precision / 1000)
         ORDER BY id FOR UPDATE SKIP LOCKED`,
        [this.config.hostHeartbeatTimeoutMs],
      );
      const rows: SessionRow[] = [];
      for (const host of hosts) {
        await client.query(`UPDATE hosts SET state = 'Unhealthy', updated_at = now() WHERE id = $1`, [host.id]);
        this.log.warn({ hostId: host.id }, 'host missed its heartbeats: Unhealthy');
        rows.push(...(await this.failHostSessions(client, host.id, 'host_lost')));
      }
      return rows;
    });
    for (const row of ended) this.emitEnded(row.id, row.failure_reason ?? 'host_lost');
  }

  private async sweepRule(
    where: string,
    params: unknown[],
    action: { fail: string } | { close: string } | { finish: string },
  ): Promise<void> {
    const rows = await withTransaction(this.db, async (client) => {
      const { rows: due } = await client.query<SessionRow>(
        `SELECT * FROM sessions WHERE ${where} ORDER BY id LIMIT 200 FOR UPDATE SKIP LOCKED`,
        params,
      );
      const moved: SessionRow[] = [];
      for (const row of due) {
        if ('fail' in action) moved.push(await this.failLocked(client, row, action.fail, 'sweeper'));
        else if ('close' in action) moved.push(await this.beginClose(client, row, action.close, 'sweeper'));
        else moved.push(await transition(client, row, 'closed', { actor: 'sweeper', reason: action.finish }));
      }
      return moved;
    });
    if (rows.length === 0) return;
    this.log.info({ count: rows.length, action }, 'sweeper ended sessions');
    await Promise.all(
      rows.map((row) => {
        if ('close' in action) return this.afterClose(row);
        if ('fail' in action) return this.afterFail(row, action.fail === 'start_timeout');
        this.emitEnded(row.id, row.close_reason ?? 'closed');
        return refreshHostState(this.db, row.host_id);
      }),
    );
    this.kickDrain();
  }
}
