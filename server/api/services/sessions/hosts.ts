/**
 * The host registry (docs/sessions.md 4.1; Agones-like states Ready, Allocated, Unhealthy,
 * Shutdown): a host registers (its earlier runtimes are gone: their sessions fail
 * host_restarted), heartbeats (an Unhealthy host comes back; sessions it no longer lists fail
 * runtime_lost; the answer lists the sessions the api still wants there; usually one statement,
 * hostStore.ts beatHost) and shuts down. Hosts that stop heartbeating are the sweeper's
 * (sweeper.ts); every stored heartbeat also counts as this process's contact with PostgreSQL, by
 * which the sweeper knows it could store heartbeats (liveness.ts).
 */
import type { HeartbeatAnswer, HeartbeatBody, RegisterBody } from '../../../shared/host-contract';
import { ApiError } from '../../errors';
import { withTransaction, type SessionRow } from '../sessionStore';
import type { SessionContext } from './context';
import { beatHost } from './hostStore';
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

  /**
   * One round trip in the usual case (hostStore.ts beatHost: stamp, state, the answer's lists);
   * only when the host stopped listing a session of ours does a transaction lock and fail it.
   */
  async heartbeat(hostId: string, input: HeartbeatBody): Promise<Omit<HeartbeatAnswer, 'status'>> {
    const { db, config } = this.ctx;
    const sentAt = monotonicNow();
    const beat = await beatHost(db, hostId, { ...input, runtimeLostGraceMs: config.runtimeLostGraceMs });
    if (!beat) throw new ApiError('host_not_found');
    this.contact.succeeded(sentAt);
    const revived = beat.before === 'Unhealthy';
    if (beat.missing.length === 0) {
      if (revived || (beat.waiting && beat.state !== 'Shutdown')) this.ctx.kickDrain();
      return { state: beat.state, sessions: beat.live };
    }
    const lost = await this.failMissing(hostId, input.sessionIds ?? []);
    for (const row of lost) this.ctx.events.emitEnded(row, row.failure_reason ?? 'runtime_lost');
    // the row again, now without the failed sessions (its state and the answer's list)
    const after = await beatHost(db, hostId, { ...input, runtimeLostGraceMs: config.runtimeLostGraceMs });
    this.ctx.kickDrain();
    return { state: after?.state ?? beat.state, sessions: after?.live ?? beat.live.filter((id) => !lost.some((row) => row.id === id)) };
  }

  /** Fails (runtime_lost) the host's sessions it no longer lists, under the host's and their row locks. */
  private async failMissing(hostId: string, sessionIds: string[]): Promise<SessionRow[]> {
    return withTransaction(this.ctx.db, async (client) => {
      await client.query('SELECT 1 FROM hosts WHERE id = $1 FOR UPDATE', [hostId]);
      const { rows: missing } = await client.query<SessionRow>(
        `SELECT * FROM sessions WHERE host_id = $1 AND state IN ('starting', 'ready', 'playing')
           AND allocated_at < now() - make_interval(secs => $2::double precision / 1000)
           AND NOT (id::text = ANY($3::text[]))
         FOR UPDATE`,
        [hostId, this.ctx.config.runtimeLostGraceMs, sessionIds],
      );
      const lost: SessionRow[] = [];
      for (const row of missing) lost.push(await this.lifecycle.failLocked(client, row, 'runtime_lost', 'host'));
      return lost;
    });
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
