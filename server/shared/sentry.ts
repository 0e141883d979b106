/**
 * Sentry on our servers (the api and the game host), with the web's DSN rule: reporting is on
 * only when a DSN is set (`SENTRY_DSN`, else `NEXT_PUBLIC_SENTRY_DSN`, as the web's server side
 * reads it in instrumentation.ts); without one nothing is initialised and `@sentry/node` is not
 * even loaded (local runs and tests stay silent). Errors only (no tracing): 5xx answers of the
 * Fastify apps (`sentryErrorCapture`), uncaught exceptions and unhandled rejections.
 *
 * No secret leaves: the SDK is told to collect no bodies, cookies, local variables or secret
 * headers (`dataCollection`), and `scrubEvent` (beforeSend) and `scrubBreadcrumb` run every event
 * through the log's redaction (server/shared/logging.ts) as the last line of defence: secret
 * headers and credential-named fields become `***`, URLs lose their credential query values, and
 * free text loses bearers and JWTs. docs/operations.md "Sentry".
 */
import type { Breadcrumb, ErrorEvent, Event, NodeOptions } from '@sentry/node';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { envString, type Env } from './env';
import { isSecretParam, redactText, redactUrl, SECRET_HEADERS } from './logging';

type SentryModule = typeof import('@sentry/node');

/** The web's constants (lib/sentry/options.ts; server code may not import it). */
export const SENTRY_MAX_VALUE_LENGTH = 250;
export const SENTRY_TRANSPORT_BUFFER = 30;

/** The DSN, as the web's server runtime reads it; undefined (Sentry off) when neither is set. */
export function sentryDsn(env: Env = process.env): string | undefined {
  return envString(env.SENTRY_DSN) ?? envString(env.NEXT_PUBLIC_SENTRY_DSN);
}

const SECRET_KEYS = new Set([
  ...SECRET_HEADERS,
  'password',
  'passwd',
  'secret',
  'token',
  'idtoken',
  'id_token',
  'signaltoken',
  'signal_token',
  'webrtc_signal_token',
  'hosttoken',
  'refreshtoken',
  'refresh_token',
  'access_token',
  'private_key',
  'sharedsecret',
  'internaltoken',
]);

function isSecretKey(key: string): boolean {
  const k = key.toLowerCase();
  return SECRET_KEYS.has(k) || isSecretParam(k);
}

/** Any value with its credentials censored: secret-named keys → `***`, strings → redactText. */
export function scrubValue(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redactText(value);
  if (value === null || typeof value !== 'object' || depth > 8) return value;
  if (Array.isArray(value)) {
    // [name, value] pairs (query strings, header lists)
    if (value.length === 2 && typeof value[0] === 'string' && isSecretKey(value[0])) return [value[0], '***'];
    return value.map((item) => scrubValue(item, depth + 1));
  }
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[key] = isSecretKey(key) ? '***' : scrubValue(item, depth + 1);
  return out;
}

/** beforeSend: the event without request bodies, cookies, secret headers, credentials in URLs or text. */
export function scrubEvent<T extends Event>(event: T): T {
  if (event.request) {
    const { url, query_string: query, headers, method } = event.request;
    const request: NonNullable<Event['request']> = { method };
    if (url) request.url = redactUrl(url);
    if (typeof query === 'string') request.query_string = redactUrl(`?${query}`).slice(1);
    else if (query) request.query_string = scrubValue(query) as typeof query;
    if (headers) request.headers = scrubValue(headers) as Record<string, string>;
    // data (the body), cookies and env are dropped
    event.request = request;
  }
  if (event.message) event.message = redactText(event.message);
  if (event.logentry?.message) event.logentry.message = redactText(event.logentry.message);
  if (event.logentry?.params) event.logentry.params = scrubValue(event.logentry.params) as unknown[];
  for (const exception of event.exception?.values ?? []) {
    if (exception.value) exception.value = redactText(exception.value);
    for (const frame of exception.stacktrace?.frames ?? []) delete frame.vars;
  }
  if (event.breadcrumbs) event.breadcrumbs = event.breadcrumbs.map((b) => scrubBreadcrumb(b));
  if (event.extra) event.extra = scrubValue(event.extra) as typeof event.extra;
  if (event.contexts) event.contexts = scrubValue(event.contexts) as typeof event.contexts;
  if (event.tags) event.tags = scrubValue(event.tags) as typeof event.tags;
  if (event.user) event.user = event.user.id === undefined ? {} : { id: event.user.id };
  return event;
}

/** beforeBreadcrumb: URLs and messages without credentials, data scrubbed. */
export function scrubBreadcrumb(breadcrumb: Breadcrumb): Breadcrumb {
  const out: Breadcrumb = { ...breadcrumb };
  if (out.message) out.message = redactText(out.message);
  if (out.data) {
    const data = scrubValue(out.data) as Record<string, unknown>;
    for (const key of ['url', 'to', 'from']) if (typeof data[key] === 'string') data[key] = redactUrl(data[key] as string);
    out.data = data;
  }
  return out;
}

