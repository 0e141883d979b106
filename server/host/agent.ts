/**
 * The game-host agent: the api-facing Fastify app (start/stop sessions, health), the pages'
 * static origin, the runtime pool, the sessions, and the registry client. `buildHostAgent`
 * builds it without listening; `agent.start()` listens, warms the pool and registers;
 * `agent.shutdown()` reports Shutdown, ends every session with `bye host_shutdown`, kills every
 * browser and closes the servers. server/host/main.ts runs it as a process.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { buildRuntime } from '../../runtime/build';
import { ApiClient } from './api-client';
import type { HostConfig } from './config';
import { API_CLOSE_REASONS, HOST_SECRET_HEADER, SESSION_ID_PATTERN, startSessionSchema, type StartSessionRequest } from './contract';
import { startPageServer, type PageServer } from './page-server';
import { buildPrewarmPlan } from './prewarm';
import { NoCapacityError, RuntimePool } from './pool';
import { sweepStaleRuntimes } from './runtime';
import { Registry } from './registry';
import { byeForApiReason, SessionManager } from './sessions';
import { chromiumProcs } from './procs';

type Log = (level: 'info' | 'warn' | 'error', msg: string) => void;

/** Shutdown gives sessions this long to save and say bye before every runtime is killed. */
const SHUTDOWN_GRACE_MS = 5000;

const MESSAGES: Record<string, string> = {
  unauthorized: '認証に失敗しました。',
  invalid_request: 'リクエストの形式が正しくありません。',
  not_found: '見つかりません。',
  session_not_found: 'セッションが見つかりません。',
  session_ended: 'このセッションはすでに終了しています。',
  no_capacity: 'このホストには空きがありません。',
  shutting_down: 'このホストは停止中です。',
  internal: 'ホストで問題が発生しました。',
};

function sendError(reply: FastifyReply, status: number, code: string): FastifyReply {
  return reply.code(status).send({ status: 'error', error: { code, message: MESSAGES[code] ?? code } });
}

const errorSchema = {
  type: 'object',
  required: ['status', 'error'],
  properties: {
    status: { type: 'string', const: 'error' },
    error: { type: 'object', required: ['code', 'message'], properties: { code: { type: 'string' }, message: { type: 'string' } } },
  },
} as const;
const errorResponses = { 400: errorSchema, 401: errorSchema, 404: errorSchema, 409: errorSchema, 500: errorSchema, 503: errorSchema };

const counterSchema = { type: ['object', 'null'], additionalProperties: { type: ['number', 'string'] } } as const;
const sessionInfoSchema = {
  type: 'object',
  properties: {
    sessionId: { type: 'string' },
    gameId: { type: 'string' },
    state: { type: 'string' },
    runtimeId: { type: ['string', 'null'] },
    startMs: { type: ['number', 'null'] },
    fromWarm: { type: ['boolean', 'null'] },
    ready: {
      type: ['object', 'null'],
      properties: { gameId: { type: 'string' }, title: { type: 'string' }, startMs: { type: 'number' }, beginMs: { type: 'number' } },
    },
    endReason: { type: ['string', 'null'] },
    counters: counterSchema,
    blocked: { type: ['object', 'null'], properties: { requests: { type: 'number' }, websockets: { type: 'number' } } },
    saves: { type: 'number' },
    screenshots: { type: 'number' },
    endings: { type: 'array', items: { type: 'string' } },
    engine: {
      type: ['object', 'null'],
      properties: {
        screen: { type: 'string' },
        overlay: { type: ['string', 'null'] },
        scene: { type: ['string', 'null'] },
        speakerName: { type: ['string', 'null'] },
        visibleText: { type: 'string' },
        choices: { type: 'array', items: { type: 'string' } },
        lineCount: { type: 'number' },
        ending: { type: ['string', 'null'] },
        quality: { type: 'string' },
        frame: { type: 'number' },
      },
    },
  },
} as const;
const poolSchema = {
  type: 'object',
  properties: {
    capacity: { type: 'number' },
    warmTarget: { type: 'number' },
    warm: { type: 'number' },
    busy: { type: 'number' },
    launching: { type: 'number' },
    waiting: { type: 'number' },
    launches: { type: 'number' },
    launchFailures: { type: 'number' },
    kills: { type: 'number' },
    lastLaunchMs: { type: ['number', 'null'] },
  },
} as const;
const noQuery = { type: 'object', additionalProperties: true } as const;
const sessionParams = {
  type: 'object',
  required: ['sessionId'],
  additionalProperties: false,
  properties: { sessionId: { type: 'string', pattern: SESSION_ID_PATTERN } },
} as const;

export interface HostAgent {
  config: HostConfig;
  app: FastifyInstance;
  pool: RuntimePool;
  sessions: SessionManager;
  registry: Registry | null;
  api: ApiClient | null;
  /** The pages' static origin, after start(). */
  pageOrigin(): string;
  /** The api-facing base URL, after start(). */
  url(): string;
  start(): Promise<void>;
  /** Report Shutdown, end every session (bye host_shutdown), kill every browser, close. */
  shutdown(): Promise<void>;
  state(): 'starting' | 'running' | 'shutting_down' | 'stopped';
}

