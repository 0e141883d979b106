/**
 * Plays per title: sessions that reached `playing` in the last 30 days. Always read live (one
 * aggregate over the sessions_played index), never cached, so the popular order follows play.
 */
import type pg from 'pg';
import type { Plays } from './wire';

export const PLAYS_WINDOW_DAYS = 30;

export async function loadPlays(db: pg.Pool): Promise<Plays> {
  const { rows } = await db.query<{ game_id: string; plays: number }>(
    `SELECT game_id, count(*)::int AS plays FROM sessions
      WHERE playing_at IS NOT NULL AND playing_at > now() - make_interval(days => $1)
      GROUP BY game_id`,
    [PLAYS_WINDOW_DAYS],
  );
  return new Map(rows.map((row) => [row.game_id, row.plays]));
}