export interface SentryInit {
  /** The DSN; undefined or blank: Sentry stays off (the usual local case). */
  dsn: string | undefined;
  /** `api` or `host`: the `service` tag of every event. */
  service: string;
  /** Extra tags (e.g. the host id). */
  tags?: Record<string, string>;
  /**
   * Keep the SDK's own uncaught-exception handler (default true). The host's main.ts handles
   * uncaught exceptions itself (kills every runtime, captures, flushes, exits) and turns it off.
   */
  uncaughtHandler?: boolean;
  /** A transport (tests capture envelopes with one); default: the SDK's HTTPS transport. */
  transport?: NodeOptions['transport'];
}

/** The SDK options for a server: errors only, nothing secret collected, every event scrubbed. */
export function sentryServerOptions(init: SentryInit, sdk: Pick<SentryModule, 'httpIntegration'>): NodeOptions {
  return {
    dsn: init.dsn,
    enabled: true,
    // errors only: no module load hooks for span instrumentation
    enableRuntimeChannelInjection: false,
    maxValueLength: SENTRY_MAX_VALUE_LENGTH,
    transportOptions: { bufferSize: SENTRY_TRANSPORT_BUFFER },
    ...(init.transport ? { transport: init.transport } : {}),
    initialScope: { tags: { service: init.service, ...init.tags } },
    dataCollection: {
      userInfo: false,
      cookies: false,
      httpHeaders: { request: { deny: [...SECRET_HEADERS] }, response: false },
      httpBodies: [],
      urlQueryParams: { deny: ['token', 'signalToken', 'access_token', 'id_token', 'oobCode', 'apiKey', 'key', 'secret', 'signature', 'sig', 'code'] },
      stackFrameVariables: false,
      databaseQueryData: false,
    },
    integrations: (defaults) => [
      // LocalVariables could carry a token; our plugin captures Fastify's 5xx itself.
      ...defaults.filter(
        (i) => !['LocalVariables', 'Fastify', 'Http', ...(init.uncaughtHandler === false ? ['OnUncaughtException'] : [])].includes(i.name),
      ),
      sdk.httpIntegration({ maxRequestBodySize: 'none', spans: false }),
    ],
    beforeSend: (event: ErrorEvent) => scrubEvent(event),
    beforeBreadcrumb: (breadcrumb: Breadcrumb) => scrubBreadcrumb(breadcrumb),
  };
}

let sdk: SentryModule | null = null;

/**
 * Initialises Sentry once per process when `init.dsn` is set; resolves true when Sentry is on.
 * Without a DSN it does nothing at all (no SDK loaded, nothing sent).
 */
export async function initSentry(init: SentryInit): Promise<boolean> {
  if (sdk) return true;
  if (!envString(init.dsn)) return false;
  const loaded = (await import('@sentry/node')) as SentryModule;
  loaded.init(sentryServerOptions(init, loaded));
  sdk = loaded;
  return true;
}

/** Whether Sentry is on in this process. */
export function sentryEnabled(): boolean {
  return sdk !== null;
}

/** Reports an error (no-op when Sentry is off), with request facts as tags (route, never the query). */
export function captureServerError(error: unknown, context: { method?: string; route?: string; statusCode?: number } = {}): void {
  if (!sdk) return;
  const s = sdk;
  s.withScope((scope) => {
    if (context.method) scope.setTag('method', context.method);
    if (context.route) scope.setTag('route', context.route);
    if (context.statusCode) scope.setTag('status_code', String(context.statusCode));
    s.captureException(error);
  });
}

/** Sends what is queued (at exit); resolves at once when Sentry is off. */
export async function flushSentry(timeoutMs = 2000): Promise<void> {
  if (sdk) await sdk.flush(timeoutMs).catch(() => false);
}

/**
 * Fastify plugin: every answer with a 5xx status (except 503, an outage the metrics and the
 * readiness probe show, not a bug) reports the error that caused it. The error is taken in
 * `onError` (before the app's error handler turns it into the envelope) and reported in
 * `onResponse`, when the status is known. A no-op while Sentry is off.
 */
async function sentryErrorCapturePlugin(app: FastifyInstance): Promise<void> {
  const errors = new WeakMap<FastifyRequest, Error>();
  app.addHook('onError', async (request, _reply, error) => {
    if (sdk) errors.set(request, error);
  });
  app.addHook('onResponse', async (request, reply) => {
    if (!sdk || reply.statusCode < 500 || reply.statusCode === 503) return;
    const error = errors.get(request) ?? new Error(`HTTP ${reply.statusCode} without an error`);
    captureServerError(error, { method: request.method, route: request.routeOptions.url ?? 'unmatched', statusCode: reply.statusCode });
  });
}

export const sentryErrorCapture = fp(sentryErrorCapturePlugin, { name: 'yumecast-sentry-errors', fastify: '5.x' });
