/**
 * Rows of `sessions` (the session service's repository, also read by screenshots) and the one way
 * to change a session's state: `transition`, inside a transaction that holds the row (SELECT …
 * FOR UPDATE), which also appends to session_events. The states themselves are declared once, in
 * lib/api-types/sessions.ts.
 *
 * Lock order, everywhere: host rows before session rows. Paths that start from a session (close,
 * fail, host reports, the player joining) lock only the session and refresh the host's
 * Ready/Allocated state in a separate statement after they commit (sessions/hostStore.ts).
 */
import type pg from 'pg';
import { isLiveSessionState, LIVE_SESSION_STATES, type SessionState } from '../../../lib/api-types/sessions';
import type { QualityLevel } from '../../../lib/streaming/messages';
import { recordPlayHistory } from './catalogue/history';

export type Actor = 'player' | 'api' | 'host' | 'sweeper' | 'signal';

export interface SessionRow {
  id: string;
  uid: string;
  game_id: string;
  state: SessionState;
  host_id: string | null;
  failure_reason: string | null;
  close_reason: string | null;
  quality: QualityLevel;
  allocation_attempts: number;
  created_at: Date;
  queued_at: Date;
  allocated_at: Date | null;
  starting_at: Date | null;
  ready_at: Date | null;
  playing_at: Date | null;
  closing_at: Date | null;
  ended_at: Date | null;
  last_input_at: Date | null;
  last_polled_at: Date;
  player_left_at: Date | null;
}

/** States in which a session holds a slot on its host: every live one but `queued`. */
export const HOLDING_STATES: readonly SessionState[] = LIVE_SESSION_STATES.filter((state) => state !== 'queued');

export function isHolding(state: SessionState): boolean {
  return HOLDING_STATES.includes(state);
}

const STATE_TIMESTAMP: Partial<Record<SessionState, { column: string; keepFirst: boolean }>> = {
  allocating: { column: 'allocated_at', keepFirst: false },
  starting: { column: 'starting_at', keepFirst: true },
  ready: { column: 'ready_at', keepFirst: true },
  playing: { column: 'playing_at', keepFirst: true },
  closing: { column: 'closing_at', keepFirst: true },
  closed: { column: 'ended_at', keepFirst: true },
  failed: { column: 'ended_at', keepFirst: true },
};

/** Columns a transition may also set (names are fixed here, values are parameters). */
export type TransitionSet = Partial<
  Record<'host_id' | 'allocation_attempts' | 'last_input_at' | 'player_left_at' | 'ready_at', unknown>
>;

export interface TransitionOptions {
  actor: Actor;
  /** failure_reason for `failed`; close_reason (first one wins) for `closing`/`closed`. */
  reason?: string | null;
  set?: TransitionSet;
}

/**
 * Moves a locked session row to `to` and logs the event. The caller holds the row lock (it read
 * it with FOR UPDATE in the same transaction) and has checked the move is allowed.
 */
export async function transition(
  client: pg.PoolClient,
  row: SessionRow,
  to: SessionState,
  options: TransitionOptions,
): Promise<SessionRow> {
  const params: unknown[] = [row.id, to];
  const sets = ['state = $2', 'updated_at = now()'];
  const stamp = STATE_TIMESTAMP[to];
  if (stamp) sets.push(stamp.keepFirst ? `${stamp.column} = coalesce(${stamp.column}, now())` : `${stamp.column} = now()`);
  const reason = options.reason ?? null;
  if (to === 'failed') {
    params.push(reason ?? 'unknown');
    sets.push(`failure_reason = $${params.length}`);
  } else if ((to === 'closing' || to === 'closed') && reason) {
    params.push(reason);
    sets.push(`close_reason = coalesce(close_reason, $${params.length})`);
  }
  for (const [column, value] of Object.entries(options.set ?? {})) {
    if (value === 'now()') {
      sets.push(`${column} = now()`);
    } else {
      params.push(value);
      sets.push(`${column} = $${params.length}`);
    }
  }
  const { rows } = await client.query<SessionRow>(`UPDATE sessions SET ${sets.join(', ')} WHERE id = $1 RETURNING *`, params);
  await client.query(
    `INSERT INTO session_events (session_id, from_state, to_state, reason, actor) VALUES ($1, $2, $3, $4, $5)`,
    [row.id, row.state, to, reason, options.actor],
  );
  // Every end of a session passes here: its play history is written in the same transaction.
  if ((to === 'closed' || to === 'failed') && isLiveSessionState(row.state) && rows[0].playing_at) {
    await recordPlayHistory(client, row.id);
  }
  return rows[0];
}

/** Runs `fn` in a transaction on one pooled connection (server/shared/pg/transaction.ts). */
export { withTransaction } from '../../shared/pg/transaction';

export async function lockSession(client: pg.PoolClient, sessionId: string): Promise<SessionRow | null> {
  const { rows } = await client.query<SessionRow>('SELECT * FROM sessions WHERE id = $1 FOR UPDATE', [sessionId]);
  return rows[0] ?? null;
}
