/**
 * Screenshots for their owner (docs/sessions.md 6): list (newest first, cursor pages), metadata,
 * the PNG itself, the gallery's WebP thumbnail (made once and kept: docs/mylist.md "Thumbnails"),
 * delete. Someone else's id, or a malformed one, is 404 screenshot_not_found.
 * Answers: the contract of lib/api-types/schemas/sessions.ts.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { closed, OkOnly, UuidString } from '../../../lib/api-types/schemas/common';
import {
  ScreenshotDetailAnswer,
  ScreenshotListAnswer,
  ScreenshotPngBody,
  ScreenshotThumbnailBody,
} from '../../../lib/api-types/schemas/sessions';
import { requireUser } from '../plugins/auth';
import { AnyQuery, errorResponses, PageLimit } from '../schemas';
import { toWire } from '../services/screenshots';
import { thumbnailEtag } from '../services/thumbnail';

const ScreenshotParams = closed({ id: UuidString });
/** Screenshot cursors are short (a time and a uuid): 256 characters at most. */
const ScreenshotListQuery = Type.Object({ cursor: Type.Optional(Type.String({ maxLength: 256 })), limit: PageLimit });
/**
 * A thumbnail never changes for one recipe: a week without asking, then one cheap 304 (its ETag
 * names the recipe, so a new one replaces it by then).
 */
const THUMBNAIL_CACHE = 'private, max-age=604800, immutable';

/** 304 Not Modified: no body at all. */
const NotModified = Type.Unsafe<undefined>({ description: 'Not Modified: no body' });

/** Whether an If-None-Match header lists `etag` (weak or strong, or `*`). */
function matchesEtag(header: string | undefined, etag: string): boolean {
  return !!header && header.split(',').some((tag) => ['*', etag].includes(tag.trim().replace(/^W\//, '')));
}

/** Config of the routes on one screenshot. */
const ON_SCREENSHOT = { auth: true, notFound: 'screenshot_not_found' } as const;

const screenshotRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/v1/screenshots',
    { config: { auth: true }, schema: { querystring: ScreenshotListQuery, response: { 200: ScreenshotListAnswer, ...errorResponses } } },
    async (request) => {
      const user = requireUser(request);
      const page = await app.screenshots.list(user.uid, request.query.limit, request.query.cursor || undefined);
      return { status: 'ok' as const, screenshots: page.items, next_cursor: page.next };
    },
  );

  app.get(
    '/v1/screenshots/:id',
    {
      config: ON_SCREENSHOT,
      schema: { params: ScreenshotParams, querystring: AnyQuery, response: { 200: ScreenshotDetailAnswer, ...errorResponses } },
    },
    async (request) => {
      const user = requireUser(request);
      const row = await app.screenshots.owned(user.uid, request.params.id.toLowerCase());
      return { status: 'ok' as const, screenshot: toWire(row) };
    },
  );

  app.get(
    '/v1/screenshots/:id/image',
    { config: ON_SCREENSHOT, schema: { params: ScreenshotParams, querystring: AnyQuery, response: { 200: ScreenshotPngBody, ...errorResponses } } },
    async (request, reply) => {
      const user = requireUser(request);
      const data = await app.screenshots.image(user.uid, request.params.id.toLowerCase());
      return reply
        .type('image/png')
        .header('cache-control', 'private, max-age=3600')
        .send(data);
    },
  );

  app.get(
    '/v1/screenshots/:id/thumbnail',
    {
      config: ON_SCREENSHOT,
      schema: { params: ScreenshotParams, querystring: AnyQuery, response: { 200: ScreenshotThumbnailBody, 304: NotModified, ...errorResponses } },
    },
    async (request, reply) => {
      const user = requireUser(request);
      const id = request.params.id.toLowerCase();
      const etag = thumbnailEtag(id);
      // Set on success only: a 404 must not be cached for a week.
      // (nosniff, like every api answer: plugins/securityHeaders.ts)
      const headers = { 'cache-control': THUMBNAIL_CACHE, etag };
      if (matchesEtag(request.headers['if-none-match'], etag)) {
        await app.screenshots.owned(user.uid, id); // still the owner's, else the same 404
        return reply.code(304).headers(headers).send(undefined);
      }
      const data = await app.screenshots.thumbnail(user.uid, id);
      return reply.type('image/webp').headers(headers).send(data);
    },
  );

  app.delete(
    '/v1/screenshots/:id',
    { config: ON_SCREENSHOT, schema: { params: ScreenshotParams, querystring: AnyQuery, response: { 200: OkOnly, ...errorResponses } } },
    async (request) => {
      const user = requireUser(request);
      await app.screenshots.delete(user.uid, request.params.id.toLowerCase());
      return { status: 'ok' as const };
    },
  );
};

export default screenshotRoutes;
