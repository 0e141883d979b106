/**
 * The agent's probes, without a secret (they show only counts; docs/host.md "The agent's routes",
 * docs/operations.md "Liveness and readiness"):
 * - GET /livez: the process is alive and its event loop answers: always 200, shutting down
 *   included (a draining host must not be killed for it).
 * - GET /readyz: ready for sessions: the agent is `running` (not starting, not shutting down),
 *   registered with the api (when registration is on) and not marked Shutdown/Unhealthy there,
 *   and the pool able to give a runtime (one is warm, or the last launch did not fail).
 *   Otherwise 503 service_unavailable in the error envelope.
 * - GET /health: the agent's state and counts for monitors and the stack scripts (200 while it
 *   starts or runs), and 503 service_unavailable (envelope) once shutdown has begun.
 * Probes log at warn level only, so polling does not fill the log.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { okAnswer, OkOnly } from '../../../lib/api-types/schemas/common';
import { ApiError, errorResponses } from '../../shared/errors';
import { AgentStateSchema, AnyQuery, HealthAnswer } from '../schemas';
import type { HostRouteDeps } from './deps';

/** GET /readyz → 200 */
export const ReadyAnswer = okAnswer({
  hostId: Type.String(),
  state: AgentStateSchema,
  registered: Type.Boolean(),
  warm: Type.Integer(),
  busy: Type.Integer(),
});

const NOT_READY_API_STATES = new Set(['Shutdown', 'Unhealthy']);

const healthRoutes: FastifyPluginAsyncTypebox<HostRouteDeps> = async (app, { config, pool, sessions, agentState, registry }) => {
  // the launch-failure streak: failures counted since the last runtime that warmed
  let failuresAtLastWarm = pool.stats().launchFailures;
  pool.on('warm', () => {
    failuresAtLastWarm = pool.stats().launchFailures;
  });

  const shuttingDown = () => ['shutting_down', 'stopped'].includes(agentState());
  const unavailable = (why: string) => new ApiError('service_unavailable', undefined, { cause: new Error(why) });

  app.get('/livez', { logLevel: 'warn', schema: { querystring: AnyQuery, response: { 200: OkOnly, ...errorResponses } } }, async () => ({
    status: 'ok' as const,
  }));

  app.get('/readyz', { logLevel: 'warn', schema: { querystring: AnyQuery, response: { 200: ReadyAnswer, ...errorResponses } } }, async () => {
    const state = agentState();
    if (state !== 'running') throw unavailable(`the agent is ${state}`);
    // no registry while running: registration is off (HOST_REGISTER=0)
    const reg = registry();
    if (reg && (!reg.registered || NOT_READY_API_STATES.has(reg.apiState ?? ''))) {
      throw unavailable(`not registered with the api (${reg.apiState ?? 'no answer yet'})`);
    }
    const stats = pool.stats();
    if (stats.warm === 0 && stats.launchFailures > failuresAtLastWarm) throw unavailable('runtime launches are failing');
    return { status: 'ok' as const, hostId: config.hostId, state, registered: reg?.registered ?? false, warm: stats.warm, busy: stats.busy };
  });

  app.get('/health', { logLevel: 'warn', schema: { querystring: AnyQuery, response: { 200: HealthAnswer, ...errorResponses } } }, async () => {
    if (shuttingDown()) throw unavailable('shutting down');
    const stats = pool.stats();
    const reg = registry();
    return {
      status: 'ok' as const,
      hostId: config.hostId,
      state: agentState(),
      registered: reg?.registered ?? false,
      apiState: reg?.apiState ?? null,
      capacity: config.capacity,
      activeSessions: sessions.activeCount,
      warm: stats.warm,
      launching: stats.launching,
    };
  });
};

export default healthRoutes;
