/**
 * The spec's five game-session calls (docs/sessions.md 2), all behind the bearer ID token.
 * Answers carry exactly the spec's fields plus `status: "ok"` (lib/api-types/schemas/sessions.ts).
 *
 * Ids are checked by the schema, but a malformed id answers the same 404 as an unknown id or
 * someone else's session (`config.notFound`): a caller learns nothing from the shape of the answer.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  GameParams,
  SessionForceCloseAnswer,
  SessionListAnswer,
  SessionParams,
  SessionStartAnswer,
  SessionStatusAnswer,
  SessionTokenAnswer,
  StartQuery,
} from '../../../lib/api-types/schemas/sessions';
import { requireUser } from '../plugins/auth';
import { AnyQuery, errorResponses } from '../schemas';

/** Config of the three calls on one session. */
const ON_SESSION = { auth: true, notFound: 'session_not_found' } as const;

const sessionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/v1/session/all',
    {
      config: { auth: true },
      schema: { querystring: AnyQuery, response: { 200: SessionListAnswer, ...errorResponses } },
    },
    async (request) => {
      const user = requireUser(request);
      return { status: 'ok' as const, game_sessions: await app.sessions.listLive(user.uid) };
    },
  );

  app.get(
    '/v1/game/:gameId/start',
    {
      config: { auth: true, notFound: 'game_not_found' },
      schema: { params: GameParams, querystring: StartQuery, response: { 200: SessionStartAnswer, ...errorResponses } },
    },
    async (request) => {
      const user = requireUser(request);
      const quality = request.query.quality ?? 'high';
      const id = await app.sessions.start(user, request.params.gameId, quality);
      return { status: 'ok' as const, game_session_id: id };
    },
  );

  app.get(
    '/v1/session/:sessionId/status',
    {
      config: ON_SESSION,
      schema: { params: SessionParams, querystring: AnyQuery, response: { 200: SessionStatusAnswer, ...errorResponses } },
    },
    async (request) => {
      const user = requireUser(request);
      return { status: 'ok' as const, ...(await app.sessions.status(request.params.sessionId.toLowerCase(), user.uid)) };
    },
  );

  app.get(
    '/v1/session/:sessionId/get_token',
    {
      config: ON_SESSION,
      schema: { params: SessionParams, querystring: AnyQuery, response: { 200: SessionTokenAnswer, ...errorResponses } },
    },
    async (request, reply) => {
      const user = requireUser(request);
      // Tokens are per request and short-lived: never cached anywhere.
      void reply.header('cache-control', 'no-store');
      return app.sessions.token(request.params.sessionId.toLowerCase(), user.uid, app.signalUrl());
    },
  );

  app.get(
    '/v1/session/:sessionId/force_close',
    {
      config: ON_SESSION,
      schema: { params: SessionParams, querystring: AnyQuery, response: { 200: SessionForceCloseAnswer, ...errorResponses } },
    },
    async (request) => {
      const user = requireUser(request);
      await app.sessions.forceClose(request.params.sessionId.toLowerCase(), user.uid);
      return { status: 'ok' as const };
    },
  );
};

export default sessionRoutes;
