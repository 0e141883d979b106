/**
 * The Agones placement (AGONES_ALLOCATOR_URL; docs/host.md "Fleets"): the head of the queue is
 * locked (FOR UPDATE SKIP LOCKED, so two api replicas never ask for the same session), the
 * allocator service is asked for a GameServer with room in its `sessions` counter (which it
 * increments), and the session moves to `allocating` on the host registered under the
 * GameServer's name, called at the address and port the allocator answered. Lock order: this path
 * starts from a session, so it locks only the session and refreshes the host's Ready/Allocated
 * state after the commit (../../sessionStore.ts). No GameServer now (UnAllocated, Contention, 503,
 * the allocator unreachable) leaves the session queued where it was — the fleet being full is a
 * wait, as no free host is in the registry path — and the allocator is asked again after
 * RETRY_MS. A GameServer the registry does not know as a live host (not registered yet, no
 * heartbeat) or one in this process's cooldown (it refused a start a moment ago) is skipped the
 * same way; its counter increment is undone by the host's own count. A host that refuses the start
 * is allocation.ts's, with the same retry rules as the registry path (cooldown, back to the head of
 * the queue, failed host_unavailable after MAX_ALLOCATION_ATTEMPTS).
 */
import { withTransaction, transition, type SessionRow } from '../../sessionStore';
import type { AgonesAllocatorConfig } from '../../sessionConfig';
import type { SessionContext } from '../context';
import { refreshHostState, type HostRow } from '../hostStore';
import { allocate } from './allocatorClient';
import type { Placement } from './types';

/** After an allocation that gave no usable GameServer, wait this long before asking again. */
export const RETRY_MS = 1_000;

export class AgonesPlacement implements Placement {
  readonly kind = 'agones';
  private retryAt = 0;
  private retryTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly ctx: SessionContext,
    private readonly config: AgonesAllocatorConfig,
  ) {}

  async next(): Promise<{ session: SessionRow; host: HostRow } | null> {
    if (Date.now() < this.retryAt) return null;
    const placed = await withTransaction(this.ctx.db, async (client) => {
      const { rows: queued } = await client.query<SessionRow>(
        `SELECT * FROM sessions WHERE state = 'queued' ORDER BY queued_at, id LIMIT 1 FOR UPDATE SKIP LOCKED`,
      );
      if (!queued[0]) return null;
      const answer = await allocate(this.config, queued[0].id);
      if (answer.kind !== 'allocated') {
        const level = answer.kind === 'none' ? 'info' : 'warn';
        this.ctx.log[level]({ sessionId: queued[0].id, status: answer.status, detail: answer.detail }, 'agones allocator: no GameServer for the session now');
        this.retryLater();
        return null;
      }
      if ((this.ctx.cooldown.get(answer.gameServerName) ?? 0) > Date.now()) {
        // it refused a start or could not be reached a moment ago (allocation.ts): as in the
        // registry path, not used until its cooldown ends; the allocator's increment fills its
        // counter meanwhile, so Agones looks elsewhere until the host's own count corrects it
        this.ctx.log.info({ sessionId: queued[0].id, gameServer: answer.gameServerName }, 'agones allocator: the GameServer is cooling down after a refusal');
        this.retryLater();
        return null;
      }
      const { rows: hosts } = await client.query<HostRow>(
        `SELECT id, url, capacity, state FROM hosts WHERE id = $1 AND state IN ('Ready', 'Allocated')
           AND last_heartbeat_at > now() - make_interval(secs => $2::double precision / 1000)`,
        [answer.gameServerName, this.ctx.config.hostHeartbeatTimeoutMs],
      );
      if (!hosts[0]) {
        this.ctx.log.warn({ sessionId: queued[0].id, gameServer: answer.gameServerName }, 'agones allocator: the GameServer is not a live registered host (HOST_ID must be its name)');
        this.retryLater();
        return null;
      }
      const session = await transition(client, queued[0], 'allocating', {
        actor: 'api',
        reason: hosts[0].id,
        set: { host_id: hosts[0].id, allocation_attempts: queued[0].allocation_attempts + 1 },
      });
      // the start goes where the allocator says the GameServer is reached
      return { session, host: { ...hosts[0], url: answer.hostUrl } };
    });
    if (placed) await refreshHostState(this.ctx.db, placed.host.id);
    return placed;
  }

  /** No drain asks the allocator before RETRY_MS; one drain is kicked then (nothing else may come). */
  private retryLater(): void {
    this.retryAt = Date.now() + RETRY_MS;
    if (this.retryTimer) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.ctx.kickDrain();
    }, RETRY_MS);
    this.retryTimer.unref?.();
  }
}

