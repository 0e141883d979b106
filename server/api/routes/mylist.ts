import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ApiErrorCode } from '../../../lib/api-types/errors';
import type { AuthUser } from '../auth/id-token';
import { ApiError } from '../errors';
import { requireUser } from '../plugins/auth';
import { anyQuery, errorResponses } from '../schemas';
import { nextCursor, okAnswer, pageQueryProperties, titleSchema } from './catalogSchemas';
import { oneParam, pathParam } from './params';
import { GAME_ID_PATTERN } from './sessions';

/**
 * My list (docs/catalogue.md): bookmarks and play history, verified users only (a visitor's
 * anonymous account gets 403 verified_required). Everything is scoped to the caller: another
 * user's bookmark is indistinguishable from a missing one (404).
 */

const VERIFIED_ONLY = 'マイリストは会員登録（ログイン）するとご利用いただけます。';

function verifiedUser(request: FastifyRequest): AuthUser {
  const user = requireUser(request);
  if (user.isAnonymous) throw new ApiError('verified_required', VERIFIED_ONLY);
  return user;
}

const pageQuery = { type: 'object', properties: { ...pageQueryProperties } } as const;

const bookmarkState = okAnswer({ game_id: { type: 'string' }, bookmarked: { type: 'boolean' } });

/** Options of the three routes on one bookmark (a malformed id is answered in the handler). */
const bookmarkRoute = {
  config: { auth: true },
  attachValidation: true,
  schema: {
    params: oneParam('gameId', GAME_ID_PATTERN),
    querystring: anyQuery,
    response: { 200: bookmarkState, ...errorResponses },
  },
} as const;

/** The caller (verified) and the path's game id (malformed → `notFound`). */
function target(request: FastifyRequest, notFound: ApiErrorCode): { uid: string; gameId: string } {
  const user = verifiedUser(request);
  return { uid: user.uid, gameId: pathParam(request, 'gameId', notFound) };
}

export default async function mylistRoutes(app: FastifyInstance): Promise<void> {
  app.get(
    '/v1/mylist/bookmarks',
    {
      config: { auth: true },
      schema: {
        querystring: pageQuery,
        response: {
          200: okAnswer({
            bookmarks: {
              type: 'array',
              items: {
                type: 'object',
                required: ['game_id', 'created_at', 'title'],
                additionalProperties: false,
                properties: { game_id: { type: 'string' }, created_at: { type: 'string' }, title: titleSchema },
              },
            },
            next_cursor: nextCursor,
          }),
          ...errorResponses,
        },
      },
    },
    (request) => {
      const user = verifiedUser(request);
      const { limit, cursor } = request.query as { limit: number; cursor?: string };
      return app.mylist.bookmarks(user.uid, limit, cursor || undefined);
    },
  );

  app.get('/v1/mylist/bookmarks/:gameId', bookmarkRoute, (request) => {
    const { uid, gameId } = target(request, 'game_not_found');
    return app.mylist.bookmarkState(uid, gameId);
  });

  app.put('/v1/mylist/bookmarks/:gameId', bookmarkRoute, (request) => {
    const { uid, gameId } = target(request, 'game_not_found');
    return app.mylist.addBookmark(uid, gameId);
  });

  app.delete('/v1/mylist/bookmarks/:gameId', bookmarkRoute, (request) => {
    const { uid, gameId } = target(request, 'bookmark_not_found');
    return app.mylist.removeBookmark(uid, gameId);
  });

  app.get(
    '/v1/mylist/history',
    {
      config: { auth: true },
      schema: {
        querystring: pageQuery,
        response: {
          200: okAnswer({
            histories: {
              type: 'array',
              items: {
                type: 'object',
                required: ['game_id', 'title', 'last_played_at', 'total_seconds', 'play_count'],
                additionalProperties: false,
                properties: {
                  game_id: { type: 'string' },
                  title: titleSchema,
                  last_played_at: { type: 'string' },
                  total_seconds: { type: 'integer' },
                  play_count: { type: 'integer' },
                },
              },
            },
            next_cursor: nextCursor,
          }),
          ...errorResponses,
        },
      },
    },
    (request) => {
      const user = verifiedUser(request);
      const { limit, cursor } = request.query as { limit: number; cursor?: string };
      return app.mylist.history(user.uid, limit, cursor || undefined);
    },
  );
}