export interface BuildHostAgentOptions {
  log?: Log;
  /** Fastify logger (default: off unless LOG_LEVEL=debug). */
  logger?: boolean;
}

function secretOk(given: unknown, expected: string): boolean {
  if (typeof given !== 'string') return false;
  const a = crypto.createHash('sha256').update(given).digest();
  const b = crypto.createHash('sha256').update(expected).digest();
  return crypto.timingSafeEqual(a, b);
}

export function buildHostAgent(config: HostConfig, options: BuildHostAgentOptions = {}): HostAgent {
  const log: Log =
    options.log ??
    ((level, m) => {
      if (level === 'info' && config.logLevel === 'silent') return;
      (level === 'error' ? console.error : level === 'warn' ? console.warn : console.log)(`[host ${config.hostId}] ${m}`);
    });
  let pageServer: PageServer | null = null;
  let state: ReturnType<HostAgent['state']> = 'starting';
  let baseUrl = '';

  const pool = new RuntimePool({
    capacity: config.capacity,
    warm: config.warm,
    refillDelayMs: config.timings.refillDelayMs,
    log,
    runtime: {
      chromiumPath: config.chromiumPath,
      tmpDir: config.tmpDir,
      get pageOrigin() {
        if (!pageServer) throw new Error('the page server is not started');
        return pageServer.origin;
      },
      launchTimeoutMs: config.timings.launchTimeoutMs,
      startTimeoutMs: config.timings.startTimeoutMs,
      closeTimeoutMs: config.timings.closeTimeoutMs,
      prewarm: null,
    },
  });
  const api = config.register ? new ApiClient(config.apiUrl, config.sharedSecret, config.hostId) : null;
  // with registration off (HOST_REGISTER=0: the bench, agent-only runs) nothing is reported
  const sessions = new SessionManager(pool, api, config, log);
  let registry: Registry | null = null;

  const app = Fastify({
    logger: options.logger ?? config.logLevel === 'debug',
    bodyLimit: 2 * 1024 * 1024,
    // unknown fields where a schema says additionalProperties:false are refused, not dropped;
    // no type coercion
    ajv: { customOptions: { removeAdditional: false, coerceTypes: false, allErrors: false } },
  });

  app.setErrorHandler((err: { validation?: unknown; statusCode?: number; message?: string }, _req, reply) => {
    if (err.validation) return sendError(reply, 400, 'invalid_request');
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) return sendError(reply, err.statusCode, 'invalid_request');
    log('error', `request failed: ${err.message ?? String(err)}`);
    return sendError(reply, 500, 'internal');
  });
  app.setNotFoundHandler((_req, reply) => sendError(reply, 404, 'not_found'));

  /** The api-facing routes require the shared secret. */
  const requireSecret = async (req: FastifyRequest, reply: FastifyReply) => {
    if (!secretOk(req.headers[HOST_SECRET_HEADER], config.sharedSecret)) return sendError(reply, 401, 'unauthorized');
  };

  app.get(
    '/health',
    {
      schema: {
        querystring: noQuery,
        response: {
          200: {
            type: 'object',
            properties: {
              status: { type: 'string' },
              hostId: { type: 'string' },
              state: { type: 'string' },
              registered: { type: 'boolean' },
              apiState: { type: ['string', 'null'] },
              capacity: { type: 'number' },
              activeSessions: { type: 'number' },
              warm: { type: 'number' },
              launching: { type: 'number' },
            },
          },
        },
      },
    },
    async () => {
      const st = pool.stats();
      return {
        status: 'ok',
        hostId: config.hostId,
        state,
        registered: registry?.registered ?? false,
        apiState: registry?.apiState ?? null,
        capacity: config.capacity,
        activeSessions: sessions.activeCount,
        warm: st.warm,
        launching: st.launching,
      };
    },
  );

  app.post<{ Body: StartSessionRequest }>(
    '/sessions',
    {
      onRequest: requireSecret,
      schema: {
        querystring: noQuery,
        body: startSessionSchema,
        response: {
          202: { type: 'object', properties: { status: { type: 'string' }, sessionId: { type: 'string' }, state: { type: 'string' } } },
          ...errorResponses,
        },
      },
    },
    async (req, reply) => {
      if (state !== 'running') return sendError(reply, 503, 'shutting_down');
      if (req.body.provider && req.body.provider !== 'webrtc') return sendError(reply, 400, 'invalid_request');
      try {
        const r = sessions.start(req.body);
        if (r === 'ended') return sendError(reply, 409, 'session_ended');
        return reply.code(202).send({ status: 'ok', sessionId: req.body.sessionId, state: sessions.get(req.body.sessionId)?.state ?? 'starting' });
      } catch (e) {
        if (e instanceof NoCapacityError) return sendError(reply, 503, 'no_capacity');
        throw e;
      }
    },
  );

  app.delete<{ Params: { sessionId: string }; Querystring: { reason?: string } }>(
    '/sessions/:sessionId',
    {
      onRequest: requireSecret,
      schema: {
        params: sessionParams,
        querystring: {
          type: 'object',
          additionalProperties: true,
          properties: { reason: { type: 'string', pattern: '^[a-z0-9_]{1,64}$' } },
        },
        response: { 200: { type: 'object', properties: { status: { type: 'string' }, state: { type: 'string' } } }, ...errorResponses },
      },
    },
    async (req, reply) => {
      const s = sessions.get(req.params.sessionId);
      if (!s) return sendError(reply, 404, 'session_not_found');
      const reason = req.query.reason ?? 'user';
      const done = sessions.end(s.id, { bye: byeForApiReason(reason), reason: (API_CLOSE_REASONS as readonly string[]).includes(reason) ? reason : 'api' });
      // answer when the runtime is gone, or after 4 s (the api waits at most 5 s); it goes on
      await Promise.race([done, new Promise((r) => setTimeout(r, 4000))]);
      return { status: 'ok', state: s.state };
    },
  );

  app.get(
    '/sessions',
    {
      onRequest: requireSecret,
      schema: {
        querystring: noQuery,
        response: {
          200: {
            type: 'object',
            properties: {
              status: { type: 'string' },
              sessions: { type: 'array', items: { type: 'object', properties: { sessionId: { type: 'string' }, gameId: { type: 'string' }, state: { type: 'string' } } } },
              pool: poolSchema,
              chromiumProcesses: { type: 'number' },
            },
          },
          ...errorResponses,
        },
      },
    },
    async () => ({ status: 'ok', sessions: sessions.list(), pool: pool.stats(), chromiumProcesses: chromiumProcs().length }),
  );

  app.get<{ Params: { sessionId: string } }>(
    '/sessions/:sessionId',
    {
      onRequest: requireSecret,
      schema: {
        params: sessionParams,
        querystring: noQuery,
        response: { 200: { type: 'object', properties: { status: { type: 'string' }, session: sessionInfoSchema } }, ...errorResponses },
      },
    },
    async (req, reply) => {
      const info = await sessions.info(req.params.sessionId);
      if (!info) return sendError(reply, 404, 'session_not_found');
      return { status: 'ok', session: info };
    },
  );

  let shuttingDown: Promise<void> | null = null;

  const agent: HostAgent = {
    config,
    app,
    pool,
    sessions,
    get registry() {
      return registry;
    },
    api,
    pageOrigin: () => {
      if (!pageServer) throw new Error('not started');
      return pageServer.origin;
    },
    url: () => baseUrl,
    state: () => state,
    async start() {
      if (!fs.existsSync(path.join(config.runtimeDir, 'index.html'))) {
        log('info', `the VN runtime is not built in ${config.runtimeDir}: building it`);
        await buildRuntime({ outDir: config.runtimeDir, quiet: true });
      }
      const swept = await sweepStaleRuntimes(config.tmpDir);
      if (swept.length) log('warn', `removed ${swept.length} runtime profiles (and their processes) left by an agent that died`);
      pageServer = await startPageServer({ runtimeDir: config.runtimeDir, gamesDirs: config.gamesDirs, port: config.pagePort });
      if (config.prewarm) pool.runtimeOptions.prewarm = buildPrewarmPlan(config.runtimeDir, config.gamesDirs);
      await app.listen({ host: config.host, port: config.port });
      const address = app.server.address();
      const port = typeof address === 'object' && address ? address.port : config.port;
      baseUrl = config.publicUrl ?? `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
      pool.start();
      state = 'running';
      if (api) {
        registry = new Registry(
          api,
          {
            url: baseUrl,
            capacity: config.capacity,
            warm: () => pool.stats().warm,
            sessionIds: () => sessions.ids(),
            reconcile: (live) => sessions.reconcile(live),
          },
          config.timings.heartbeatMs,
          log,
        );
        registry.start();
      }
      log('info', `listening on ${baseUrl} (pages ${pageServer.origin}); capacity ${config.capacity}, warm ${config.warm}`);
    },
    shutdown() {
      shuttingDown ??= (async () => {
        state = 'shutting_down';
        sessions.stopAccepting();
        // tell the api (no new sessions come) and end the sessions (save, bye, kill) meanwhile;
        // whatever is not done after SHUTDOWN_GRACE_MS (an api that hangs) is killed anyway
        await Promise.race([
          Promise.all([registry?.shutdown(), sessions.endAll('host_shutdown', 'host_shutdown')]),
          new Promise((r) => setTimeout(r, SHUTDOWN_GRACE_MS).unref()),
        ]);
        await pool.close();
        await app.close().catch(() => undefined);
        await pageServer?.close().catch(() => undefined);
        state = 'stopped';
      })();
      return shuttingDown;
    },
  };
  return agent;
}
