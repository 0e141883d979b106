/**
 * How sessions end (docs/sessions.md 1): closing (queued → closed; holding a slot → closing, DELETE
 * on the host, then closed) and failing (any live state → failed, `closing` ones → closed). The
 * other parts end sessions through here: the player's force_close, the host registry (a host that
 * restarted, shut down or went silent), allocation (no host accepted a start) and the sweeper.
 */
import type pg from 'pg';
import { isLiveSessionState, type SessionCloseReason, type SessionFailureReason } from '../../../../lib/api-types/sessions';
import { HOLDING_STATES, lockSession, transition, withTransaction, type Actor, type SessionRow } from '../sessionStore';
import type { SessionContext } from './context';
import { hostById, refreshHostState } from './hostStore';

export class SessionLifecycle {
  constructor(private readonly ctx: SessionContext) {}

  /**
   * Ends a session normally: queued → closed; holding a slot → closing, then DELETE on the host,
   * then closed. Idempotent. Resolves when the host answered (or the call failed).
   */
  async close(sessionId: string, reason: SessionCloseReason, actor: Actor): Promise<void> {
    const row = await withTransaction(this.ctx.db, async (client) => {
      const locked = await lockSession(client, sessionId);
      if (!locked || !isLiveSessionState(locked.state) || locked.state === 'closing') return null;
      return this.beginClose(client, locked, reason, actor);
    });
    if (row) await this.afterClose(row);
  }

  /** Inside the transaction that holds the row: queued → closed, else → closing. */
  beginClose(client: pg.PoolClient, row: SessionRow, reason: SessionCloseReason, actor: Actor): Promise<SessionRow> {
    return transition(client, row, row.state === 'queued' ? 'closed' : 'closing', { actor, reason });
  }

  /** After the transaction of beginClose committed: tells the listeners, then stops it on its host. */
  async afterClose(row: SessionRow): Promise<void> {
    this.ctx.events.emitEnded(row, row.close_reason ?? 'closed');
    if (row.state === 'closed') {
      this.ctx.kickDrain();
      return;
    }
    const host = row.host_id ? await hostById(this.ctx.db, row.host_id) : null;
    const result = host
      ? await this.ctx.hostClient.stopSession(host.url, row.id, row.close_reason ?? 'closed')
      : ({ ok: true, status: 0 } as const);
    if (!result.ok) {
      // Stays `closing`; the sweeper closes it after SESSION_CLOSE_TIMEOUT_MS, and the host's
      // heartbeat answer no longer lists it, so the host stops it on its side.
      this.ctx.log.warn({ sessionId: row.id, hostId: row.host_id, detail: result.detail }, 'host did not confirm the stop');
      return;
    }
    await this.finishClosing(row.id, 'api');
  }

  private async finishClosing(sessionId: string, actor: Actor): Promise<void> {
    const hostId = await withTransaction(this.ctx.db, async (client) => {
      const locked = await lockSession(client, sessionId);
      if (!locked || locked.state !== 'closing') return null;
      await transition(client, locked, 'closed', { actor });
      return locked.host_id;
    });
    if (hostId !== null) {
      await refreshHostState(this.ctx.db, hostId);
      this.ctx.kickDrain();
    }
  }

  /** Fails a session (any live state) with `reason`; optionally asks its host to stop it. */
  async fail(
    sessionId: string,
    reason: SessionFailureReason,
    actor: Actor,
    options: { stopOnHost?: boolean } = {},
  ): Promise<void> {
    const row = await withTransaction(this.ctx.db, async (client) => {
      const locked = await lockSession(client, sessionId);
      if (!locked || !isLiveSessionState(locked.state)) return null;
      return this.failLocked(client, locked, reason, actor);
    });
    if (row) await this.afterFail(row, options.stopOnHost ?? false);
  }

  /** A live row ends: `closing` ones are closed (they were on their way), the rest fail. */
  failLocked(client: pg.PoolClient, row: SessionRow, reason: SessionFailureReason, actor: Actor): Promise<SessionRow> {
    if (row.state === 'closing') return transition(client, row, 'closed', { actor });
    return transition(client, row, 'failed', { actor, reason });
  }

  /** After the transaction of failLocked committed. */
  async afterFail(row: SessionRow, stopOnHost: boolean): Promise<void> {
    this.ctx.events.emitEnded(row, row.failure_reason ?? row.close_reason ?? 'closed');
    await refreshHostState(this.ctx.db, row.host_id);
    if (stopOnHost && row.host_id) {
      const host = await hostById(this.ctx.db, row.host_id);
      if (host) {
        const result = await this.ctx.hostClient.stopSession(host.url, row.id, row.failure_reason ?? 'failed');
        if (!result.ok) this.ctx.log.warn({ sessionId: row.id, detail: result.detail }, 'host did not confirm the stop');
      }
    }
    this.ctx.kickDrain();
  }

  /** Inside a transaction that holds the host row: ends every session holding a slot there. */
  async failHostSessions(client: pg.PoolClient, hostId: string, reason: SessionFailureReason): Promise<SessionRow[]> {
    const { rows } = await client.query<SessionRow>(
      'SELECT * FROM sessions WHERE host_id = $1 AND state = ANY($2::text[]) ORDER BY id FOR UPDATE',
      [hostId, HOLDING_STATES],
    );
    const ended: SessionRow[] = [];
    for (const row of rows) ended.push(await this.failLocked(client, row, reason, 'api'));
    return ended;
  }
}
