/**
 * The public catalogue (docs/catalogue.md): home, title lists, a title page, search, brands.
 * No bearer needed (the Next.js server renders these without a user); one sent is ignored.
 * Age-rated titles are in every answer with their age_rating: the web hides or blurs them
 * until the safe check, so the api never needs to know who asks. Answers: the contract of
 * lib/api-types/schemas/catalog.ts.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  BrandListWire,
  HomeWire,
  SearchWire,
  TitleDetailResponseWire,
  TitleListWire,
} from '../../../lib/api-types/schemas/catalog';
import { closed, GameIdString } from '../../../lib/api-types/schemas/common';
import { AnyQuery, errorResponses, pageQueryFields } from '../schemas';
import { TITLE_SORTS } from '../services/catalogue/orders';
import { MAX_QUERY_LENGTH } from '../services/catalogue/search';

/** GET /v1/catalog/titles?sort=&genre=&brand=&limit=&cursor= */
const TitleListQuery = Type.Object({
  sort: Type.Union(
    TITLE_SORTS.map((sort) => Type.Literal(sort)),
    { default: 'new' },
  ),
  genre: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  brand: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  ...pageQueryFields,
});

/** GET /v1/catalog/search?q=&limit=&cursor= */
const SearchQuery = Type.Object({ q: Type.String({ maxLength: MAX_QUERY_LENGTH, default: '' }), ...pageQueryFields });

const TitleParams = closed({ id: GameIdString });

const catalogRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/v1/catalog/home',
    { schema: { querystring: AnyQuery, response: { 200: HomeWire, ...errorResponses } } },
    () => app.catalogue.home(),
  );

  app.get(
    '/v1/catalog/titles',
    { schema: { querystring: TitleListQuery, response: { 200: TitleListWire, ...errorResponses } } },
    (request) => app.catalogue.titles({ ...request.query, cursor: request.query.cursor || undefined }),
  );

  app.get(
    '/v1/catalog/titles/:id',
    {
      config: { notFound: 'game_not_found' },
      schema: { params: TitleParams, querystring: AnyQuery, response: { 200: TitleDetailResponseWire, ...errorResponses } },
    },
    (request) => app.catalogue.title(request.params.id),
  );

  app.get(
    '/v1/catalog/search',
    { schema: { querystring: SearchQuery, response: { 200: SearchWire, ...errorResponses } } },
    (request) => {
      const { q, limit, cursor } = request.query;
      return app.catalogue.search(q, limit, cursor || undefined);
    },
  );

  app.get(
    '/v1/catalog/brands',
    { schema: { querystring: AnyQuery, response: { 200: BrandListWire, ...errorResponses } } },
    () => app.catalogue.brands(),
  );
};

export default catalogRoutes;
