/**
 * Turns every failure into the one error format: unknown routes (404), a method a route does not
 * have (405 with `Allow`), schema validation, body parser errors (too large, bad JSON, wrong
 * content type), ApiError thrown by routes and hooks, the database going away, and bugs.
 * Messages are the Japanese texts of lib/api-types/errors.ts; the cause (stack, SQL error, ajv
 * message) goes to the log only. It also registers the error envelope's schema (routes refer to
 * it through server/api/schemas.ts `errorResponses`) and applies the one path-parameter rule
 * (`config.notFound`, below).
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { ApiErrorCode } from '../../../lib/api-types/errors';
import { ApiErrorSchema } from '../../../lib/api-types/schemas/common';
import { isDatabaseUnavailable } from '../db/pool';
import { frameworkErrorCode, validationMessage } from '../../shared/errors';
import { ApiError, ERROR_HTTP_STATUS, errorBody } from '../errors';

/** The typed 404 codes (`not_found`, `session_not_found`, …). */
export type NotFoundCode = Extract<ApiErrorCode, 'not_found' | `${string}_not_found`>;

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The typed 404 a malformed path parameter answers on this route (e.g. session_not_found),
     * the same as an unknown id: a caller learns nothing from an id's shape. Without it, a bad
     * path parameter is a 400 invalid_request like any other schema violation.
     */
    notFound?: NotFoundCode;
  }
}

/**
 * OPTIONS is @fastify/cors's preflight route on every path (`OPTIONS *`): it says nothing about
 * which methods a path has, so it is neither probed nor listed in `Allow`.
 */
const PREFLIGHT_METHOD = 'OPTIONS';

/**
 * The methods the router has a route for at this request's path (sorted), for the 405's `Allow`;
 * empty when none (an unknown path: 404). Fastify's own router decides, through `findRoute`
 * (find-my-way's lookup of a concrete path, the one that routed the request), for every method
 * some route uses (`methods`, gathered at onRoute; the automatic HEAD of a GET route included).
 */
function allowedMethods(app: FastifyInstance, methods: ReadonlySet<string>, request: FastifyRequest): string[] {
  const url = request.raw.url ?? request.url;
  // The router answers a path that does not percent-decode with its bad-URL handler, as if it
  // were a route. Such a path reaches this handler only when no route uses the request's
  // method (else the router refused it with 400): it stays a 404.
  try {
    decodeURI(url.split(/[?#]/, 1)[0]);
  } catch {
    return [];
  }
  const routed = (method: string) => app.findRoute({ method, url }) !== null;
  // A route of this very method that sent its request here (reply.callNotFound) means "no such thing".
  if (routed(request.method)) return [];
  return [...methods].filter(routed).sort();
}

async function errorsPlugin(app: FastifyInstance): Promise<void> {
  app.addSchema(ApiErrorSchema);

  // Every method a route is registered with (this plugin comes before every route group).
  const routeMethods = new Set<string>();
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) if (method !== PREFLIGHT_METHOD) routeMethods.add(method);
  });

  // No route for this method and path. If the path has routes for other methods, the method is
  // the mistake: 405 method_not_allowed with `Allow` (RFC 9110 15.5.6); else 404 not_found. The
  // hooks of an unknown route run as for a 404 (public rate limit, security headers, CORS).
  app.setNotFoundHandler(async (request: FastifyRequest, reply: FastifyReply) => {
    const allow = allowedMethods(app, routeMethods, request);
    if (allow.length > 0) {
      request.log.info({ method: request.method, url: request.url, allow }, 'method not allowed');
      return reply.code(405).header('allow', allow.join(', ')).send(errorBody('method_not_allowed'));
    }
    request.log.info({ method: request.method, url: request.url }, 'route not found');
    return reply.code(404).send(errorBody('not_found'));
  });

  app.setErrorHandler(async (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const { code, message } = classify(error, request);
    const statusCode = ERROR_HTTP_STATUS[code];
    if (statusCode >= 500) {
      request.log.error({ err: error, code }, 'request failed');
    } else {
      // The cause says why (e.g. firebase-admin's "incorrect aud claim"); the message is for users.
      const cause = error.cause instanceof Error ? error.cause.message : undefined;
      request.log.info({ code, reason: cause ?? error.message, validation: error.validation }, 'request rejected');
    }
    if (statusCode === 401) {
      // RFC 6750: tell the client which scheme is expected.
      void reply.header('www-authenticate', 'Bearer realm="yumecast"');
    }
    return reply.code(statusCode).send(errorBody(code, message));
  });
}

function classify(error: FastifyError, request: FastifyRequest): { code: ApiErrorCode; message?: string } {
  if (error instanceof ApiError) return { code: error.code, message: error.message };
  if (error.validation) {
    // Fastify validates params first, so a bad path parameter is reported before anything else.
    const notFound = request.routeOptions.config.notFound;
    if (notFound && error.validationContext === 'params') return { code: notFound };
    return { code: 'invalid_request', message: validationMessage(error) };
  }
  if (isDatabaseUnavailable(error)) return { code: 'service_unavailable' };
  // Errors Fastify or a plugin raised itself (too large, bad JSON, bad content type, ...).
  return { code: frameworkErrorCode(error) };
}

export default fp(errorsPlugin, { name: 'yumecast-errors', fastify: '5.x' });
