import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../errors';
import { errorResponses } from '../schemas';
import { HOST_ID_HEADER, HOST_SECRET_HEADER } from '../services/hostClient';
import { UUID_PATTERN, UUID_RE } from '../services/sessionStore';
import { readPng } from '../services/png';

/**
 * The routes game hosts call (docs/sessions.md 4.1 and 4.3): the registry (register, heartbeat,
 * shutdown) and the session reports (state, saves, screenshots, input activity). Every request
 * carries the shared secret (x-host-secret, compared in constant time); session reports also
 * name the host (x-host-id), which must be the session's host.
 */

export const HOST_ID_PATTERN = '^[A-Za-z0-9._-]{1,64}$';
const HOST_ID_RE = new RegExp(HOST_ID_PATTERN);
export const SCREENSHOT_MAX_BYTES = 8 * 1024 * 1024;
export const SAVE_BODY_LIMIT = 512 * 1024;

const ok = { type: 'string', enum: ['ok'] } as const;
const okOnly = { type: 'object', required: ['status'], additionalProperties: false, properties: { status: ok } } as const;
const hostState = { type: 'string', enum: ['Ready', 'Allocated', 'Shutdown', 'Unhealthy'] } as const;
const hostParams = {
  type: 'object',
  required: ['hostId'],
  additionalProperties: false,
  properties: { hostId: { type: 'string', pattern: HOST_ID_PATTERN } },
} as const;
const sessionParams = {
  type: 'object',
  required: ['sessionId'],
  additionalProperties: false,
  properties: { sessionId: { type: 'string', pattern: UUID_PATTERN } },
} as const;

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

