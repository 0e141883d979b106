/**
 * Screenshots for their owner (docs/sessions.md 6): list (newest first, cursor pages), metadata,
 * the PNG itself, delete. Someone else's id, or a malformed one, is 404 screenshot_not_found.
 * Answers: the contract of lib/api-types/schemas/sessions.ts.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { closed, OkOnly, UuidString } from '../../../lib/api-types/schemas/common';
import { ScreenshotDetailAnswer, ScreenshotListAnswer } from '../../../lib/api-types/schemas/sessions';
import { requireUser } from '../plugins/auth';
import { AnyQuery, errorResponses, PageLimit } from '../schemas';
import { toWire } from '../services/screenshots';

const ScreenshotParams = closed({ id: UuidString });
/** Screenshot cursors are short (a time and a uuid): 256 characters at most. */
const ScreenshotListQuery = Type.Object({ cursor: Type.Optional(Type.String({ maxLength: 256 })), limit: PageLimit });
/** The PNG itself (a Buffer: sent as is, never serialised). */
const PngImage = Type.Unsafe<Buffer>({ type: 'string', contentMediaType: 'image/png' });

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
    { config: ON_SCREENSHOT, schema: { params: ScreenshotParams, querystring: AnyQuery, response: { 200: PngImage, ...errorResponses } } },
    async (request, reply) => {
      const user = requireUser(request);
      const data = await app.screenshots.image(user.uid, request.params.id.toLowerCase());
      return reply
        .type('image/png')
        .header('cache-control', 'private, max-age=3600')
        .header('x-content-type-options', 'nosniff')
        .send(data);
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
