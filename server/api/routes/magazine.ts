/**
 * The magazine (docs/catalogue.md): the article list, newest first, and one article. Public.
 * An article carries the strictest age rating of its titles; the web gates it like them.
 * Answers: the contract of lib/api-types/schemas/catalog.ts.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { ArticleListWire, ArticleResponseWire } from '../../../lib/api-types/schemas/catalog';
import { closed } from '../../../lib/api-types/schemas/common';
import { AnyQuery, errorResponses, PageQuery } from '../schemas';
import { SLUG_PATTERN } from '../services/catalogue/types';

const ArticleParams = closed({ slug: Type.String({ pattern: SLUG_PATTERN }) });

const magazineRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/v1/magazine',
    { schema: { querystring: PageQuery, response: { 200: ArticleListWire, ...errorResponses } } },
    (request) => app.catalogue.articles(request.query.limit, request.query.cursor || undefined),
  );

  app.get(
    '/v1/magazine/:slug',
    {
      config: { notFound: 'article_not_found' },
      schema: { params: ArticleParams, querystring: AnyQuery, response: { 200: ArticleResponseWire, ...errorResponses } },
    },
    (request) => app.catalogue.article(request.params.slug),
  );
};

export default magazineRoutes;
