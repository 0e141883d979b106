/**
 * What our servers write about a request, without its secrets. Credentials that travel in a URL
 * (the signalling WebSocket's `?token=`, a sign-in link's `oobCode`) would otherwise reach the log
 * with `req.url`; headers that carry them (authorization, cookies, our shared secrets) are
 * censored by pino's redact paths; error messages and stacks go through `redactText` (a URL with a
 * token, a bearer, a JWT in an error's text). Every Fastify server of ours logs through
 * `requestLogOptions()` (the api in app.ts, the game host in server/host/logging.ts), and Sentry's
 * events are scrubbed with the same lists (server/shared/sentry.ts) (issue 10: no secret in a log).
 * docs/operations.md lists the log fields.
 */
import type { FastifyServerOptions } from 'fastify';
import { HOST_SECRET_HEADER } from './host-contract';

/** Query parameters whose value is a credential. */
const SECRET_PARAMS = /^(?:token|signaltoken|access_token|id_token|oobcode|apikey|key|secret|signature|sig|code)$/i;

/** Headers whose value is a credential (lower case): censored in logs and in Sentry events. */
export const SECRET_HEADERS: readonly string[] = [
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  HOST_SECRET_HEADER,
  'x-internal-token',
  'x-api-key',
  'x-metrics-token',
];

/** True for a query parameter name whose value is a credential. */
export function isSecretParam(name: string): boolean {
  return SECRET_PARAMS.test(name);
}

/** `url` with the value of every credential query parameter replaced by `***`. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const query = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq < 0 ? pair : pair.slice(0, eq);
      let decoded = name;
      try {
        decoded = decodeURIComponent(name);
      } catch {
        /* keep the raw name */
      }
      return eq >= 0 && SECRET_PARAMS.test(decoded) ? `${name}=***` : pair;
    })
    .join('&');
  return `${url.slice(0, q)}?${query}`;
}

const TEXT_PARAM = /([?&](?:token|signaltoken|access_token|id_token|oobcode|apikey|key|secret|signature|sig|code)=)[^&\s"'<>#]+/gi;
const TEXT_BEARER = /\b(Bearer|Basic)\s+[A-Za-z0-9\-._~+/]+=*/g;
/** A JSON Web Token (Firebase ID tokens, signal tokens): three base64url parts, the first `{"…`. */
const TEXT_JWT = /\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*/g;

/**
 * Free text (an error message, a stack, a log line) without credentials: query values of the
 * credential parameters in any URL it quotes, bearer/basic credentials and anything shaped like a
 * JWT become `***`.
 */
export function redactText(text: string): string {
  return text.replace(TEXT_PARAM, '$1***').replace(TEXT_BEARER, '$1 ***').replace(TEXT_JWT, '***');
}

interface LoggedRequest {
  method: string;
  url: string;
  hostname?: string;
  ip?: string;
  socket?: { remotePort?: number };
  headers?: Record<string, unknown>;
}

interface LoggedError {
  [key: string]: unknown;
  type: string;
  message: string;
  stack: string;
  code?: unknown;
  statusCode?: unknown;
  validation?: unknown;
  cause?: LoggedError;
}

/** pino's `err` serializer, with message, stack and cause chain passed through `redactText`. */
export function serializeError(error: unknown, depth = 0): LoggedError {
  if (!(error instanceof Error)) return { type: typeof error, message: redactText(String(error)), stack: '' };
  const { code, statusCode, validation } = error as Error & { code?: unknown; statusCode?: unknown; validation?: unknown };
  const out: LoggedError = { type: error.constructor?.name ?? error.name, message: redactText(error.message), stack: redactText(error.stack ?? '') };
  if (code !== undefined) out.code = code;
  if (statusCode !== undefined) out.statusCode = statusCode;
  if (validation !== undefined) out.validation = validation;
  if (error.cause !== undefined && depth < 3) out.cause = serializeError(error.cause, depth + 1);
  return out;
}

/**
 * Fastify's logger option: JSON at `level`, request URLs without credentials, secret headers
 * censored, errors and messages redacted. `base` replaces pino's base fields (pid, hostname) when given.
 */
export function requestLogOptions(level: string, base?: Record<string, unknown>): NonNullable<FastifyServerOptions['logger']> {
  return {
    level,
    ...(base ? { base } : {}),
    redact: {
      paths: SECRET_HEADERS.map((name) => `req.headers["${name}"]`),
      censor: '***',
    },
    // messages too (Fastify logs a failed request with the error's message as `msg`)
    hooks: {
      logMethod(args: unknown[], method: (...a: unknown[]) => void) {
        method.apply(this, args.map((arg) => (typeof arg === 'string' ? redactText(arg) : arg)));
      },
    },
    serializers: {
      req(request: LoggedRequest) {
        return {
          method: request.method,
          url: redactUrl(request.url),
          hostname: request.hostname,
          remoteAddress: request.ip,
          remotePort: request.socket?.remotePort,
          headers: request.headers,
        };
      },
      err: (error: unknown) => serializeError(error),
    },
  };
}
