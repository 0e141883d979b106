/**
 * GET /health: liveness and readiness in one, for the stack scripts, load balancers and
 * orchestrators. It answers ok only when PostgreSQL answers `SELECT 1`, else 503 typed.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, type Static } from '@sinclair/typebox';
import { okAnswer } from '../../../lib/api-types/schemas/common';
import { AnyQuery, errorResponses } from '../schemas';
import { checkDatabase } from '../services/health';

export const HealthAnswer = okAnswer({ db: Type.Literal('ok') });
export type HealthAnswer = Static<typeof HealthAnswer>;

const healthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/health', { schema: { querystring: AnyQuery, response: { 200: HealthAnswer, ...errorResponses } } }, async () => {
    await checkDatabase(app.db);
    return { status: 'ok' as const, db: 'ok' as const };
  });
};

export default healthRoutes;
