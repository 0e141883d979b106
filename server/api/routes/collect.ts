import type { FastifyInstance } from 'fastify';
import {
  COLLECT_BEACON_MAX_BYTES,
  COLLECT_STATS_MAX_BYTES,
  COLLECT_STATS_MAX_KEYS,
  type CollectBeaconBody,
  type CollectWebrtcStatsBody,
} from '../../../lib/api-types/sessions';
import { ApiError } from '../errors';
import { requireUser } from '../plugins/auth';
import { errorResponses } from '../schemas';
import { UUID_PATTERN } from '../services/sessionStore';
import { GAME_ID_PATTERN } from './sessions';

/**
 * Analytics intake (docs/sessions.md 6): the play page's beacon (POST /collect) and its WebRTC
 * stats every 10 s (POST /v1/collect/stats/webrtc). Validated, size-limited, capped per session.
 */

export const MAX_BEACONS_PER_SESSION = 50;
export const MAX_STATS_PER_SESSION = 2000;
/** 7 days in milliseconds: longer than any session. */
const MAX_ELAPSED_MS = 7 * 24 * 3600 * 1000;

const okOnly = {
  type: 'object',
  required: ['status'],
  additionalProperties: false,
  properties: { status: { type: 'string', enum: ['ok'] } },
} as const;

export default async function collectRoutes(app: FastifyInstance): Promise<void> {
  // navigator.sendBeacon(url, string) sends text/plain (a CORS-safelisted type, so no preflight):
  // in this plugin's scope, a text/plain body is parsed as JSON.
  app.removeContentTypeParser('text/plain');
  app.addContentTypeParser('text/plain', { parseAs: 'string' }, (_request, body, done) => {
    try {
      done(null, JSON.parse(body as string));
    } catch {
      done(new ApiError('invalid_request'), undefined);
    }
  });

  app.post(
    '/collect',
    {
      bodyLimit: COLLECT_BEACON_MAX_BYTES,
      schema: {
        body: {
          type: 'object',
          required: ['sessionId', 'gameId', 'elapsed'],
          additionalProperties: false,
          properties: {
            sessionId: { type: 'string', pattern: UUID_PATTERN },
            gameId: { type: 'string', pattern: GAME_ID_PATTERN },
            elapsed: { type: 'number', minimum: 0, maximum: MAX_ELAPSED_MS },
          },
        },
        response: { 200: okOnly, ...errorResponses },
      },
    },
    async (request) => {
      const { sessionId, gameId, elapsed } = request.body as CollectBeaconBody;
      // No token (sendBeacon cannot send one): the session must exist and be of that title.
      const { rows } = await app.db.query<{ uid: string; n: number }>(
        `SELECT s.uid, (SELECT count(*)::int FROM collect_beacons b WHERE b.session_id = s.id) AS n
         FROM sessions s WHERE s.id = $1 AND s.game_id = $2`,
        [sessionId, gameId],
      );
      if (!rows[0]) throw new ApiError('session_not_found');
      if (rows[0].n >= MAX_BEACONS_PER_SESSION) throw new ApiError('rate_limited');
      await app.db.query('INSERT INTO collect_beacons (session_id, uid, game_id, elapsed_ms) VALUES ($1, $2, $3, $4)', [
        sessionId,
        rows[0].uid,
        gameId,
        elapsed,
      ]);
      return { status: 'ok' };
    },
  );

  app.post(
    '/v1/collect/stats/webrtc',
    {
      config: { auth: true },
      // The stats object itself is capped at 16 kB below; the envelope adds a little.
      bodyLimit: COLLECT_STATS_MAX_BYTES + 1024,
      // Before the schema runs (its type coercion would turn `true` into 1): values must really
      // be numbers or strings.
      preValidation: async (request) => {
        const stats = (request.body as { stats?: unknown } | undefined)?.stats;
        if (typeof stats === 'object' && stats !== null && !Array.isArray(stats)) {
          const flat = Object.values(stats).every((value) => (typeof value === 'number' && Number.isFinite(value)) || typeof value === 'string');
          if (!flat) throw new ApiError('invalid_request', 'リクエストの内容が正しくありません（本文: stats）。');
        }
      },
      schema: {
        body: {
          type: 'object',
          required: ['sessionId', 'gameId', 'stats'],
          additionalProperties: false,
          properties: {
            sessionId: { type: 'string', pattern: UUID_PATTERN },
            gameId: { type: 'string', pattern: GAME_ID_PATTERN },
            stats: {
              type: 'object',
              maxProperties: COLLECT_STATS_MAX_KEYS,
              propertyNames: { pattern: '^[A-Za-z0-9_.-]{1,64}$' },
              additionalProperties: {
                anyOf: [{ type: 'number' }, { type: 'string', maxLength: 256 }],
              },
            },
          },
        },
        response: { 200: okOnly, ...errorResponses },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const { sessionId, gameId, stats } = request.body as CollectWebrtcStatsBody;
      const json = JSON.stringify(stats);
      if (Buffer.byteLength(json) > COLLECT_STATS_MAX_BYTES) throw new ApiError('payload_too_large');
      const { rows } = await app.db.query<{ n: number }>(
        `SELECT (SELECT count(*)::int FROM collect_webrtc_stats c WHERE c.session_id = s.id) AS n
         FROM sessions s WHERE s.id = $1 AND s.uid = $2 AND s.game_id = $3`,
        [sessionId, user.uid, gameId],
      );
      if (!rows[0]) throw new ApiError('session_not_found');
      if (rows[0].n >= MAX_STATS_PER_SESSION) throw new ApiError('rate_limited');
      await app.db.query('INSERT INTO collect_webrtc_stats (session_id, uid, game_id, stats) VALUES ($1, $2, $3, $4)', [
        sessionId,
        user.uid,
        gameId,
        json,
      ]);
      return { status: 'ok' };
    },
  );
}
