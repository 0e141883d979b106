/**
 * What our servers write about a request, without its secrets. Credentials that travel in a URL
 * (the signalling WebSocket's `?token=`, a sign-in link's `oobCode`) would otherwise reach the log
 * with `req.url`; headers that carry them (authorization, cookies, our shared secrets) are
 * censored by pino's redact paths. Every Fastify server of ours logs requests through
 * `requestLogOptions()` (issue 10: no secret in a log).
 */
import type { FastifyServerOptions } from 'fastify';
import { HOST_SECRET_HEADER } from './host-contract';

/** Query parameters whose value is a credential. */
const SECRET_PARAMS = /^(?:token|signaltoken|access_token|id_token|oobcode|apikey|key|secret|signature|sig|code)$/i;

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

interface LoggedRequest {
  method: string;
  url: string;
  hostname?: string;
  ip?: string;
  socket?: { remotePort?: number };
  headers?: Record<string, unknown>;
}

/** Fastify's logger option: JSON at `level`, request URLs without credentials, secret headers censored. */
export function requestLogOptions(level: string): NonNullable<FastifyServerOptions['logger']> {
  return {
    level,
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', `req.headers["${HOST_SECRET_HEADER}"]`, 'req.headers["x-internal-token"]'],
      censor: '***',
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
    },
  };
}
