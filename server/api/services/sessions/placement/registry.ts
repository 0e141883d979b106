/**
 * The default placement: the built-in PostgreSQL host registry (docs/sessions.md 1 "Allocation
 * order"). In one transaction: lock the head of the queue (SKIP LOCKED; if there is none,
 * nothing else is touched, so only a transaction that really places a session ever holds a
 * host row), read the live hosts and the sessions holding their slots without locks, keep those
 * out of this process's cooldown with a free slot (their capacity, capped by HOST_SESSION_LIMIT,
 * less the sessions holding one), rank them (fewest active, then warm runtimes, then room, then
 * id), then lock only the chosen host (FOR UPDATE SKIP LOCKED: a host another replica's start
 * holds is passed over for the next of up to 8), count its sessions again under that lock
 * (grown since the read, while a later candidate has fewer: that one is tried first, this one
 * kept as the fallback, so concurrent starts keep spreading), and move the queue's head to
 * `allocating` there;
 * the host is marked Allocated. A host's row serialises the placements on it across api
 * replicas, so none goes over capacity; a start locks one host row, not the fleet (docs/scale.md,
 * "What breaks first": locking every healthy host capped starts at 10–30 a second with 2,000 hosts).
 */
import { withTransaction, transition, HOLDING_STATES, type SessionRow } from '../../sessionStore';
import type { SessionContext } from '../context';
import type { HostRow } from '../hostStore';
import type { Placement } from './types';

export class RegistryPlacement implements Placement {
  readonly kind = 'registry';

  constructor(private readonly ctx: SessionContext) {}

  private effectiveCapacity(capacity: number): number {
    const limit = this.ctx.config.hostSessionLimit;
    return limit > 0 ? Math.min(capacity, limit) : capacity;
  }

  async next(): Promise<{ session: SessionRow; host: HostRow } | null> {
    return withTransaction(this.ctx.db, async (client) => {
      // The queue's head first: a drain that finds nothing to place locks no host, so it never
      // makes another replica's start pass over a free host (SKIP LOCKED) and stack two
      // sessions on one while a third host stays empty.
      const { rows: queued } = await client.query<SessionRow>(
        `SELECT * FROM sessions WHERE state = 'queued' ORDER BY queued_at, id LIMIT 1 FOR UPDATE SKIP LOCKED`,
      );
      if (!queued[0]) return null;
      const fresh = `state IN ('Ready', 'Allocated') AND last_heartbeat_at > now() - make_interval(secs => $1::double precision / 1000)`;
      const { rows: hosts } = await client.query<HostRow & { reported_warm: number; active: number }>(
        `SELECT h.id, h.url, h.capacity, h.state, h.reported_warm, coalesce(c.n, 0)::int AS active
         FROM hosts h LEFT JOIN (SELECT host_id, count(*) AS n FROM sessions WHERE state = ANY($2::text[]) GROUP BY host_id) c
           ON c.host_id = h.id
         WHERE h.${fresh}`,
        [this.ctx.config.hostHeartbeatTimeoutMs, HOLDING_STATES],
      );
      const now = Date.now();
      const ranked = hosts
        .filter((host) => (this.ctx.cooldown.get(host.id) ?? 0) <= now && this.effectiveCapacity(host.capacity) - host.active > 0)
        .sort(
          (a, b) =>
            a.active - b.active ||
            Number(b.reported_warm > 0) - Number(a.reported_warm > 0) ||
            this.effectiveCapacity(b.capacity) - b.active - (this.effectiveCapacity(a.capacity) - a.active) ||
            a.id.localeCompare(b.id),
        );
      const candidates = ranked.slice(0, 8);
      // A host locked with room whose count grew since the read (another replica placed there
      // meanwhile): kept as the fallback while a later candidate may still have fewer sessions,
      // so concurrent starts keep spreading.
      let fallback: HostRow | null = null;
      let chosen: HostRow | null = null;
      for (let i = 0; i < candidates.length && !chosen; i++) {
        const candidate = candidates[i];
        const { rows: locked } = await client.query<HostRow>(
          `SELECT id, url, capacity, state FROM hosts WHERE id = $2 AND ${fresh} FOR UPDATE SKIP LOCKED`,
          [this.ctx.config.hostHeartbeatTimeoutMs, candidate.id],
        );
        if (!locked[0]) continue;
        const { rows: count } = await client.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM sessions WHERE host_id = $1 AND state = ANY($2::text[])',
          [candidate.id, HOLDING_STATES],
        );
        if (count[0].n >= this.effectiveCapacity(locked[0].capacity)) continue;
        const fewerLater = candidates.slice(i + 1).some((other) => other.active < count[0].n);
        if (count[0].n > candidate.active && fewerLater) fallback ??= locked[0];
        else chosen = locked[0];
      }
      const host = chosen ?? fallback;
      if (!host) return null;
      const session = await transition(client, queued[0], 'allocating', {
        actor: 'api',
        reason: host.id,
        set: { host_id: host.id, allocation_attempts: queued[0].allocation_attempts + 1 },
      });
      await client.query(`UPDATE hosts SET state = 'Allocated', updated_at = now() WHERE id = $1 AND state = 'Ready'`, [host.id]);
      return { session, host };
    });
  }
}
