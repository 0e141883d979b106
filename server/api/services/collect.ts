/**
 * Analytics intake (docs/sessions.md 6): stores the play page's beacons (`collect_beacons`) and
 * its WebRTC stats (`collect_webrtc_stats`), each capped per session. The routes
 * (routes/collect.ts) validate the bodies against the contract and call this; they run no SQL.
 */
import type pg from 'pg';
import { COLLECT_STATS_MAX_BYTES } from '../../../lib/api-types/sessions';
import type { CollectBeaconBody, CollectWebrtcStatsBody } from '../../../lib/api-types/schemas/sessions';
import { ApiError } from '../errors';

export const MAX_BEACONS_PER_SESSION = 50;
export const MAX_STATS_PER_SESSION = 2000;
/** Stats rows deleted per statement, and statements per prune, so one run never holds long locks. */
export const PRUNE_BATCH = 10_000;
export const PRUNE_MAX_BATCHES = 50;

export class CollectService {
  constructor(private readonly db: pg.Pool) {}

  /**
   * One beacon. No caller identity (sendBeacon cannot send a token): the session must exist and
   * be of that title, and its owner is recorded. 404 session_not_found, 429 past the cap.
   */
  async beacon({ sessionId, gameId, elapsed }: CollectBeaconBody): Promise<void> {
    const { rows } = await this.db.query<{ uid: string; n: number }>(
      `SELECT s.uid, (SELECT count(*)::int FROM collect_beacons b WHERE b.session_id = s.id) AS n
       FROM sessions s WHERE s.id = $1 AND s.game_id = $2`,
      [sessionId, gameId],
    );
    if (!rows[0]) throw new ApiError('session_not_found');
    if (rows[0].n >= MAX_BEACONS_PER_SESSION) throw new ApiError('rate_limited');
    await this.db.query('INSERT INTO collect_beacons (session_id, uid, game_id, elapsed_ms) VALUES ($1, $2, $3, $4)', [
      sessionId,
      rows[0].uid,
      gameId,
      elapsed,
    ]);
  }

  /**
   * One stats sample of the caller's own session (413 past 16 kB of JSON, 404 when the session
   * is not the caller's or not of that title, 429 past the cap).
   */
  async webrtcStats(uid: string, { sessionId, gameId, stats }: CollectWebrtcStatsBody): Promise<void> {
    const json = JSON.stringify(stats);
    if (Buffer.byteLength(json) > COLLECT_STATS_MAX_BYTES) throw new ApiError('payload_too_large');
    const { rows } = await this.db.query<{ n: number }>(
      `SELECT (SELECT count(*)::int FROM collect_webrtc_stats c WHERE c.session_id = s.id) AS n
       FROM sessions s WHERE s.id = $1 AND s.uid = $2 AND s.game_id = $3`,
      [sessionId, uid, gameId],
    );
    if (!rows[0]) throw new ApiError('session_not_found');
    if (rows[0].n >= MAX_STATS_PER_SESSION) throw new ApiError('rate_limited');
    await this.db.query('INSERT INTO collect_webrtc_stats (session_id, uid, game_id, stats) VALUES ($1, $2, $3, $4)', [
      sessionId,
      uid,
      gameId,
      json,
    ]);
  }

  /**
   * Deletes stats received more than `days` ago (STATS_RETENTION_DAYS), in batches of `batch`
   * rows, at most `maxBatches` of them (the next run goes on); answers how many went. Several api
   * replicas may run it at once: a row is deleted once, the others' statements find it gone.
   */
  async prune(days: number, batch = PRUNE_BATCH, maxBatches = PRUNE_MAX_BATCHES): Promise<number> {
    let deleted = 0;
    for (let i = 0; i < maxBatches; i++) {
      const result = await this.db.query(
        `DELETE FROM collect_webrtc_stats WHERE id IN (
           SELECT id FROM collect_webrtc_stats WHERE received_at < now() - make_interval(days => $1) ORDER BY id LIMIT $2)`,
        [days, batch],
      );
      deleted += result.rowCount ?? 0;
      if ((result.rowCount ?? 0) < batch) break;
    }
    return deleted;
  }
}
