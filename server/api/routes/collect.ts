/**
 * Analytics intake (docs/sessions.md 6): the play page's beacon (POST /collect) and its WebRTC
 * stats every 10 s (POST /v1/collect/stats/webrtc). Bodies are the contract of
 * lib/api-types/schemas/sessions.ts, size-limited here; services/collect.ts stores them, capped
 * per session.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { COLLECT_BEACON_MAX_BYTES, COLLECT_STATS_MAX_BYTES } from '../../../lib/api-types/sessions';
import { OkOnly } from '../../../lib/api-types/schemas/common';
import { CollectBeaconBody, CollectWebrtcStatsBody } from '../../../lib/api-types/schemas/sessions';
import { ApiError } from '../errors';
import { requireUser } from '../plugins/auth';
import { errorResponses } from '../schemas';
import { CollectService } from '../services/collect';

/** True unless `body.stats` is an object with a value that is neither a finite number nor a string. */
function statsAreFlat(body: unknown): boolean {
  if (typeof body !== 'object' || body === null || !('stats' in body)) return true;
  const { stats } = body;
  if (typeof stats !== 'object' || stats === null || Array.isArray(stats)) return true;
  return Object.values(stats).every((value) => (typeof value === 'number' && Number.isFinite(value)) || typeof value === 'string');
}

const collectRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const collect = new CollectService(app.db);

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
    { bodyLimit: COLLECT_BEACON_MAX_BYTES, schema: { body: CollectBeaconBody, response: { 200: OkOnly, ...errorResponses } } },
    async (request) => {
      await collect.beacon(request.body);
      return { status: 'ok' as const };
    },
  );

  app.post(
    '/v1/collect/stats/webrtc',
    {
      config: { auth: true },
      // The stats object itself is capped at 16 kB (services/collect.ts); the envelope adds a little.
      bodyLimit: COLLECT_STATS_MAX_BYTES + 1024,
      // Before the schema runs (its type coercion would turn `true` into 1): values must really
      // be numbers or strings.
      preValidation: async (request) => {
        if (!statsAreFlat(request.body)) throw new ApiError('invalid_request', 'リクエストの内容が正しくありません（本文: stats）。');
      },
      schema: { body: CollectWebrtcStatsBody, response: { 200: OkOnly, ...errorResponses } },
    },
    async (request) => {
      await collect.webrtcStats(requireUser(request).uid, request.body);
      return { status: 'ok' as const };
    },
  );
};

export default collectRoutes;
