/**
 * What the parts of the session service share. service.ts builds one context and hands it to
 * each part (player.ts, lifecycle.ts, allocation.ts, hosts.ts, reports.ts, signalling.ts,
 * sweeper.ts): the database, settings, logger, host client and signal tokens; the listeners told
 * when a session ends; the background work the service waits for on close; the per-process host
 * cooldown; and the queue drain, the one way a part asks for queued sessions to be placed. Parts
 * reach allocation only through `drainQueue`/`kickDrain`, so no part imports a part that imports it.
 */
import type { FastifyBaseLogger } from 'fastify';
import type pg from 'pg';
import type { HostClient } from '../hostClient';
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

/** Told when a session ends or starts closing (the signalling relay sends `closed`). */
export type SessionEndedListener = (sessionId: string, reason: string) => void;

export class SessionEvents {
  private readonly listeners = new Set<SessionEndedListener>();

  constructor(private readonly log: FastifyBaseLogger) {}

  on(listener: SessionEndedListener): void {
    this.listeners.add(listener);
  }

  emitEnded(sessionId: string, reason: string): void {
    for (const listener of this.listeners) {
      try {
        listener(sessionId, reason);
      } catch (error) {
        this.log.error({ err: error, sessionId }, 'session-ended listener failed');
      }
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
