/**
 * What the parts of the session service share. service.ts builds one context and hands it to
 * each part (player.ts, lifecycle.ts, allocation.ts, hosts.ts, reports.ts, signalling.ts,
 * sweeper.ts): the database, settings, logger, host client and signal tokens; the listeners told
 * when a session ends or first becomes ready; the background work the service waits for on
 * close; the per-process host cooldown; and the queue drain, the one way a part asks for queued sessions to be placed. Parts
 * reach allocation only through `drainQueue`/`kickDrain`, so no part imports a part that imports it.
 */
import type { FastifyBaseLogger } from 'fastify';
import type pg from 'pg';
import type { SessionState } from '../../../../lib/api-types/sessions';
import type { HostClient } from '../hostClient';
import type { SessionRow } from '../sessionStore';
import type { SessionConfig } from '../sessionConfig';
import type { SignalTokens } from '../tokens';

export interface SessionServiceOptions {
  db: pg.Pool;
  config: SessionConfig;
  log: FastifyBaseLogger;
  hostClient: HostClient;
  signalTokens: SignalTokens;
  /** ws(s)://…/v1/signal as browsers and hosts reach it. */
  signalUrl: () => string;
}

/**
 * Told when a session ends or starts closing (the signalling relay sends `closed`): `state` is
 * the row's state now, `closing` or final (`closed`, `failed`), so a closed session is told twice.
 */
export type SessionEndedListener = (sessionId: string, reason: string, state: SessionState) => void;

/** Told once when a host first reports a session ready: seconds since the start call (DB clock). */
export type SessionReadyListener = (sessionId: string, startSeconds: number) => void;

export class SessionEvents {
  private readonly ended = new Set<SessionEndedListener>();
  private readonly ready = new Set<SessionReadyListener>();

  constructor(private readonly log: FastifyBaseLogger) {}

  on(listener: SessionEndedListener): void {
    this.ended.add(listener);
  }

  onReady(listener: SessionReadyListener): void {
    this.ready.add(listener);
  }

  emitEnded(row: Pick<SessionRow, 'id' | 'state'>, reason: string): void {
    for (const listener of this.ended) this.tell('session-ended', row.id, () => listener(row.id, reason, row.state));
  }

  /** `row` just moved to ready: its ready_at and created_at are both stamped by PostgreSQL. */
  emitReady(row: Pick<SessionRow, 'id' | 'created_at' | 'ready_at'>): void {
    if (!row.ready_at) return;
    const seconds = (row.ready_at.getTime() - row.created_at.getTime()) / 1000;
    for (const listener of this.ready) this.tell('session-ready', row.id, () => listener(row.id, seconds));
  }

  private tell(what: string, sessionId: string, call: () => void): void {
    try {
      call();
    } catch (error) {
      this.log.error({ err: error, sessionId }, `${what} listener failed`);
    }
  }
}

/** Work started in the background (host calls, close follow-ups, drains); errors are logged. */
export class BackgroundWork {
  private readonly inflight = new Set<Promise<unknown>>();

  constructor(private readonly log: FastifyBaseLogger) {}

  track(promise: Promise<unknown>): void {
    const tracked = promise.catch((error) => this.log.error({ err: error }, 'background session work failed'));
    this.inflight.add(tracked);
    void tracked.finally(() => this.inflight.delete(tracked));
  }

  /** What is under way now (a snapshot: more may be added while it settles). */
  pending(): Promise<unknown>[] {
    return [...this.inflight];
  }
}

export interface SessionContext extends SessionServiceOptions {
  events: SessionEvents;
  work: BackgroundWork;
  /** Host id → until when (ms) allocation skips it: it refused a start or could not be reached. */
  cooldown: Map<string, number>;
  /** Places queued sessions now (allocation.ts); resolves when the database part is done. */
  drainQueue(): Promise<void>;
  /** drainQueue in the background: every path that frees a slot or queues a session calls it. */
  kickDrain(): void;
}
