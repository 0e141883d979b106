/**
 * The api-facing session routes (docs/sessions.md §4.2, docs/host.md "The agent's routes"): start
 * and stop a session, and list or show them for tests and benches. Every call carries the shared
 * secret (x-host-secret, compared in constant time). Params, query and bodies are the host ⇄ api
 * contract (server/shared/host-contract.ts); answers are the agent's own schemas (../schemas.ts);
 * failures are ApiErrors in the one error envelope (./errors.ts).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ApiError, errorResponses } from '../../shared/errors';
import { API_CLOSE_REASONS, HOST_SECRET_HEADER, HostSessionParams, StartSessionBody, StopSessionQuery, type ApiCloseReason } from '../../shared/host-contract';
import { secretMatches } from '../../shared/secret';
import { NoCapacityError } from '../pool';
import { chromiumProcs } from '../procs';
import { AnyQuery, SessionInfoAnswer, SessionListAnswer, StartAnswer, StopAnswer } from '../schemas';
import { byeForApiReason } from '../sessions';
import type { HostRouteDeps } from './deps';

/** DELETE answers when the runtime is gone, or after this long (the api waits at most 5 s); the end goes on. */
const STOP_ANSWER_MS = 4000;

function isApiCloseReason(reason: string): reason is ApiCloseReason {
  return (API_CLOSE_REASONS as readonly string[]).includes(reason);
}

const sessionRoutes: FastifyPluginAsyncTypebox<HostRouteDeps> = async (app, { config, pool, sessions, agentState }) => {
  // Encapsulated (no fastify-plugin): the secret applies to these routes only, checked before
  // anything is parsed or validated.
  app.addHook('onRequest', async (request) => {
    if (!secretMatches(request.headers[HOST_SECRET_HEADER], config.sharedSecret)) throw new ApiError('unauthorized');
  });

  app.post(
    '/sessions',
    { schema: { querystring: AnyQuery, body: StartSessionBody, response: { 202: StartAnswer, ...errorResponses } } },
    async (request, reply) => {
      const body = request.body;
      if (agentState() !== 'running') throw new ApiError('service_unavailable', 'このホストは停止中です。');
      if (body.provider && body.provider !== 'webrtc') throw new ApiError('invalid_request', 'リクエストの内容が正しくありません（本文: provider）。');
      let started: ReturnType<typeof sessions.start>;
      try {
        started = sessions.start(body);
      } catch (e) {
        if (e instanceof NoCapacityError) throw new ApiError('no_capacity');
        throw e;
      }
      if (started === 'ended') throw new ApiError('session_closed');
      return reply.code(202).send({ status: 'ok', sessionId: body.sessionId, state: sessions.get(body.sessionId)?.state ?? 'starting' });
    },
  );

  app.delete(
    '/sessions/:sessionId',
    { schema: { params: HostSessionParams, querystring: StopSessionQuery, response: { 200: StopAnswer, ...errorResponses } } },
    async (request) => {
      const s = sessions.get(request.params.sessionId);
      if (!s) throw new ApiError('session_not_found');
      const reason = request.query.reason ?? 'user';
      const done = sessions.end(s.id, { bye: byeForApiReason(reason), reason: isApiCloseReason(reason) ? reason : 'api' });
      await Promise.race([done, new Promise((r) => setTimeout(r, STOP_ANSWER_MS))]);
      return { status: 'ok' as const, state: s.state };
    },
  );

  app.get('/sessions', { schema: { querystring: AnyQuery, response: { 200: SessionListAnswer, ...errorResponses } } }, async () => ({
    status: 'ok' as const,
    sessions: sessions.list(),
    pool: pool.stats(),
    chromiumProcesses: chromiumProcs().length,
  }));

  app.get(
    '/sessions/:sessionId',
    { schema: { params: HostSessionParams, querystring: AnyQuery, response: { 200: SessionInfoAnswer, ...errorResponses } } },
    async (request) => {
      const info = await sessions.info(request.params.sessionId);
      if (!info) throw new ApiError('session_not_found');
      return { status: 'ok' as const, session: info };
    },
  );
};

export default sessionRoutes;
