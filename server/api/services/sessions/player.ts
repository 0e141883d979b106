/**
 * The player's calls (docs/sessions.md 2): start (admission: the title exists and is open to this
 * user, one live session per user, the title's limit, the queue's size; then the session is
 * queued and the queue drained), the live list, status (with the queue position), get_token
 * (signal token, ICE servers and the provider tokens) and force_close. A session that is not
 * the caller's answers as if it did not exist.
 */
import { randomUUID } from 'node:crypto';
import type { SessionListAnswer, SessionStatusAnswer, SessionTokenAnswer } from '../../../../lib/api-types/schemas/sessions';
import { OPEN_PLAY_GAME_ID } from '../../../../lib/api-types/openDemo';
import { isLiveSessionState, LIVE_SESSION_STATES } from '../../../../lib/api-types/sessions';
import type { QualityLevel } from '../../../../lib/streaming/messages';
import { iceServersFor } from '../turn';
import { notVerified, type AuthUser } from '../../auth/id-token';
import { ApiError } from '../../errors';
import { isActiveSubscriber } from '../payments/entitlements';
import { withTransaction, type SessionRow } from '../sessionStore';
import { providerTokens } from '../tokens';
import type { SessionContext } from './context';
import type { SessionLifecycle } from './lifecycle';

/** Who starts: the caller's uid and whether (and why not) it is verified (auth/id-token.ts). */
export type StartUser = Pick<AuthUser, 'uid' | 'isVerified' | 'signInProvider'>;

export class PlayerCalls {
  constructor(
    private readonly ctx: SessionContext,
    private readonly lifecycle: SessionLifecycle,
  ) {}

  async start(user: StartUser, gameId: string, quality: QualityLevel): Promise<string> {
    const sessionId = randomUUID();
    await withTransaction(this.ctx.db, async (client) => {
      const limit = this.ctx.config.gameSessionLimit;
      // With a title limit, the title's row serialises its starts (count, then insert).
      const game = await client.query<{ available: boolean; premium: boolean }>(
        `SELECT available, premium FROM games WHERE id = $1 ${limit > 0 ? 'FOR UPDATE' : ''}`,
        [gameId],
      );
      if (!game.rows[0]?.available) throw new ApiError('game_not_found');
      // Visitors and unconfirmed addresses may play the open demo only.
      if (!user.isVerified && gameId !== OPEN_PLAY_GAME_ID) throw notVerified(user);
      // A premium title starts only for an active subscriber, by our subscriptions table (never
      // the token's claim: docs/purchase.md). The open demo is never premium.
      if (game.rows[0].premium && gameId !== OPEN_PLAY_GAME_ID && !(await isActiveSubscriber(client, user.uid))) {
        throw new ApiError('subscription_required');
      }

      await client.query(`INSERT INTO users (uid, last_seen_at) VALUES ($1, now())
                          ON CONFLICT (uid) DO UPDATE SET last_seen_at = EXCLUDED.last_seen_at`, [user.uid]);
      const mine = await client.query('SELECT 1 FROM sessions WHERE uid = $1 AND state = ANY($2::text[]) LIMIT 1', [
        user.uid,
        LIVE_SESSION_STATES,
      ]);
      if (mine.rowCount) throw new ApiError('instance_limit');
      if (limit > 0) {
        const { rows } = await client.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM sessions WHERE game_id = $1 AND state = ANY($2::text[])',
          [gameId, LIVE_SESSION_STATES],
        );
        if (rows[0].n >= limit) throw new ApiError('instance_limit');
      }
      const queued = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM sessions WHERE state = 'queued'`);
      if (queued.rows[0].n >= this.ctx.config.queueMax) throw new ApiError('no_capacity');

      try {
        await client.query('SAVEPOINT insert_session');
        await client.query(`INSERT INTO sessions (id, uid, game_id, state, quality) VALUES ($1, $2, $3, 'queued', $4)`, [
          sessionId,
          user.uid,
          gameId,
          quality,
        ]);
      } catch (error) {
        // Two starts of one user raced past the check: the partial unique index decides.
        if ((error as { constraint?: string }).constraint === 'sessions_one_live_per_user') {
          throw new ApiError('instance_limit', undefined, { cause: error });
        }
        throw error;
      }
      await client.query(
        `INSERT INTO session_events (session_id, from_state, to_state, reason, actor) VALUES ($1, NULL, 'queued', NULL, 'player')`,
        [sessionId],
      );
    });
    await this.ctx.drainQueue();
    return sessionId;
  }

  async listLive(uid: string): Promise<SessionListAnswer['game_sessions']> {
    const { rows } = await this.ctx.db.query<{ id: string; game_id: string }>(
      'SELECT id, game_id FROM sessions WHERE uid = $1 AND state = ANY($2::text[]) ORDER BY created_at',
      [uid, LIVE_SESSION_STATES],
    );
    return rows;
  }

  /** The caller's session, or 404 session_not_found (also for someone else's). */
  async owned(sessionId: string, uid: string): Promise<SessionRow> {
    const { rows } = await this.ctx.db.query<SessionRow>('SELECT * FROM sessions WHERE id = $1 AND uid = $2', [sessionId, uid]);
    if (!rows[0]) throw new ApiError('session_not_found');
    return rows[0];
  }

  async status(sessionId: string, uid: string): Promise<Omit<SessionStatusAnswer, 'status'>> {
    let row = await this.owned(sessionId, uid);
    if (row.state === 'queued') {
      const { rows } = await this.ctx.db.query<SessionRow & { position: number }>(
        `WITH polled AS (
           UPDATE sessions SET last_polled_at = now() WHERE id = $1 AND state = 'queued' RETURNING *
         )
         SELECT polled.*, (SELECT count(*)::int FROM sessions q
                           WHERE q.state = 'queued' AND (q.queued_at, q.id) <= (polled.queued_at, polled.id)) AS position
         FROM polled`,
        [sessionId],
      );
      if (rows[0]) return { session_state: 'queued', queue_position: Math.max(1, rows[0].position) };
      row = await this.owned(sessionId, uid);
    }
    if (row.state === 'failed') return { session_state: 'failed', failure_reason: row.failure_reason ?? 'unknown' };
    return { session_state: row.state };
  }

  /**
   * get_token: the spec's provider fields, our webrtc fields and the provider to use. Answered
   * from the moment a host's slot is reserved (`allocating`, `starting`), not only once `ready`:
   * the player then opens its signalling and WebRTC connection while the game starts, and the
   * first frame goes out the moment the engine has drawn (issue 11; docs/sessions.md "get_token").
   * Refused while `queued` (no host yet) and once the session is ending.
   */
  async token(sessionId: string, uid: string, publicSignalUrl: string): Promise<SessionTokenAnswer> {
    const { config } = this.ctx;
    const row = await this.owned(sessionId, uid);
    if (!isLiveSessionState(row.state) || row.state === 'closing') throw new ApiError('session_closed');
    if (row.state === 'queued') throw new ApiError('session_not_ready');
    const signalToken = await this.ctx.signalTokens.sign({ sessionId, uid, role: 'player' }, config.signalTokenTtlS);
    return {
      status: 'ok',
      ...providerTokens(config, sessionId, uid),
      webrtc_signal_url: publicSignalUrl,
      webrtc_signal_token: signalToken,
      webrtc_ice_servers: iceServersFor(config, sessionId),
      provider: config.provider,
    };
  }

  async forceClose(sessionId: string, uid: string): Promise<void> {
    await this.owned(sessionId, uid);
    await this.lifecycle.close(sessionId, 'user', 'player');
  }
}
