import type { FastifyInstance } from 'fastify';
import { anyQuery, errorResponses } from '../schemas';
import { TITLE_SORTS, type TitleSort } from '../services/catalogue/orders';
import { MAX_QUERY_LENGTH } from '../services/catalogue/search';
import {
  articleSummarySchema,
  brandSchema,
  nextCursor,
  okAnswer,
  pageQueryProperties,
  titleDetailSchema,
  titleListSchema,
  titleSchema,
} from './catalogSchemas';
import { oneParam, pathParam } from './params';
import { GAME_ID_PATTERN } from './sessions';

/**
 * The public catalogue (docs/catalogue.md): home, title lists, a title page, search, brands.
 * No bearer needed (the Next.js server renders these without a user); one sent is ignored.
 * Age-rated titles are in every answer with their age_rating: the web hides or blurs them
 * until the safe check, so the api never needs to know who asks.
 */

export default async function catalogRoutes(app: FastifyInstance): Promise<void> {
  app.get(
    '/v1/catalog/home',
    {
      schema: {
        querystring: anyQuery,
        response: {
          200: okAnswer({
            featured: { anyOf: [titleSchema, { type: 'null' }] },
            new_titles: titleListSchema,
            popular: titleListSchema,
            genres: {
              type: 'array',
              items: {
                type: 'object',
                required: ['genre', 'titles'],
                additionalProperties: false,
                properties: { genre: { type: 'string' }, titles: titleListSchema },
              },
            },
            articles: { type: 'array', items: articleSummarySchema },
          }),
          ...errorResponses,
        },
      },
    },
    () => app.catalogue.home(),
  );

  app.get(
    '/v1/catalog/titles',
    {
      schema: {
        querystring: {
          type: 'object',
          properties: {
            sort: { type: 'string', enum: [...TITLE_SORTS], default: 'new' },
            genre: { type: 'string', minLength: 1, maxLength: 100 },
            brand: { type: 'string', minLength: 1, maxLength: 64 },
            ...pageQueryProperties,
          },
        },
        response: { 200: okAnswer({ titles: titleListSchema, next_cursor: nextCursor }), ...errorResponses },
      },
    },
    (request) => {
      const query = request.query as { sort: TitleSort; genre?: string; brand?: string; limit: number; cursor?: string };
      return app.catalogue.titles({ ...query, cursor: query.cursor || undefined });
    },
  );

  app.get(
    '/v1/catalog/titles/:id',
    {
      attachValidation: true,
      schema: {
        params: oneParam('id', GAME_ID_PATTERN),
        querystring: anyQuery,
        response: { 200: okAnswer({ title: titleDetailSchema, related: titleListSchema }), ...errorResponses },
      },
    },
    (request) => app.catalogue.title(pathParam(request, 'id', 'game_not_found')),
  );

  app.get(
    '/v1/catalog/search',
    {
      schema: {
        querystring: {
          type: 'object',
          properties: { q: { type: 'string', maxLength: MAX_QUERY_LENGTH, default: '' }, ...pageQueryProperties },
        },
        response: {
          200: okAnswer({
            normalized_query: { type: 'string' },
            total: { type: 'integer' },
            results: {
              type: 'array',
              items: {
                type: 'object',
                required: ['title', 'score'],
                additionalProperties: false,
                properties: { title: titleSchema, score: { type: 'number' } },
              },
            },
            next_cursor: nextCursor,
            suggestions: { type: 'array', items: { type: 'string' } },
          }),
          ...errorResponses,
        },
      },
    },
    (request) => {
      const { q, limit, cursor } = request.query as { q: string; limit: number; cursor?: string };
      return app.catalogue.search(q, limit, cursor || undefined);
    },
  );

  app.get(
    '/v1/catalog/brands',
    {
      schema: {
        querystring: anyQuery,
        response: { 200: okAnswer({ brands: { type: 'array', items: brandSchema } }), ...errorResponses },
      },
    },
    () => app.catalogue.brands(),
  );
}
