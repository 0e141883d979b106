/**
 * The routes game hosts call (docs/sessions.md 4.1 and 4.3): the registry (register, heartbeat,
 * shutdown) and the session reports (state, saves, screenshots, input activity). Every request
 * carries the shared secret (x-host-secret, compared in constant time); session reports also
 * name the host (x-host-id), which must be the session's host. Every schema, header, pattern and
 * limit is the host ⇄ api contract of server/shared/host-contract.ts, which the host also uses.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import {
  HeartbeatAnswer,
  HeartbeatBody,
  HOST_ID_HEADER,
  HOST_ID_RE,
  HOST_SECRET_HEADER,
  HostParams,
  InputActivityBody,
  OkOnly,
  RegisterAnswer,
  RegisterBody,
  ReportParams,
  SAVE_BODY_LIMIT,
  SaveAnswer,
  SaveBody,
  SCREENSHOT_MAX_BYTES,
  ScreenshotAnswer,
  ShutdownAnswer,
  ShutdownBody,
  StateReportAnswer,
  StateReportBody,
} from '../../shared/host-contract';
import { secretMatches } from '../../shared/secret';
import { ApiError } from '../errors';
import { errorResponses } from '../schemas';
import { readPng } from '../services/png';

/** The reporting host (x-host-id); a missing or malformed one is 401. */
function hostIdOf(request: FastifyRequest): string {
  const header = request.headers[HOST_ID_HEADER];
  if (typeof header !== 'string' || !HOST_ID_RE.test(header)) throw new ApiError('unauthorized');
  return header;
}

const internalRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const secret = app.config.sessions.hostSharedSecret;

  // Encapsulated (no fastify-plugin): the hook and the PNG parser apply to these routes only.
  app.addHook('onRequest', async (request) => {
    if (!secretMatches(request.headers[HOST_SECRET_HEADER], secret)) throw new ApiError('unauthorized');
  });

  app.addContentTypeParser('image/png', { parseAs: 'buffer', bodyLimit: SCREENSHOT_MAX_BYTES }, (_request, body, done) => {
    done(null, body);
  });

  // ── registry ──────────────────────────────────────────────────────────────────────────────

  app.post(
    '/internal/hosts/register',
    { schema: { body: RegisterBody, response: { 200: RegisterAnswer, ...errorResponses } } },
    async (request) => {
      const body = request.body;
      let url: URL;
      try {
        url = new URL(body.url);
      } catch {
        throw new ApiError('invalid_request', 'リクエストの内容が正しくありません（本文: url）。');
      }
      await app.sessions.registerHost({ ...body, url: url.toString().replace(/\/+$/, '') });
      request.log.info({ hostId: body.hostId, url: body.url, capacity: body.capacity }, 'host registered');
      const timeout = app.config.sessions.hostHeartbeatTimeoutMs;
      return {
        status: 'ok' as const,
        state: 'Ready' as const,
        heartbeatIntervalMs: Math.max(50, Math.floor(timeout / 3)),
        heartbeatTimeoutMs: timeout,
      };
    },
  );

  app.post(
    '/internal/hosts/:hostId/heartbeat',
    { schema: { params: HostParams, body: HeartbeatBody, response: { 200: HeartbeatAnswer, ...errorResponses } } },
    async (request) => {
      const result = await app.sessions.heartbeat(request.params.hostId, {
        ...request.body,
        sessionIds: request.body.sessionIds?.map((id) => id.toLowerCase()),
      });
      return { status: 'ok' as const, ...result };
    },
  );

  app.post(
    '/internal/hosts/:hostId/shutdown',
    { schema: { params: HostParams, body: ShutdownBody, response: { 200: ShutdownAnswer, ...errorResponses } } },
    async (request) => {
      const { hostId } = request.params;
      await app.sessions.shutdownHost(hostId);
      request.log.info({ hostId }, 'host shut down');
      return { status: 'ok' as const, state: 'Shutdown' as const };
    },
  );

  // ── session reports ───────────────────────────────────────────────────────────────────────
  // A malformed session id is a 400 (the host sent something it should not), not a 404.

  app.post(
    '/internal/sessions/:sessionId/state',
    { schema: { params: ReportParams, body: StateReportBody, response: { 200: StateReportAnswer, ...errorResponses } } },
    async (request) => {
      const hostId = hostIdOf(request);
      const { state, reason } = request.body;
      const sessionState = await app.sessions.hostReportState(hostId, request.params.sessionId.toLowerCase(), state, reason);
      return { status: 'ok' as const, session_state: sessionState };
    },
  );

  app.post(
    '/internal/sessions/:sessionId/saves',
    {
      bodyLimit: SAVE_BODY_LIMIT,
      schema: { params: ReportParams, body: SaveBody, response: { 200: SaveAnswer, ...errorResponses } },
    },
    async (request) => {
      const hostId = hostIdOf(request);
      const { slot, state } = request.body;
      const updatedAt = await app.sessions.hostSave(hostId, request.params.sessionId.toLowerCase(), slot, state);
      return { status: 'ok' as const, updatedAt: updatedAt.toISOString() };
    },
  );

  app.post(
    '/internal/sessions/:sessionId/screenshots',
    {
      bodyLimit: SCREENSHOT_MAX_BYTES,
      schema: { params: ReportParams, response: { 201: ScreenshotAnswer, ...errorResponses } },
    },
    async (request, reply) => {
      const hostId = hostIdOf(request);
      const sessionId = request.params.sessionId.toLowerCase();
      // No body schema: the body is the PNG itself (the image/png parser above hands a Buffer).
      const png = request.body;
      if (request.headers['content-type']?.split(';')[0].trim().toLowerCase() !== 'image/png' || !Buffer.isBuffer(png)) {
        throw new ApiError('unsupported_media_type');
      }
      const info = readPng(png);
      if (!info) throw new ApiError('invalid_request', 'PNG 画像として読み取れませんでした。');
      const session = await app.sessions.sessionOnHost(hostId, sessionId);
      if (session.state === 'closed' || session.state === 'failed' || session.state === 'queued') {
        throw new ApiError('session_closed');
      }
      const { id } = await app.screenshots.create(session, png, info);
      return reply.code(201).send({ status: 'ok', screenshotId: id });
    },
  );

  app.post(
    '/internal/sessions/:sessionId/input-activity',
    { schema: { params: ReportParams, body: InputActivityBody, response: { 200: OkOnly, ...errorResponses } } },
    async (request) => {
      const hostId = hostIdOf(request);
      // `at` absent: the host saw input just now.
      await app.sessions.hostInputActivity(hostId, request.params.sessionId.toLowerCase(), request.body.at);
      return { status: 'ok' as const };
    },
  );
};

export default internalRoutes;
