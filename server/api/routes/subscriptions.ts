/**
 * GET /api/subscriptions (bearer; spec §6): the caller's subscription records that started,
 * newest `created` first, as `{ status: "ok", subscriptions: [...] }` (the spec's list inside
 * our ok envelope; docs/purchase.md). Owner only: another user's record never appears. An
 * anonymous visitor has none (an empty list), so the route takes any signed-in caller.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { SubscriptionListAnswer } from '../../../lib/api-types/schemas/payments';
import { requireUser } from '../plugins/auth';
import { AnyQuery, errorResponses } from '../schemas';

const subscriptionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/api/subscriptions',
    { config: { auth: true }, schema: { querystring: AnyQuery, response: { 200: SubscriptionListAnswer, ...errorResponses } } },
    async (request, reply) => {
      void reply.header('cache-control', 'no-store');
      return { status: 'ok' as const, subscriptions: await app.subscriptions.subscriptions(requireUser(request).uid) };
    },
  );
};

export default subscriptionRoutes;
