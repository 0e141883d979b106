/**
 * GET /v1/me: who the bearer token says the caller is. It also records the user (first seen,
 * last seen; services/users.ts), so it is the first call a signed-in browser makes, and it
 * proves the auth hook and the database work together.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, type Static } from '@sinclair/typebox';
import { okAnswer } from '../../../lib/api-types/schemas/common';
import { requireUser } from '../plugins/auth';
import { AnyQuery, errorResponses } from '../schemas';
import { UserService } from '../services/users';

export const MeAnswer = okAnswer({ uid: Type.String(), isAnonymous: Type.Boolean(), email: Type.Union([Type.String(), Type.Null()]) });
export type MeAnswer = Static<typeof MeAnswer>;

const meRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const users = new UserService(app.db);

  app.get(
    '/v1/me',
    { config: { auth: true }, schema: { querystring: AnyQuery, response: { 200: MeAnswer, ...errorResponses } } },
    async (request) => {
      const user = requireUser(request);
      await users.touch(user.uid);
      return { status: 'ok' as const, uid: user.uid, isAnonymous: user.isAnonymous, email: user.email };
    },
  );
};

export default meRoutes;
