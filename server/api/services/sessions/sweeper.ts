/**
 * The sweeper (docs/sessions.md 3): one pass of the background rules, run every
 * SESSION_SWEEP_INTERVAL_MS by plugins/sessions.ts and safe in several processes (rows are taken
 * FOR UPDATE SKIP LOCKED). Hosts that missed their heartbeats become Unhealthy; sessions that
 * overstay a state are failed or closed; then the queue is drained.
 *
 * A stall of the judge does not condemn the judged (liveness.ts, docs/reliability.md): hosts are
 * judged only once this process has been in continuous contact with PostgreSQL for a whole
 * heartbeat timeout (after its start, a database stall, or a pause of its own), and after such a
 * gap the other rules wait as long, so evidence that could not be stored meanwhile gets in first.
 */
import type { SessionCloseReason, SessionFailureReason } from '../../../../lib/api-types/sessions';
import { HOLDING_STATES, transition, withTransaction, type SessionRow } from '../sessionStore';
import type { SessionContext } from './context';
import { refreshHostState } from './hostStore';
import type { SessionLifecycle } from './lifecycle';
import { databaseContact, monotonicNow, type DatabaseContact } from './liveness';

/** What a rule does to the sessions it selects: fail them, close them, or finish their closing. */
type SweepAction = { fail: SessionFailureReason } | { close: SessionCloseReason } | { finish: SessionCloseReason };

export class Sweeper {
  /** This process's contact with PostgreSQL (shared with the heartbeats of hosts.ts). */
  private readonly contact: DatabaseContact;
  /** Grace after a gap is logged once per gap. */
  private deferredLogged = false;

  constructor(
    private readonly ctx: SessionContext,
    private readonly lifecycle: SessionLifecycle,
  ) {
    this.contact = databaseContact(ctx);
  }

  /** One pass of the background rules (docs/sessions.md 3). Safe to run in several processes. */
  async sweep(): Promise<void> {
    await this.sweepLostHosts();
    const c = this.ctx.config;
    // After a gap in this process's contact with PostgreSQL, reports, polls and joins that could
    // not be stored meanwhile get one heartbeat timeout to arrive before any rule judges by them.
    if (!this.contact.quietFor(c.hostHeartbeatTimeoutMs)) {
      await this.ctx.drainQueue();
      return;
    }
    // allocating/starting for too long → failed start_timeout (and the host is told to stop).
    await this.sweepRule(
      `state IN ('allocating', 'starting') AND allocated_at < now() - make_interval(secs => $1::double precision / 1000)`,
      [c.startTimeoutMs],
      { fail: 'start_timeout' },
    );
    // ready, and nobody joined in time.
    await this.sweepRule(
      `state = 'ready' AND ready_at < now() - make_interval(secs => $1::double precision / 1000)`,
      [c.readyJoinTimeoutMs],
      { close: 'not_joined' },
    );
    // playing with no input.
    await this.sweepRule(
      `state = 'playing' AND coalesce(last_input_at, playing_at) < now() - make_interval(secs => $1::double precision / 1000)`,
      [c.idleCloseMs],
      { close: 'idle' },
    );
    // the player went away and did not come back.
    await this.sweepRule(
      `state = 'playing' AND player_left_at < now() - make_interval(secs => $1::double precision / 1000)`,
      [c.reconnectGraceMs],
      { close: 'disconnected' },
    );
    // queued, and nobody polls its status any more.
    await this.sweepRule(
      `state = 'queued' AND last_polled_at < now() - make_interval(secs => $1::double precision / 1000)`,
      [c.queueAbandonMs],
      { close: 'abandoned' },
    );
    // closing, and the host never confirmed.
    await this.sweepRule(
      `state = 'closing' AND closing_at < now() - make_interval(secs => $1::double precision / 1000)`,
      [c.closeTimeoutMs],
      { finish: 'close_timeout' },
    );
    // sessions on hosts that are gone (a safety net; host transitions end them already).
    await this.sweepRule(
      `state = ANY($1::text[]) AND host_id IN (SELECT id FROM hosts WHERE state IN ('Unhealthy', 'Shutdown'))`,
      [HOLDING_STATES],
      { fail: 'host_lost' },
    );
    await this.ctx.drainQueue();
  }

  private async sweepLostHosts(): Promise<void> {
    const timeoutMs = this.ctx.config.hostHeartbeatTimeoutMs;
    const sentAt = monotonicNow();
    const ended = await withTransaction(this.ctx.db, async (client) => {
      // Heartbeat ages by PostgreSQL's clock (heartbeats are written with now()).
      const { rows: hosts } = await client.query<{ id: string }>(
        `SELECT id FROM hosts WHERE state IN ('Ready', 'Allocated')
           AND last_heartbeat_at < now() - make_interval(secs => $1::double precision / 1000)
         ORDER BY id FOR UPDATE SKIP LOCKED`,
        [timeoutMs],
      );
      this.contact.succeeded(sentAt);
      // Judged only after a whole timeout of continuous contact: since this process started, since
      // PostgreSQL came back from a stall, since this process was paused (liveness.ts).
      if (!this.contact.clearFor(timeoutMs)) {
        if (hosts.length > 0 && !this.deferredLogged) {
          this.deferredLogged = true;
          this.ctx.log.warn(
            { hosts: hosts.map((host) => host.id), clearMs: Math.round(this.contact.clearMs()) },
            'heartbeats overdue, but this process could not store heartbeats a while ago: hosts get a fresh grace',
          );
        }
        return [];
      }
      this.deferredLogged = false;
      const rows: SessionRow[] = [];
      for (const host of hosts) {
        await client.query(`UPDATE hosts SET state = 'Unhealthy', updated_at = now() WHERE id = $1`, [host.id]);
        this.ctx.log.warn({ hostId: host.id }, 'host missed its heartbeats: Unhealthy');
        rows.push(...(await this.lifecycle.failHostSessions(client, host.id, 'host_lost')));
      }
      return rows;
    });
    for (const row of ended) this.ctx.events.emitEnded(row, row.failure_reason ?? 'host_lost');
  }

  private async sweepRule(where: string, params: unknown[], action: SweepAction): Promise<void> {
    const { lifecycle } = this;
    const rows = await withTransaction(this.ctx.db, async (client) => {
      const { rows: due } = await client.query<SessionRow>(
        `SELECT * FROM sessions WHERE ${where} ORDER BY id LIMIT 200 FOR UPDATE SKIP LOCKED`,
        params,
      );
      const moved: SessionRow[] = [];
      for (const row of due) {
        if ('fail' in action) moved.push(await lifecycle.failLocked(client, row, action.fail, 'sweeper'));
        else if ('close' in action) moved.push(await lifecycle.beginClose(client, row, action.close, 'sweeper'));
        else moved.push(await transition(client, row, 'closed', { actor: 'sweeper', reason: action.finish }));
      }
      return moved;
    });
    if (rows.length === 0) return;
    this.ctx.log.info({ count: rows.length, action }, 'sweeper ended sessions');
    await Promise.all(
      rows.map((row) => {
        if ('close' in action) return lifecycle.afterClose(row);
        if ('fail' in action) return lifecycle.afterFail(row, action.fail === 'start_timeout');
        this.ctx.events.emitEnded(row, row.close_reason ?? 'closed');
        return refreshHostState(this.ctx.db, row.host_id);
      }),
    );
    this.ctx.kickDrain();
  }
}
