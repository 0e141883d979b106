/**
 * The `before` arm of bench/scale-db.ts: the host heartbeat, the host-state refresh and the
 * input-activity report exactly as they were at commit 7f239d1 (before issue 14's PostgreSQL
 * work in server/api/services/sessions/hosts.ts, hostStore.ts and reports.ts), so the bench can
 * measure both in one run on one api. Nothing in the product imports this file; the bench puts
 * these functions in place of the service's own for the `before` arm and restores them after.
 */
import type pg from 'pg';
import type { HeartbeatBody, HostState } from '../server/shared/host-contract';
import { ApiError } from '../server/api/errors';
import { HOLDING_STATES, withTransaction, type SessionRow } from '../server/api/services/sessionStore';
import type { SessionContext } from '../server/api/services/sessions/context';
import type { SessionLifecycle } from '../server/api/services/sessions/lifecycle';
import { databaseContact, monotonicNow } from '../server/api/services/sessions/liveness';

async function refreshHostStateBefore(db: pg.Pool | pg.PoolClient, hostId: string | null): Promise<void> {
  if (!hostId) return;
  await db.query(
    `UPDATE hosts SET updated_at = now(), state = CASE
         WHEN EXISTS (SELECT 1 FROM sessions WHERE host_id = $1 AND state = ANY($2::text[])) THEN 'Allocated'
         ELSE 'Ready' END
     WHERE id = $1 AND state IN ('Ready', 'Allocated')`,
    [hostId, HOLDING_STATES],
  );
}

/** HostRegistry.heartbeat at 7f239d1. */
export async function heartbeatBefore(
  ctx: SessionContext,
  lifecycle: SessionLifecycle,
  hostId: string,
  input: HeartbeatBody,
): Promise<{ state: HostState; sessions: string[] }> {
  const { db } = ctx;
  const contact = databaseContact(ctx);
  const sentAt = monotonicNow();
  const result = await withTransaction(db, async (client) => {
    const { rows } = await client.query<{ state: HostState }>('SELECT id, url, capacity, state FROM hosts WHERE id = $1 FOR UPDATE', [hostId]);
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
        [hostId, ctx.config.runtimeLostGraceMs, input.sessionIds],
      );
      for (const row of missing) lost.push(await lifecycle.failLocked(client, row, 'runtime_lost', 'host'));
    }
    return { revived, lost };
  });
  contact.succeeded(sentAt);
  for (const row of result.lost) ctx.events.emitEnded(row, row.failure_reason ?? 'runtime_lost');
  await refreshHostStateBefore(db, hostId);
  const { rows } = await db.query<{ state: HostState }>('SELECT state FROM hosts WHERE id = $1', [hostId]);
  const { rows: live } = await db.query<{ id: string }>(
    'SELECT id FROM sessions WHERE host_id = $1 AND state = ANY($2::text[]) ORDER BY allocated_at',
    [hostId, HOLDING_STATES],
  );
  if (result.revived || result.lost.length > 0) ctx.kickDrain();
  else if (rows[0]?.state !== 'Shutdown') {
    const { rows: waiting } = await db.query(`SELECT 1 FROM sessions WHERE state = 'queued' LIMIT 1`);
    if (waiting.length) ctx.kickDrain();
  }
  return { state: rows[0]?.state ?? 'Ready', sessions: live.map((row) => row.id) };
}

/** HostReports.hostInputActivity at 7f239d1. */
export async function inputActivityBefore(ctx: SessionContext, hostId: string, sessionId: string, at: number | undefined): Promise<void> {
  const when = at === undefined ? Date.now() : Math.min(at, Date.now());
  const { rowCount } = await ctx.db.query(
    `UPDATE sessions SET last_input_at = greatest(coalesce(last_input_at, to_timestamp(0)), to_timestamp($3::double precision / 1000))
     WHERE id = $1 AND host_id = $2`,
    [sessionId, hostId, when],
  );
  if (!rowCount) throw new ApiError('session_not_found');
}

/** Puts the functions above in place of the service's own (`app.sessions`); returns the undo. */
export function beforeArm(sessions: unknown): () => void {
  const service = sessions as {
    ctx: SessionContext;
    lifecycle: SessionLifecycle;
    hosts: { heartbeat: unknown };
    reports: { hostInputActivity: unknown };
  };
  const saved = { heartbeat: service.hosts.heartbeat, input: service.reports.hostInputActivity };
  service.hosts.heartbeat = (hostId: string, body: HeartbeatBody) => heartbeatBefore(service.ctx, service.lifecycle, hostId, body);
  service.reports.hostInputActivity = (hostId: string, sessionId: string, at: number | undefined) =>
    inputActivityBefore(service.ctx, hostId, sessionId, at);
  return () => {
    service.hosts.heartbeat = saved.heartbeat;
    service.reports.hostInputActivity = saved.input;
  };
}
