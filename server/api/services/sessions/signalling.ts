/**
 * What the signalling relay (../signalRelay.ts) asks of sessions: who may connect, the player
 * joining (ready → playing; the reconnect grace ends) and leaving (the grace starts), and which
 * of its paired sessions another process ended.
 */
import type { SessionState } from '../../../../lib/api-types/sessions';
import { lockSession, transition, withTransaction } from '../sessionStore';
import type { SessionContext } from './context';

export class SignalCalls {
  constructor(private readonly ctx: SessionContext) {}

  /** For the relay: may this uid's peer connect to the session now? */
  async signalTarget(sessionId: string): Promise<{ uid: string; state: SessionState } | null> {
    const { rows } = await this.ctx.db.query<{ uid: string; state: SessionState }>('SELECT uid, state FROM sessions WHERE id = $1', [
      sessionId,
    ]);
    return rows[0] ?? null;
  }

  /** The player's signalling connection opened: `ready` → `playing`; the reconnect grace ends. */
  async playerJoined(sessionId: string): Promise<void> {
    await withTransaction(this.ctx.db, async (client) => {
      const row = await lockSession(client, sessionId);
      if (!row) return;
      if (row.state === 'ready') {
        await transition(client, row, 'playing', { actor: 'signal', set: { last_input_at: 'now()', player_left_at: null } });
      } else if (row.state === 'playing') {
        await client.query(
          `UPDATE sessions SET player_left_at = NULL, last_input_at = greatest(coalesce(last_input_at, now()), now()), updated_at = now()
           WHERE id = $1`,
          [sessionId],
        );
      }
    });
  }

  /** The player's signalling connection went away (and no newer one replaced it). */
  async playerLeft(sessionId: string): Promise<void> {
    await this.ctx.db.query(
      `UPDATE sessions SET player_left_at = now(), updated_at = now()
       WHERE id = $1 AND state IN ('ready', 'playing') AND player_left_at IS NULL`,
      [sessionId],
    );
  }

  /** Of these sessions, the ones that are over or closing (with their reason). */
  async endedAmong(sessionIds: string[]): Promise<{ id: string; reason: string }[]> {
    if (sessionIds.length === 0) return [];
    const { rows } = await this.ctx.db.query<{ id: string; reason: string | null }>(
      `SELECT id, coalesce(failure_reason, close_reason) AS reason FROM sessions
       WHERE id = ANY($1::uuid[]) AND state IN ('closing', 'closed', 'failed')`,
      [sessionIds],
    );
    return rows.map((row) => ({ id: row.id, reason: row.reason ?? 'closed' }));
  }
}