export default async function internalRoutes(app: FastifyInstance): Promise<void> {
  const expected = digest(app.config.sessions.hostSharedSecret);

  // Encapsulated (no fastify-plugin): the hook and the PNG parser apply to these routes only.
  app.addHook('onRequest', async (request: FastifyRequest) => {
    const header = request.headers[HOST_SECRET_HEADER];
    const given = typeof header === 'string' ? digest(header) : null;
    if (!given || !timingSafeEqual(given, expected)) throw new ApiError('unauthorized');
  });

  app.addContentTypeParser('image/png', { parseAs: 'buffer', bodyLimit: SCREENSHOT_MAX_BYTES }, (_request, body, done) => {
    done(null, body);
  });

  function hostIdOf(request: FastifyRequest): string {
    const header = request.headers[HOST_ID_HEADER];
    if (typeof header !== 'string' || !HOST_ID_RE.test(header)) throw new ApiError('unauthorized');
    return header;
  }

  function sessionIdOf(request: FastifyRequest): string {
    const { sessionId } = request.params as { sessionId: string };
    if (!UUID_RE.test(sessionId)) throw new ApiError('session_not_found');
    return sessionId.toLowerCase();
  }

  // ── registry ──────────────────────────────────────────────────────────────────────────────

  app.post(
    '/internal/hosts/register',
    {
      schema: {
        body: {
          type: 'object',
          required: ['hostId', 'url', 'capacity'],
          additionalProperties: false,
          properties: {
            hostId: { type: 'string', pattern: HOST_ID_PATTERN },
            url: { type: 'string', pattern: '^https?://[^\\s?#]+$', maxLength: 512 },
            capacity: { type: 'integer', minimum: 0, maximum: 256 },
            warm: { type: 'integer', minimum: 0, maximum: 256 },
          },
        },
        response: {
          200: {
            type: 'object',
            required: ['status', 'state', 'heartbeatIntervalMs', 'heartbeatTimeoutMs'],
            additionalProperties: false,
            properties: { status: ok, state: hostState, heartbeatIntervalMs: { type: 'integer' }, heartbeatTimeoutMs: { type: 'integer' } },
          },
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const body = request.body as { hostId: string; url: string; capacity: number; warm?: number };
      let url: URL;
      try {
        url = new URL(body.url);
      } catch {
        throw new ApiError('invalid_request', 'リクエストの内容が正しくありません（本文: url）。');
      }
      await app.sessions.registerHost({ ...body, url: url.toString().replace(/\/+$/, '') });
      request.log.info({ hostId: body.hostId, url: body.url, capacity: body.capacity }, 'host registered');
      const timeout = app.config.sessions.hostHeartbeatTimeoutMs;
      return { status: 'ok', state: 'Ready', heartbeatIntervalMs: Math.max(50, Math.floor(timeout / 3)), heartbeatTimeoutMs: timeout };
    },
  );

  app.post(
    '/internal/hosts/:hostId/heartbeat',
    {
      schema: {
        params: hostParams,
        body: {
          type: 'object',
          required: ['activeSessions', 'warm'],
          additionalProperties: false,
          properties: {
            activeSessions: { type: 'integer', minimum: 0, maximum: 10_000 },
            warm: { type: 'integer', minimum: 0, maximum: 10_000 },
            sessionIds: { type: 'array', maxItems: 1024, items: { type: 'string', pattern: UUID_PATTERN } },
          },
        },
        response: {
          200: {
            type: 'object',
            required: ['status', 'state', 'sessions'],
            additionalProperties: false,
            properties: { status: ok, state: hostState, sessions: { type: 'array', items: { type: 'string' } } },
          },
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const { hostId } = request.params as { hostId: string };
      const body = request.body as { activeSessions: number; warm: number; sessionIds?: string[] };
      const result = await app.sessions.heartbeat(hostId, {
        ...body,
        sessionIds: body.sessionIds?.map((id) => id.toLowerCase()),
      });
      return { status: 'ok', ...result };
    },
  );

  app.post(
    '/internal/hosts/:hostId/shutdown',
    {
      schema: {
        params: hostParams,
        body: { type: 'object', additionalProperties: false, properties: {} },
        response: {
          200: { type: 'object', required: ['status', 'state'], additionalProperties: false, properties: { status: ok, state: hostState } },
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const { hostId } = request.params as { hostId: string };
      await app.sessions.shutdownHost(hostId);
      request.log.info({ hostId }, 'host shut down');
      return { status: 'ok', state: 'Shutdown' };
    },
  );

  // ── session reports ───────────────────────────────────────────────────────────────────────

  app.post(
    '/internal/sessions/:sessionId/state',
    {
      schema: {
        params: sessionParams,
        body: {
          type: 'object',
          required: ['state'],
          additionalProperties: false,
          properties: {
            state: { type: 'string', enum: ['starting', 'ready', 'playing', 'closed', 'failed'] },
            reason: { type: 'string', pattern: '^[a-z0-9_]{1,64}$' },
          },
        },
        response: {
          200: {
            type: 'object',
            required: ['status', 'session_state'],
            additionalProperties: false,
            properties: { status: ok, session_state: { type: 'string' } },
          },
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const hostId = hostIdOf(request);
      const { state, reason } = request.body as { state: 'starting' | 'ready' | 'playing' | 'closed' | 'failed'; reason?: string };
      const sessionState = await app.sessions.hostReportState(hostId, sessionIdOf(request), state, reason);
      return { status: 'ok', session_state: sessionState };
    },
  );

  app.post(
    '/internal/sessions/:sessionId/saves',
    {
      bodyLimit: SAVE_BODY_LIMIT,
      schema: {
        params: sessionParams,
        body: {
          type: 'object',
          required: ['slot', 'state'],
          additionalProperties: false,
          properties: {
            slot: { type: 'string', pattern: '^[a-z0-9_-]{1,32}$' },
            state: { type: 'object' },
          },
        },
        response: {
          200: {
            type: 'object',
            required: ['status', 'updatedAt'],
            additionalProperties: false,
            properties: { status: ok, updatedAt: { type: 'string' } },
          },
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const hostId = hostIdOf(request);
      const { slot, state } = request.body as { slot: string; state: object };
      const updatedAt = await app.sessions.hostSave(hostId, sessionIdOf(request), slot, state);
      return { status: 'ok', updatedAt: updatedAt.toISOString() };
    },
  );

  app.post(
    '/internal/sessions/:sessionId/screenshots',
    {
      bodyLimit: SCREENSHOT_MAX_BYTES,
      schema: {
        params: sessionParams,
        response: {
          201: {
            type: 'object',
            required: ['status', 'screenshotId'],
            additionalProperties: false,
            properties: { status: ok, screenshotId: { type: 'string' } },
          },
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const hostId = hostIdOf(request);
      const sessionId = sessionIdOf(request);
      if (request.headers['content-type']?.split(';')[0].trim().toLowerCase() !== 'image/png' || !Buffer.isBuffer(request.body)) {
        throw new ApiError('unsupported_media_type');
      }
      const png = readPng(request.body);
      if (!png) throw new ApiError('invalid_request', 'PNG 画像として読み取れませんでした。');
      const session = await app.sessions.sessionOnHost(hostId, sessionId);
      if (session.state === 'closed' || session.state === 'failed' || session.state === 'queued') {
        throw new ApiError('session_closed');
      }
      const { id } = await app.screenshots.create(session, request.body, png);
      return reply.code(201).send({ status: 'ok', screenshotId: id });
    },
  );

  app.post(
    '/internal/sessions/:sessionId/input-activity',
    {
      schema: {
        params: sessionParams,
        body: {
          type: 'object',
          additionalProperties: false,
          properties: { at: { type: 'number', minimum: 0, maximum: 8.64e15 } },
        },
        response: { 200: okOnly, ...errorResponses },
      },
    },
    async (request) => {
      const hostId = hostIdOf(request);
      const { at } = (request.body ?? {}) as { at?: number };
      await app.sessions.hostInputActivity(hostId, sessionIdOf(request), at);
      return { status: 'ok' };
    },
  );
}
