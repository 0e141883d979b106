/**
 * HTTP rate limits of our servers (the api: plugins/rateLimit.ts; the game host's agent:
 * routes/rateLimit.ts), on @fastify/rate-limit's counters (fixed windows, in memory, per process).
 * Every route spends one budget of http-limits.ts `RateLimits`, chosen once per route by the
 * server's `groupOf` and kept in the route's config (`rateLimitGroup`):
 *  - user: per signed-in user (the uid of the verified ID token), counted right after the auth
 *    hook, before the body is read;
 *  - public: per client address (an IPv6 address by its /64), counted first thing at onRequest;
 *  - internal: per address, generous: routes for our own services (shared secrets, the payment
 *    processor's webhook, the signalling WebSocket that a host opens once per session).
 * Unknown routes spend the public budget. Answers 401 (a bad token or secret) also count per
 * address, up to the public budget: an address past it is refused on user and internal routes
 * before any credential is checked. An address in `allow` is never limited.
 * Over a budget: 429 rate_limited in the error envelope (thrown as ApiError, sent by the server's
 * error handler) with Retry-After (seconds until the window ends) and X-RateLimit-Limit,
 * X-RateLimit-Remaining, X-RateLimit-Reset.
 */
import fastifyRateLimit, { normalizeIP } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestAsyncHookHandler, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError } from './errors';
import type { RateLimits } from './http-limits';

export type RateLimitGroup = 'user' | 'public' | 'internal';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The budget this route spends (set by the rate-limit plugin from the server's `groupOf`). */
    rateLimitGroup?: RateLimitGroup;
  }
}

export interface RateLimitPluginOptions {
  limits: RateLimits;
  /** The budget of a route, decided once when it is added. */
  groupOf(route: RouteOptions): RateLimitGroup;
  /** The verified caller on user routes (set by the auth hook, which runs before the count). */
  userOf?(request: FastifyRequest): string | undefined;
}

type Limiter = ReturnType<FastifyInstance['createRateLimit']>;
type LimitResult = Awaited<ReturnType<Limiter>>;

/** 429 in the envelope when `result` is over its budget; nothing otherwise. */
function enforce(result: LimitResult, reply: FastifyReply): void {
  if (result.isAllowed || !result.isExceeded) return;
  const reset = Math.max(1, result.ttlInSeconds);
  void reply.header('retry-after', String(reset));
  void reply.header('x-ratelimit-limit', String(result.max));
  void reply.header('x-ratelimit-remaining', '0');
  void reply.header('x-ratelimit-reset', String(reset));
  throw new ApiError('rate_limited');
}

async function rateLimitPlugin(app: FastifyInstance, options: RateLimitPluginOptions): Promise<void> {
  const { limits } = options;
  // No automatic hooks: this plugin decides where each budget is counted.
  await app.register(fastifyRateLimit, { global: false });

  const allowed = new Set(limits.allow.map((address) => normalizeIP(address)));
  const isAllowed = (request: FastifyRequest) => allowed.size > 0 && allowed.has(normalizeIP(request.ip));
  const budget = (max: number, keyGenerator?: (request: FastifyRequest) => string): Limiter =>
    app.createRateLimit({ max, timeWindow: limits.windowMs, ...(keyGenerator ? { keyGenerator } : {}) });

  // Each budget has its own counters (createRateLimit makes a store per call).
  const limiters: Record<RateLimitGroup, Limiter> = {
    public: budget(limits.publicMax),
    internal: budget(limits.internalMax),
    // The auth hook has answered 401 unless there is a user; the address is only a fallback.
    user: budget(limits.userMax, (request) => options.userOf?.(request) ?? `address ${normalizeIP(request.ip)}`),
  };
  const authFailures = budget(limits.publicMax);

  const countUser: onRequestAsyncHookHandler = async function countUser(request, reply) {
    if (!isAllowed(request)) enforce(await limiters.user(request), reply);
  };

  app.addHook('onRoute', (route) => {
    const group = options.groupOf(route);
    route.config = { ...route.config, rateLimitGroup: group };
    if (group !== 'user') return;
    // Appended: the auth plugin puts its hook first, so the user is known when this runs.
    const existing = route.onRequest ? (Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest]) : [];
    if (existing.includes(countUser)) return; // the automatic HEAD twin of a GET route
    route.onRequest = [...existing, countUser];
  });

  // Added to the root before any route: runs before every route's own hooks (auth, secrets).
  app.addHook('onRequest', async (request, reply) => {
    if (isAllowed(request)) return;
    const group = request.routeOptions.config?.rateLimitGroup ?? 'public';
    if (group !== 'public') enforce(await authFailures(request, { increment: false }), reply);
    if (group !== 'user') enforce(await limiters[group](request), reply);
  });

  app.addHook('onResponse', async (request, reply) => {
    if (reply.statusCode === 401 && !isAllowed(request)) await authFailures(request);
  });
}

export default fp(rateLimitPlugin, { name: 'yumecast-rate-limit', fastify: '5.x' });
