/**
 * The api's HTTP rate limits (docs/api.md, "Rate limits and timeouts"): which budget of
 * server/shared/rate-limit.ts each route spends. Routes with `config.auth` count per signed-in
 * user (the uid of the verified ID token); the routes our own services call (/internal/*: hosts
 * and the internal token; the payment processor's webhook; the signalling WebSocket, one per
 * session from each host) count per address with the generous internal budget; everything else
 * (the catalogue, search, magazine, POST /collect, /health, unknown routes) per client address.
 * Registered after the auth plugin and before the route groups.
 */
import type { FastifyInstance, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import type { RateLimits } from '../../shared/http-limits';
import rateLimitPlugin, { type RateLimitGroup } from '../../shared/rate-limit';

/** Called by our own services (with a shared secret or a signature) rather than by browsers. */
const INTERNAL_URLS = ['/v1/payments/webhook', '/v1/signal'];

export function apiRateLimitGroup(route: Pick<RouteOptions, 'url' | 'config'>): RateLimitGroup {
  if (route.config?.auth) return 'user';
  if (route.url.startsWith('/internal/') || INTERNAL_URLS.includes(route.url)) return 'internal';
  return 'public';
}

export interface ApiRateLimitOptions {
  limits: RateLimits;
}

async function apiRateLimit(app: FastifyInstance, { limits }: ApiRateLimitOptions): Promise<void> {
  await app.register(rateLimitPlugin, { limits, groupOf: apiRateLimitGroup, userOf: (request) => request.user?.uid });
}

export default fp(apiRateLimit, { name: 'yumecast-api-rate-limit', fastify: '5.x', dependencies: ['yumecast-auth'] });
