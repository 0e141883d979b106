/**
 * My list (docs/catalogue.md): bookmarks and play history, verified users only (a visitor's
 * anonymous account, or an unconfirmed e-mail address, gets 403 verified_required; docs/api.md
 * "Verified callers"). Everything is scoped to the caller: another user's bookmark is
 * indistinguishable from a missing one (404). Answers: the contract of
 * lib/api-types/schemas/catalog.ts.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { BookmarkListWire, BookmarkStateWire, PlayHistoryListWire } from '../../../lib/api-types/schemas/catalog';
import { GameParams } from '../../../lib/api-types/schemas/sessions';
import type { AuthUser } from '../auth/id-token';
import { requireUser, requireVerifiedUser } from '../plugins/auth';
import { AnyQuery, errorResponses, PageQuery } from '../schemas';

const VERIFIED_ONLY = 'マイリストは会員登録（ログイン）するとご利用いただけます。';

const verifiedUser = (request: FastifyRequest): AuthUser => requireVerifiedUser(request, VERIFIED_ONLY);

/**
 * Schema of the three routes on one bookmark. The verified check runs before validation, so a
 * visitor gets 403 even for a malformed id; a member's malformed id is the route's typed 404.
 */
const bookmarkSchema = { params: GameParams, querystring: AnyQuery, response: { 200: BookmarkStateWire, ...errorResponses } };
const bookmarkRoute = (notFound: 'game_not_found' | 'bookmark_not_found') => ({
  config: { auth: true, notFound },
  preValidation: async (request: FastifyRequest) => {
    verifiedUser(request);
  },
  schema: bookmarkSchema,
});

const mylistRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/v1/mylist/bookmarks',
    { config: { auth: true }, schema: { querystring: PageQuery, response: { 200: BookmarkListWire, ...errorResponses } } },
    (request) => app.mylist.bookmarks(verifiedUser(request).uid, request.query.limit, request.query.cursor || undefined),
  );

  app.get('/v1/mylist/bookmarks/:gameId', bookmarkRoute('game_not_found'), (request) =>
    app.mylist.bookmarkState(requireUser(request).uid, request.params.gameId),
  );

  app.put('/v1/mylist/bookmarks/:gameId', bookmarkRoute('game_not_found'), (request) =>
    app.mylist.addBookmark(requireUser(request).uid, request.params.gameId),
  );

  app.delete('/v1/mylist/bookmarks/:gameId', bookmarkRoute('bookmark_not_found'), (request) =>
    app.mylist.removeBookmark(requireUser(request).uid, request.params.gameId),
  );

  app.get(
    '/v1/mylist/history',
    { config: { auth: true }, schema: { querystring: PageQuery, response: { 200: PlayHistoryListWire, ...errorResponses } } },
    (request) => app.mylist.history(verifiedUser(request).uid, request.query.limit, request.query.cursor || undefined),
  );
};

export default mylistRoutes;
