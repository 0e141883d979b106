import type { FastifyInstance } from 'fastify';
import { anyQuery, errorResponses } from '../schemas';
import { oneParam, pathParam } from './params';
import { articleSchema, articleSummarySchema, nextCursor, okAnswer, pageQueryProperties } from './catalogSchemas';

/**
 * The magazine (docs/catalogue.md): the article list, newest first, and one article. Public.
 * An article carries the strictest age rating of its titles; the web gates it like them.
 */

const SLUG_PATTERN = '^[a-z0-9][a-z0-9-]{0,127}$';

export default async function magazineRoutes(app: FastifyInstance): Promise<void> {
  app.get(
    '/v1/magazine',
    {
      schema: {
        querystring: { type: 'object', properties: { ...pageQueryProperties } },
        response: {
          200: okAnswer({ articles: { type: 'array', items: articleSummarySchema }, next_cursor: nextCursor }),
          ...errorResponses,
        },
      },
    },
    (request) => {
      const { limit, cursor } = request.query as { limit: number; cursor?: string };
      return app.catalogue.articles(limit, cursor || undefined);
    },
  );

  app.get(
    '/v1/magazine/:slug',
    {
      attachValidation: true,
      schema: {
        params: oneParam('slug', SLUG_PATTERN),
        querystring: anyQuery,
        response: { 200: okAnswer({ article: articleSchema }), ...errorResponses },
      },
    },
    (request) => app.catalogue.article(pathParam(request, 'slug', 'article_not_found')),
  );
}
