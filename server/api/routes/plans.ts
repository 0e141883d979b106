/**
 * GET /v1/plans (public): the plans on offer from the plans table (name, price in yen tax
 * included, period), in display order. /upgrade renders them; no price lives in page code.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { PlanListAnswer } from '../../../lib/api-types/schemas/payments';
import { AnyQuery, errorResponses } from '../schemas';

const planRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/v1/plans', { schema: { querystring: AnyQuery, response: { 200: PlanListAnswer, ...errorResponses } } }, async () => ({
    status: 'ok' as const,
    plans: await app.subscriptions.plans(),
  }));
};

export default planRoutes;
