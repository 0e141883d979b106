/**
 * The host registry (docs/sessions.md 4.1; Agones-like states Ready, Allocated, Unhealthy,
 * Shutdown): a host registers (its earlier runtimes are gone: their sessions fail
 * host_restarted), heartbeats (an Unhealthy host comes back; sessions it no longer lists fail
 * runtime_lost; the answer lists the sessions the api still wants there) and shuts down. Hosts
 * that stop heartbeating are the sweeper's (sweeper.ts); every stored heartbeat also counts as
 * this process's contact with PostgreSQL, by which the sweeper knows it could store heartbeats
 * (liveness.ts).
 */
import type { HeartbeatAnswer, HeartbeatBody, HostState, RegisterBody } from '../../../shared/host-contract';
import { ApiError } from '../../errors';
import { HOLDING_STATES, withTransaction, type SessionRow } from '../sessionStore';
import type { SessionContext } from './context';
import { refreshHostState, type HostRow } from './hostStore';
import type { SessionLifecycle } from './lifecycle';
import { databaseContact, monotonicNow, type DatabaseContact } from './liveness';

export class HostRegistry {
  private readonly contact: DatabaseContact;

  constructor(
    private readonly ctx: SessionContext,
    private readonly lifecycle: SessionLifecycle,
  ) {
    this.contact = databaseContact(ctx);
  }

  async registerHost(input: RegisterBody): Promise<void> {
    const failed = await withTransaction(this.ctx.db, async (client) => {
      await client.query(
        `INSERT INTO hosts (id, url, capacity, state, reported_active, reported_warm, registered_at, last_heartbeat_at, updated_at)
         VALUES ($1, $2, $3, 'Ready', 0, $4, now(), now(), now())
         ON CONFLICT (id) DO UPDATE SET url = EXCLUDED.url, capacity = EXCLUDED.capacity, state = 'Ready',
           reported_active = 0, reported_warm = EXCLUDED.reported_warm, registered_at = now(),
           last_heartbeat_at = now(), updated_at = now()`,
        [input.hostId, input.url, input.capacity, input.warm ?? 0],
      );
      // A (re-)registering host has no runtimes: sessions the api placed there are gone.
      return this.lifecycle.failHostSessions(client, input.hostId, 'host_restarted');
    });
    this.ctx.cooldown.delete(input.hostId);
    for (const row of failed) this.ctx.events.emitEnded(row, row.failure_reason ?? 'host_restarted');
    this.ctx.kickDrain();
  }

  async heartbeat(hostId: string, input: HeartbeatBody): Promise<Omit<HeartbeatAnswer, 'status'>> {
    const { db } = this.ctx;
    const sentAt = monotonicNow();
    const result = await withTransaction(db, async (client) => {
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
          [hostId, this.ctx.config.runtimeLostGraceMs, input.sessionIds],
        );
        for (const row of missing) lost.push(await this.lifecycle.failLocked(client, row, 'runtime_lost', 'host'));
      }
      return { revived, lost };
    });
    this.contact.succeeded(sentAt);
    for (const row of result.lost) this.ctx.events.emitEnded(row, row.failure_reason ?? 'runtime_lost');
    await refreshHostState(db, hostId);
    const { rows } = await db.query<{ state: HostState }>('SELECT state FROM hosts WHERE id = $1', [hostId]);
    const { rows: live } = await db.query<{ id: string }>(
      'SELECT id FROM sessions WHERE host_id = $1 AND state = ANY($2::text[]) ORDER BY allocated_at',
      [hostId, HOLDING_STATES],
    );
    if (result.revived || result.lost.length > 0) this.ctx.kickDrain();
    else if (rows[0]?.state !== 'Shutdown') {
      // Capacity may be free and a queue waiting (e.g. right after an api restart).
      const { rows: waiting } = await db.query(`SELECT 1 FROM sessions WHERE state = 'queued' LIMIT 1`);
      if (waiting.length) this.ctx.kickDrain();
    }
    return { state: rows[0]?.state ?? 'Ready', sessions: live.map((row) => row.id) };
  }

  async shutdownHost(hostId: string): Promise<void> {
    const failed = await withTransaction(this.ctx.db, async (client) => {
      const { rows } = await client.query('SELECT id FROM hosts WHERE id = $1 FOR UPDATE', [hostId]);
      if (!rows[0]) throw new ApiError('host_not_found');
      await client.query(`UPDATE hosts SET state = 'Shutdown', updated_at = now() WHERE id = $1`, [hostId]);
      return this.lifecycle.failHostSessions(client, hostId, 'host_shutdown');
    });
    for (const row of failed) this.ctx.events.emitEnded(row, row.failure_reason ?? 'host_shutdown');
    this.ctx.kickDrain();
  }
}
