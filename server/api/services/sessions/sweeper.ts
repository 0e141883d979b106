/**
 * The sweeper (docs/sessions.md 3): one pass of the background rules, run every
 * SESSION_SWEEP_INTERVAL_MS by plugins/sessions.ts and safe in several processes (rows are taken
 * FOR UPDATE SKIP LOCKED). Hosts that missed their heartbeats become Unhealthy; sessions that
 * overstay a state are failed or closed; then the queue is drained.
 */
import type { SessionCloseReason, SessionFailureReason } from '../../../../lib/api-types/sessions';
import { HOLDING_STATES, transition, withTransaction, type SessionRow } from '../sessionStore';
import type { SessionContext } from './context';
import { refreshHostState } from './hostStore';
import type { SessionLifecycle } from './lifecycle';

/** What a rule does to the sessions it selects: fail them, close them, or finish their closing. */
type SweepAction = { fail: SessionFailureReason } | { close: SessionCloseReason } | { finish: SessionCloseReason };

export class Sweeper {
  /** When this api process started: hosts could not reach it before, so they get one timeout's grace. */
  private readonly startedAt = Date.now();

  constructor(
    private readonly ctx: SessionContext,
    private readonly lifecycle: SessionLifecycle,
  ) {}

  /** One pass of the background rules (docs/sessions.md 3). Safe to run in several processes. */
  async sweep(): Promise<void> {
    await this.sweepLostHosts();
    const c = this.ctx.config;
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
    // A restarted api must not declare hosts lost for the heartbeats it could not receive while
    // it was down: judge heartbeats only once a full timeout has passed since this process started.
    if (Date.now() - this.startedAt < this.ctx.config.hostHeartbeatTimeoutMs) return;
    const ended = await withTransaction(this.ctx.db, async (client) => {
      const { rows: hosts } = await client.query<{ id: string }>(
        `SELECT id FROM hosts WHERE state IN ('Ready', 'Allocated')
           AND last_heartbeat_at < now() - make_interval(secs => $1::double precision / 1000)
         ORDER BY id FOR UPDATE SKIP LOCKED`,
        [this.ctx.config.hostHeartbeatTimeoutMs],
      );
      const rows: SessionRow[] = [];
      for (const host of hosts) {
        await client.query(`UPDATE hosts SET state = 'Unhealthy', updated_at = now() WHERE id = $1`, [host.id]);
        this.ctx.log.warn({ hostId: host.id }, 'host missed its heartbeats: Unhealthy');
        rows.push(...(await this.lifecycle.failHostSessions(client, host.id, 'host_lost')));
      }
      return rows;
    });
    for (const row of ended) this.ctx.events.emitEnded(row.id, row.failure_reason ?? 'host_lost');
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
        this.ctx.events.emitEnded(row.id, row.close_reason ?? 'closed');
        return refreshHostState(this.ctx.db, row.host_id);
      }),
    );
    this.ctx.kickDrain();
  }
}
