/**
 * The host registry (docs/sessions.md 4.1; Agones-like states Ready, Allocated, Unhealthy,
 * Shutdown): a host registers (its earlier runtimes are gone: their sessions fail
 * host_restarted), heartbeats (an Unhealthy host comes back; sessions it no longer lists fail
 * runtime_lost; the answer lists the sessions the api still wants there; usually one statement,
 * hostStore.ts beatHost) and shuts down. Its SQL is hostStore.ts's. Hosts that stop heartbeating are the sweeper's
 * (sweeper.ts); every stored heartbeat also counts as this process's contact with PostgreSQL, by
 * which the sweeper knows it could store heartbeats (liveness.ts).
 */
import type { HeartbeatAnswer, HeartbeatBody, RegisterBody } from '../../../shared/host-contract';
import { ApiError } from '../../errors';
import { withTransaction, type SessionRow } from '../sessionStore';
import type { SessionContext } from './context';
import { beatHost, lockMissingSessions, markHostShutdown, upsertRegisteredHost } from './hostStore';
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
      await upsertRegisteredHost(client, input);
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
      const missing = await lockMissingSessions(client, hostId, sessionIds, this.ctx.config.runtimeLostGraceMs);
      const lost: SessionRow[] = [];
      for (const row of missing) lost.push(await this.lifecycle.failLocked(client, row, 'runtime_lost', 'host'));
      return lost;
    });
  }

  async shutdownHost(hostId: string): Promise<void> {
    const failed = await withTransaction(this.ctx.db, async (client) => {
      if (!(await markHostShutdown(client, hostId))) throw new ApiError('host_not_found');
      return this.lifecycle.failHostSessions(client, hostId, 'host_shutdown');
    });
    for (const row of failed) this.ctx.events.emitEnded(row, row.failure_reason ?? 'host_shutdown');
    this.ctx.kickDrain();
  }
}
