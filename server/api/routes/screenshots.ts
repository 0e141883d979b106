import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../errors';
import { requireUser } from '../plugins/auth';
import { anyQuery, errorResponses } from '../schemas';
import { toWire } from '../services/screenshots';
import { UUID_PATTERN } from '../services/sessionStore';

/**
 * Screenshots for their owner (docs/sessions.md 6): list (newest first, cursor pages), metadata,
 * the PNG itself, delete. Someone else's id, or a malformed one, is 404 screenshot_not_found.
 */

const ok = { type: 'string', enum: ['ok'] } as const;

const screenshotSchema = {
  type: 'object',
  required: ['id', 'game_id', 'session_id', 'width', 'height', 'bytes', 'created_at'],
  additionalProperties: false,
  properties: {
    id: { type: 'string' },
    game_id: { type: 'string' },
    session_id: { type: 'string' },
    width: { type: 'integer' },
    height: { type: 'integer' },
    bytes: { type: 'integer' },
    created_at: { type: 'string' },
  },
} as const;

const idParams = {
  type: 'object',
  required: ['id'],
  additionalProperties: false,
  properties: { id: { type: 'string', pattern: UUID_PATTERN } },
} as const;

function idOf(request: FastifyRequest): string {
  const error = request.validationError;
  if (error) {
    if (error.validationContext === 'params') throw new ApiError('screenshot_not_found');
    throw error;
  }
  return (request.params as { id: string }).id.toLowerCase();
}

export default async function screenshotRoutes(app: FastifyInstance): Promise<void> {
  app.get(
    '/v1/screenshots',
    {
      config: { auth: true },
      schema: {
        querystring: {
          type: 'object',
          properties: {
            cursor: { type: 'string', maxLength: 256 },
            limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
          },
        },
        response: {
          200: {
            type: 'object',
            required: ['status', 'screenshots', 'next_cursor'],
            additionalProperties: false,
            properties: {
              status: ok,
              screenshots: { type: 'array', items: screenshotSchema },
              next_cursor: { type: ['string', 'null'] },
            },
          },
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const user = requireUser(request);
      const { cursor, limit } = request.query as { cursor?: string; limit: number };
      const page = await app.screenshots.list(user.uid, limit, cursor || undefined);
      return { status: 'ok', screenshots: page.items, next_cursor: page.next };
    },
  );

  app.get(
    '/v1/screenshots/:id',
    {
      config: { auth: true },
      attachValidation: true,
      schema: {
        params: idParams,
        querystring: anyQuery,
        response: {
          200: {
            type: 'object',
            required: ['status', 'screenshot'],
            additionalProperties: false,
            properties: { status: ok, screenshot: screenshotSchema },
          },
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const id = idOf(request);
      const user = requireUser(request);
      const row = await app.screenshots.owned(user.uid, id);
      return { status: 'ok', screenshot: toWire(row) };
    },
  );

  app.get(
    '/v1/screenshots/:id/image',
    {
      config: { auth: true },
      attachValidation: true,
      schema: { params: idParams, querystring: anyQuery, response: { ...errorResponses } },
    },
    async (request, reply) => {
      const id = idOf(request);
      const user = requireUser(request);
      const data = await app.screenshots.image(user.uid, id);
      return reply
        .type('image/png')
        .header('cache-control', 'private, max-age=3600')
        .header('x-content-type-options', 'nosniff')
        .send(data);
    },
  );

  app.delete(
    '/v1/screenshots/:id',
    {
      config: { auth: true },
      attachValidation: true,
      schema: {
        params: idParams,
        querystring: anyQuery,
        response: {
          200: { type: 'object', required: ['status'], additionalProperties: false, properties: { status: ok } },
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const id = idOf(request);
      const user = requireUser(request);
      await app.screenshots.delete(user.uid, id);
      return { status: 'ok' };
    },
  );
}
