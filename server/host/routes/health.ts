/**
 * GET /health: the agent's state for a monitor or a load balancer. It needs no secret and shows
 * only counts (docs/host.md "The agent's routes").
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../../shared/errors';
import { AnyQuery, HealthAnswer } from '../schemas';
import type { HostRouteDeps } from './deps';

const healthRoutes: FastifyPluginAsyncTypebox<HostRouteDeps> = async (app, { config, pool, sessions, agentState, registry }) => {
  app.get('/health', { schema: { querystring: AnyQuery, response: { 200: HealthAnswer, ...errorResponses } } }, async () => {
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
