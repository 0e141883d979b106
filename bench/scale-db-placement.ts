/**
 * The `before` arm of bench/scale-db.ts's start rounds (docs/scale.md, "What breaks first", item
 * 1): the registry placement as it was before issue 14's fix, locking every healthy host row
 * (FOR UPDATE) on every start, so a start's cost grew with the fleet. The product's placement
 * (server/api/services/sessions/placement/registry.ts) now locks only the chosen host. Nothing in
 * the product imports this file; the bench puts `next` in place of the placement's own for its
 * `every host locked (before)` arm.
 */
import { HOLDING_STATES, transition, withTransaction, type SessionRow } from '../server/api/services/sessionStore';
import type { SessionContext } from '../server/api/services/sessions/context';
import type { HostRow } from '../server/api/services/sessions/hostStore';

export async function placeWithEveryHostLocked(ctx: SessionContext): Promise<{ session: SessionRow; host: HostRow } | null> {
  const limit = ctx.config.hostSessionLimit;
  const capacityOf = (capacity: number) => (limit > 0 ? Math.min(capacity, limit) : capacity);
  return withTransaction(ctx.db, async (client) => {
    const { rows: hosts } = await client.query<HostRow & { reported_warm: number }>(
      `SELECT id, url, capacity, state, reported_warm FROM hosts
       WHERE state IN ('Ready', 'Allocated') AND last_heartbeat_at > now() - make_interval(secs => $1::double precision / 1000)
       ORDER BY id FOR UPDATE`,
      [ctx.config.hostHeartbeatTimeoutMs],
    );
    const now = Date.now();
    const candidates = hosts.filter(
      (host) => (ctx.cooldown.get(host.id) ?? 0) <= now && capacityOf(host.capacity) > 0,
    );
    if (candidates.length === 0) return null;
    const { rows: counts } = await client.query<{ host_id: string; n: number }>(
      `SELECT host_id, count(*)::int AS n FROM sessions
       WHERE host_id = ANY($1::text[]) AND state = ANY($2::text[]) GROUP BY host_id`,
      [candidates.map((host) => host.id), HOLDING_STATES],
    );
    const active = new Map(counts.map((row) => [row.host_id, row.n]));
    const free = candidates
      .map((host) => ({ host, active: active.get(host.id) ?? 0, free: capacityOf(host.capacity) - (active.get(host.id) ?? 0) }))
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

/** Puts placeWithEveryHostLocked in place of the service's placement (`app.sessions`); returns the undo. */
export function everyHostLockArm(sessions: unknown): () => void {
  const service = sessions as { ctx: SessionContext; allocation: { placement?: Record<string, unknown> } & Record<string, unknown> };
  // the placement's `next` (placement/registry.ts), or the allocation's own before placements existed
  const holder = service.allocation.placement ?? service.allocation;
  const key = service.allocation.placement ? 'next' : 'allocateNext';
  const saved = holder[key];
  holder[key] = () => placeWithEveryHostLocked(service.ctx);
  return () => {
    holder[key] = saved;
  };
}
