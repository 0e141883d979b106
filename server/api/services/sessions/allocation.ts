/**
 * The queue and allocation (docs/sessions.md 1, "Allocation order"): places queued sessions
 * (FIFO) where the placement says — on healthy registered hosts with a free slot, fewest active
 * sessions first (placement/registry.ts, the default), or on the GameServer Agones' allocator
 * hands out (placement/agones.ts, AGONES_ALLOCATOR_URL) — then calls those hosts
 * (POST {host}/sessions with the saves to resume from). A host that refuses or cannot be reached
 * is skipped for a while by this process; the session goes back to the head of the queue, and
 * fails host_unavailable after MAX_ALLOCATION_ATTEMPTS.
 */
import { withTransaction, lockSession, transition, type SessionRow } from '../sessionStore';
import type { SessionContext } from './context';
import { refreshHostState, type HostRow } from './hostStore';
import type { SessionLifecycle } from './lifecycle';
import { createPlacement, type Placement } from './placement';
import { iceServersFor } from '../turn';

/** How often the api tries to place one session before it fails with host_unavailable. */
export const MAX_ALLOCATION_ATTEMPTS = 3;
/** A host that refused or could not be reached is skipped for this long (per process). */
export const HOST_COOLDOWN_MS = 3_000;

export class SessionAllocation {
  private drainPromise: Promise<void> | null = null;
  private drainAgain = false;
  private stopped = false;
  /** Where a queued session goes: the PostgreSQL registry, or Agones' allocator (placement/). */
  private readonly placement: Placement;

  constructor(
    private readonly ctx: SessionContext,
    private readonly lifecycle: SessionLifecycle,
  ) {
    this.placement = createPlacement(ctx);
  }

  /** The drain under way, if any (the service waits for it on close). */
  get draining(): Promise<void> | null {
    return this.drainPromise;
  }

  /** No drain starts after this (app close). */
  stop(): void {
    this.stopped = true;
  }

  /**
   * Places queued sessions (FIFO) through the placement, then calls those hosts. One drain at a
   * time per process; across processes the rows locked FOR UPDATE (hosts in the registry path,
   * the queued session in both) serialise the decisions. Resolves when the database part is done (host calls
   * continue in the background).
   */
  drainQueue(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (this.drainPromise) {
      this.drainAgain = true;
      return this.drainPromise;
    }
    this.drainPromise = (async () => {
      try {
        do {
          this.drainAgain = false;
          for (let placed = 0; placed < 100; placed += 1) {
            const allocation = await this.placement.next();
            if (!allocation) break;
            this.ctx.work.track(this.startOnHost(allocation.session, allocation.host));
          }
        } while (this.drainAgain && !this.stopped);
      } catch (error) {
        this.ctx.log.error({ err: error }, 'allocation failed');
      } finally {
        this.drainPromise = null;
      }
    })();
    return this.drainPromise;
  }

  private async startOnHost(session: SessionRow, host: HostRow): Promise<void> {
    const { config, hostClient, signalTokens } = this.ctx;
    const { rows: saves } = await this.ctx.db.query<{ slot: string; state: Record<string, unknown>; updated_at: Date }>(
      'SELECT slot, state, updated_at FROM saves WHERE uid = $1 AND game_id = $2 ORDER BY updated_at DESC, slot',
      [session.uid, session.game_id],
    );
    const resume = saves.find((save) => save.slot === 'auto') ?? saves[0];
    const signalToken = await signalTokens.sign({ sessionId: session.id, uid: session.uid, role: 'host' }, config.signalHostTokenTtlS);
    const result = await hostClient.startSession(host.url, {
      sessionId: session.id,
      gameId: session.game_id,
      uid: session.uid,
      signalUrl: this.ctx.signalUrl(),
      signalToken,
      iceServers: iceServersFor(config, session.id),
      quality: session.quality,
      provider: config.provider,
      resumeState: resume ? resume.state : null,
      saves: saves.map((save) => ({ slot: save.slot, state: save.state, updatedAt: save.updated_at.toISOString() })),
      idleWarningMs: config.idleWarningMs,
      idleCloseMs: config.idleCloseMs,
    });
    if (result.ok) return;

    this.ctx.log.warn({ sessionId: session.id, hostId: host.id, detail: result.detail }, 'host refused or missed the start');
    if (result.network || result.status >= 500 || result.status === 409 || result.status === 429) {
      this.ctx.cooldown.set(host.id, Date.now() + HOST_COOLDOWN_MS);
    }
    const failed = await withTransaction(this.ctx.db, async (client) => {
      const locked = await lockSession(client, session.id);
      if (!locked || locked.state !== 'allocating' || locked.host_id !== host.id) return null;
      if (result.retryable && locked.allocation_attempts < MAX_ALLOCATION_ATTEMPTS) {
        // Back to the head of the queue (queued_at is kept).
        await transition(client, locked, 'queued', { actor: 'api', reason: 'host_refused', set: { host_id: null } });
        return null;
      }
      return this.lifecycle.failLocked(client, locked, 'host_unavailable', 'api');
    });
    await refreshHostState(this.ctx.db, host.id);
    if (failed) this.ctx.events.emitEnded(failed, 'host_unavailable');
    this.ctx.kickDrain();
  }
}
