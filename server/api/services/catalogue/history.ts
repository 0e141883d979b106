/**
 * Play history, written by the server in the transaction that ends a session (closed or
 * failed, whatever the path: the player's force_close, the idle and reconnect rules, a lost or
 * restarted host, the host's own report). Only sessions that reached `playing` count.
 *
 * Time played runs from playing_at to the moment play stopped: closing_at when the session went
 * through `closing` (the host may take a while to confirm the stop, and that wait is not play),
 * ended_at otherwise.
 */
import type pg from 'pg';

export async function recordPlayHistory(client: pg.PoolClient, sessionId: string): Promise<void> {
  await client.query(
    `INSERT INTO play_histories AS h (uid, game_id, last_played_at, total_seconds, play_count)
     SELECT uid, game_id, stopped, greatest(0, round(extract(epoch FROM stopped - playing_at)))::bigint, 1
       FROM (SELECT uid, game_id, playing_at, least(coalesce(closing_at, ended_at), ended_at) AS stopped
               FROM sessions WHERE id = $1 AND playing_at IS NOT NULL AND ended_at IS NOT NULL) s
     ON CONFLICT (uid, game_id) DO UPDATE SET
       total_seconds = h.total_seconds + EXCLUDED.total_seconds,
       play_count = h.play_count + 1,
       last_played_at = greatest(h.last_played_at, EXCLUDED.last_played_at)`,
    [sessionId],
  );
}
