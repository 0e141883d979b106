/**
 * The agent's HTTP rate limits (docs/api.md, "Rate limits and timeouts"), per client address on
 * server/shared/rate-limit.ts's budgets: the api's secret routes (/sessions…, several calls per
 * session) spend the generous internal budget; /health, /metrics and unknown routes, which a
 * stranger who can reach the port may call, the public one. 401 answers (a wrong secret) count
 * per address too. Registered right after the error handler, before every route.
 */
import type { FastifyInstance, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import type { RateLimits } from '../../shared/http-limits';
import rateLimitPlugin, { type RateLimitGroup } from '../../shared/rate-limit';

export function hostRateLimitGroup(route: Pick<RouteOptions, 'url'>): RateLimitGroup {
  return route.url === '/sessions' || route.url.startsWith('/sessions/') ? 'internal' : 'public';
}

async function hostRateLimit(app: FastifyInstance, { limits }: { limits: RateLimits }): Promise<void> {
  await app.register(rateLimitPlugin, { limits, groupOf: hostRateLimitGroup });
}

export default fp(hostRateLimit, { name: 'yumecast-host-rate-limit', fastify: '5.x' });
