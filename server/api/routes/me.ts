import type { FastifyInstance } from 'fastify';
import { requireUser } from '../plugins/auth';
import { anyQuery, errorResponses } from '../schemas';

export interface MeResponse {
  status: 'ok';
  uid: string;
  isAnonymous: boolean;
  email: string | null;
}

/**
 * GET /v1/me: who the bearer token says the caller is. It also records the user (first seen,
 * last seen), so it is the first call a signed-in browser makes, and it proves the auth hook
 * and the database work together.
 */
export default async function meRoutes(app: FastifyInstance): Promise<void> {
  app.get<{ Reply: MeResponse }>(
    '/v1/me',
    {
      config: { auth: true },
      schema: {
        querystring: anyQuery,
        response: {
          200: {
            type: 'object',
            required: ['status', 'uid', 'isAnonymous', 'email'],
            additionalProperties: false,
            properties: {
              status: { type: 'string', enum: ['ok'] },
              uid: { type: 'string' },
              isAnonymous: { type: 'boolean' },
              email: { type: ['string', 'null'] },
            },
          },
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const user = requireUser(request);
      await app.db.query(
        `INSERT INTO users (uid, last_seen_at) VALUES ($1, now())
         ON CONFLICT (uid) DO UPDATE SET last_seen_at = EXCLUDED.last_seen_at`,
        [user.uid],
      );
      return { status: 'ok', uid: user.uid, isAnonymous: user.isAnonymous, email: user.email } as const;
    },
  );
}
