import type { FastifyInstance } from 'fastify';
import { ApiError } from '../errors';
import { anyQuery, errorResponses } from '../schemas';

export interface HealthResponse {
  status: 'ok';
  db: 'ok';
}

/**
 * GET /health: liveness and readiness in one, for the stack scripts, load balancers and
 * orchestrators. It answers ok only when PostgreSQL answers `SELECT 1`, else 503 typed.
 */
export default async function healthRoutes(app: FastifyInstance): Promise<void> {
  app.get<{ Reply: HealthResponse }>(
    '/health',
    {
      schema: {
        querystring: anyQuery,
        response: {
          200: {
            type: 'object',
            required: ['status', 'db'],
            additionalProperties: false,
            properties: {
              status: { type: 'string', enum: ['ok'] },
              db: { type: 'string', enum: ['ok'] },
            },
          },
          ...errorResponses,
        },
      },
    },
    async () => {
      try {
        await app.db.query('SELECT 1');
      } catch (error) {
        throw new ApiError('service_unavailable', undefined, { cause: error });
      }
      return { status: 'ok', db: 'ok' } as const;
    },
  );
}
