/**
 * The sandbox payment processor as a server: `startSandbox(options)` migrates its schema, starts
 * the Fastify app (the /v1 API with a secret key, the hosted pages on its own origin), the
 * webhook deliverer and the ticker that runs renewals falling due on the real clock, and listens
 * on loopback. The stack scripts call it (or run main.ts); tests call it with their own schema,
 * port 0 and fast retries. Logs redact keys, signatures, client secrets and anything card-like:
 * card details never reach a log line, even when a request is malformed.
 */
import Fastify, { type FastifyError, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { BillingContext } from './charges';
import { SandboxClock } from './clock';
import { loadSandboxConfig, normaliseOrigin, validateSandboxConfig, type SandboxConfig } from './config';
import { createSandboxPool, migrateSandbox, type Db } from './db';
import { SandboxError } from './errors';
import { WebhookDeliverer } from './events';
import { runDue } from './renewals';
import apiRoutes from './routes/api';
import hostedRoutes from './routes/hosted';
import testHelperRoutes from './routes/testHelpers';

export interface StartSandboxOptions extends Partial<SandboxConfig> {
  /** Fastify logger option (default: JSON at config.logLevel to stdout, redacted). */
  logger?: FastifyServerOptions['logger'];
  /** Where the default logger writes (tests capture it to search it). */
  logStream?: NodeJS.WritableStream;
}

export interface RunningSandbox {
  /** The public origin, e.g. http://127.0.0.1:8300 (API base, card form and 3-D Secure pages). */
  url: string;
  port: number;
  config: SandboxConfig;
  app: FastifyInstance;
  pool: Db;
  /** Stops the ticker, the deliverer, the server and the pool. Idempotent. */
  stop(): Promise<void>;
}

/** Paths pino replaces with "[redacted]" wherever they appear in a log object. */
const REDACT = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["stripe-signature"]',
  'req.headers["idempotency-key"]',
  'body',
  'card',
  'number',
  'cvc',
  'client_secret',
  '*.card',
  '*.number',
  '*.cvc',
  '*.client_secret',
];

export function sandboxLoggerOptions(level: string, stream?: NodeJS.WritableStream): FastifyServerOptions['logger'] {
  return {
    level,
    ...(stream ? { stream } : {}),
    redact: { paths: REDACT, censor: '[redacted]' },
    serializers: {
      // The query string may hold a client secret: log the path only.
      req: (req: { method: string; url: string }) => ({ method: req.method, url: req.url.split('?')[0] }),
    },
  };
}

export async function startSandbox(options: StartSandboxOptions = {}): Promise<RunningSandbox> {
  const { logger, logStream, ...overrides } = options;
  const config: SandboxConfig = { ...loadSandboxConfig(), ...overrides };
  config.allowedOrigins = config.allowedOrigins.map(normaliseOrigin);
  validateSandboxConfig(config);

  const pool = createSandboxPool(config.databaseUrl, config.schema);
  let app: FastifyInstance | undefined;
  try {
    await migrateSandbox(pool, config.schema);
    const clock = new SandboxClock(pool);
    await clock.load();

    app = Fastify({
      logger: logger ?? sandboxLoggerOptions(config.logLevel, logStream),
      bodyLimit: 16 * 1024,
      requestTimeout: 30_000,
      ajv: { customOptions: { removeAdditional: false, coerceTypes: false } },
    });
    const deliverer = new WebhookDeliverer({
      pool,
      secret: config.webhookSecret,
      baseDelayMs: config.webhookRetryBaseMs,
      maxDelayMs: config.webhookRetryMaxDelayMs,
      maxAttempts: config.webhookMaxAttempts,
      log: app.log,
    });
    const ctx: BillingContext = {
      pool,
      schema: config.schema,
      clock,
      urls: { publicUrl: config.publicUrl ? normaliseOrigin(config.publicUrl) : '' },
      sink: { webhookUrl: config.webhookUrl },
      retryScheduleSeconds: config.retryScheduleSeconds,
      incompleteExpirySeconds: config.incompleteExpirySeconds,
      afterCommit: () => deliverer.kick(),
    };

    app.setErrorHandler((error: FastifyError | SandboxError, request, reply) => {
      if (error instanceof SandboxError) return reply.code(error.statusCode).send({ error: error.wire });
      if ((error as FastifyError).validation) {
        return reply.code(400).send({ error: { type: 'invalid_request_error', code: 'parameter_invalid', message: `Invalid request: ${error.message}` } });
      }
      const status = (error as FastifyError).statusCode ?? 500;
      if (status < 500) {
        // Parser errors quote the body they failed on: never echo or log their message.
        request.log.info({ code: (error as FastifyError).code, statusCode: status }, 'request refused');
        return reply.code(status).send({ error: { type: 'invalid_request_error', code: 'request_unreadable', message: 'The request could not be read.' } });
      }
      request.log.error({ code: (error as FastifyError).code, err: { type: error.name, message: error.message, stack: error.stack } }, 'request failed');
      return reply.code(500).send({ error: { type: 'api_error', message: 'An error occurred in the payments sandbox.' } });
    });

    await app.register(apiRoutes, { ctx, config });
    await app.register(testHelperRoutes, { ctx, config });
    await app.register(hostedRoutes, { ctx, config });

    await app.listen({ host: config.host, port: config.port });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    if (!ctx.urls.publicUrl) {
      const host = config.host.includes(':') ? `[${config.host}]` : config.host;
      ctx.urls.publicUrl = `http://${host}:${port}`;
    }

    // Catch up on what fell due while the sandbox was stopped, then keep up with the real clock.
    await runDue(ctx);
    deliverer.start();
    let ticking = false;
    const ticker =
      config.tickMs > 0
        ? setInterval(() => {
            if (ticking) return;
            ticking = true;
            void runDue(ctx)
              .then(() => pool.query(`DELETE FROM idempotency_keys WHERE created_at < now() - interval '24 hours'`))
              .catch((error) => app!.log.warn({ err: error }, 'sandbox tick failed'))
              .finally(() => {
                ticking = false;
              });
          }, config.tickMs)
        : undefined;
    ticker?.unref();

    let stopped: Promise<void> | undefined;
    const running: RunningSandbox = {
      url: ctx.urls.publicUrl,
      port,
      config: { ...config, port, publicUrl: ctx.urls.publicUrl },
      app,
      pool,
      stop: () => {
        stopped ??= (async () => {
          if (ticker) clearInterval(ticker);
          await deliverer.stop();
          await app!.close();
          await pool.end();
        })();
        return stopped;
      },
    };
    app.log.info({ url: running.url, schema: config.schema, webhookUrl: config.webhookUrl ?? null }, 'payments sandbox listening');
    return running;
  } catch (error) {
    await app?.close().catch(() => {});
    await pool.end().catch(() => {});
    throw error;
  }
}
