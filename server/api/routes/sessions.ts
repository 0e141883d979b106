import type { FastifyInstance, FastifyRequest } from 'fastify';
import { SESSION_STATES } from '../../../lib/api-types/sessions';
import { QUALITY_LEVELS, type QualityLevel } from '../../../lib/streaming/messages';
import { ApiError } from '../errors';
import { requireUser } from '../plugins/auth';
import { anyQuery, errorResponses } from '../schemas';
import { UUID_PATTERN } from '../services/sessionStore';

/**
 * The spec's five game-session calls (docs/sessions.md 2), all behind the bearer ID token.
 * Answers carry exactly the spec's fields plus `status: "ok"`.
 *
 * Ids are checked by the schema, but a malformed id answers the same 404 as an unknown id or
 * someone else's session: a caller learns nothing from the shape of the answer.
 */

export const GAME_ID_PATTERN = '^[a-z0-9][a-z0-9-]{0,63}$';

const ok = { type: 'string', enum: ['ok'] } as const;

const sessionParams = {
  type: 'object',
  required: ['sessionId'],
  additionalProperties: false,
  properties: { sessionId: { type: 'string', pattern: UUID_PATTERN } },
} as const;

const iceServerSchema = {
  type: 'object',
  required: ['urls'],
  additionalProperties: false,
  properties: {
    urls: { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] },
    username: { type: 'string' },
    credential: { type: 'string' },
  },
} as const;

const TOKEN_STRING_FIELDS = [
  'agora_app_id',
  'agora_channel_name',
  'agora_rtc_token',
  'agora_rtm_token',
  'user_id_for_client',
  'trtc_sdk_app_id',
  'trtc_user_sig_for_client',
  'trtc_room_id',
  'webrtc_signal_url',
  'webrtc_signal_token',
] as const;

/** With attachValidation: a bad path parameter is "not found", anything else a 400. */
function checkValidation(request: FastifyRequest, notFound: 'session_not_found' | 'game_not_found'): void {
  const error = request.validationError;
  if (!error) return;
  if (error.validationContext === 'params') throw new ApiError(notFound);
  throw error;
}

function sessionIdOf(request: FastifyRequest): string {
  checkValidation(request, 'session_not_found');
  return (request.params as { sessionId: string }).sessionId.toLowerCase();
}

export default async function sessionRoutes(app: FastifyInstance): Promise<void> {
  app.get(
    '/v1/session/all',
    {
      config: { auth: true },
      schema: {
        querystring: anyQuery,
        response: {
          200: {
            type: 'object',
            required: ['status', 'game_sessions'],
            additionalProperties: false,
            properties: {
              status: ok,
              game_sessions: {
                type: 'array',
                items: {
                  type: 'object',
                  required: ['id', 'game_id'],
                  additionalProperties: false,
                  properties: { id: { type: 'string' }, game_id: { type: 'string' } },
                },
              },
            },
          },
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const user = requireUser(request);
      return { status: 'ok', game_sessions: await app.sessions.listLive(user.uid) };
    },
  );

  app.get(
    '/v1/game/:gameId/start',
    {
      config: { auth: true },
      attachValidation: true,
      schema: {
        params: {
          type: 'object',
          required: ['gameId'],
          additionalProperties: false,
          properties: { gameId: { type: 'string', pattern: GAME_ID_PATTERN } },
        },
        querystring: {
          type: 'object',
          properties: { quality: { type: 'string', enum: [...QUALITY_LEVELS] } },
        },
        response: {
          200: {
            type: 'object',
            required: ['status', 'game_session_id'],
            additionalProperties: false,
            properties: { status: ok, game_session_id: { type: 'string' } },
          },
          ...errorResponses,
        },
      },
    },
    async (request) => {
      checkValidation(request, 'game_not_found');
      const user = requireUser(request);
      const { gameId } = request.params as { gameId: string };
      const quality = (request.query as { quality?: QualityLevel }).quality ?? 'high';
      const id = await app.sessions.start({ uid: user.uid, isAnonymous: user.isAnonymous }, gameId, quality);
      return { status: 'ok', game_session_id: id };
    },
  );

  app.get(
    '/v1/session/:sessionId/status',
    {
      config: { auth: true },
      attachValidation: true,
      schema: {
        params: sessionParams,
        querystring: anyQuery,
        response: {
          200: {
            type: 'object',
            required: ['status', 'session_state'],
            additionalProperties: false,
            properties: {
              status: ok,
              session_state: { type: 'string', enum: [...SESSION_STATES] },
              queue_position: { type: 'integer', minimum: 1 },
              failure_reason: { type: 'string' },
            },
          },
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const id = sessionIdOf(request);
      const user = requireUser(request);
      return { status: 'ok', ...(await app.sessions.status(id, user.uid)) };
    },
  );

  app.get(
    '/v1/session/:sessionId/get_token',
    {
      config: { auth: true },
      attachValidation: true,
      schema: {
        params: sessionParams,
        querystring: anyQuery,
        response: {
          200: {
            type: 'object',
            required: ['status', ...TOKEN_STRING_FIELDS, 'webrtc_ice_servers', 'provider'],
            additionalProperties: false,
            properties: {
              status: ok,
              ...Object.fromEntries(TOKEN_STRING_FIELDS.map((field) => [field, { type: 'string' }])),
              webrtc_ice_servers: { type: 'array', items: iceServerSchema },
              provider: { type: 'string', enum: ['webrtc', 'agora', 'trtc'] },
            },
          },
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const id = sessionIdOf(request);
      const user = requireUser(request);
      // Tokens are per request and short-lived: never cached anywhere.
      void reply.header('cache-control', 'no-store');
      return app.sessions.token(id, user.uid, app.signalUrl());
    },
  );

  app.get(
    '/v1/session/:sessionId/force_close',
    {
      config: { auth: true },
      attachValidation: true,
      schema: {
        params: sessionParams,
        querystring: anyQuery,
        response: {
          200: { type: 'object', required: ['status'], additionalProperties: false, properties: { status: ok } },
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const id = sessionIdOf(request);
      const user = requireUser(request);
      await app.sessions.forceClose(id, user.uid);
      return { status: 'ok' };
    },
  );
}
