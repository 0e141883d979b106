/**
 * The agent's answer to every failure, in the api's one error envelope (`{ status: "error",
 * error: { code, message } }`, codes and Japanese messages of lib/api-types/errors.ts, built by
 * server/shared/errors.ts): an ApiError thrown by a route or hook, a schema violation, a body
 * parser error, an unknown route, and bugs (500 internal; the cause goes to the agent's log only).
 * It also registers the envelope's schema, which every route names through `errorResponses`.
 */
import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ApiErrorSchema } from '../../../lib/api-types/schemas/common';
import { ApiError, ERROR_HTTP_STATUS, errorBody, frameworkErrorCode, validationMessage } from '../../shared/errors';

export interface HostErrorsOptions {
  /** The agent's log: bugs are written here. */
  log(level: 'error', msg: string): void;
}

async function hostErrors(app: FastifyInstance, { log }: HostErrorsOptions): Promise<void> {
  app.addSchema(ApiErrorSchema);

  app.setNotFoundHandler(async (_request, reply) => reply.code(404).send(errorBody('not_found')));

  app.setErrorHandler(async (error: FastifyError, _request, reply) => {
    if (error instanceof ApiError) return reply.code(error.statusCode).send(errorBody(error.code, error.message));
    const code = frameworkErrorCode(error);
    if (code === 'internal') log('error', `request failed: ${error.message}`);
    return reply.code(ERROR_HTTP_STATUS[code]).send(errorBody(code, error.validation ? validationMessage(error) : undefined));
  });
}

// fastify-plugin: the handlers apply to the whole agent, routes registered after it included
export default fp(hostErrors, { name: 'yumecast-host-errors', fastify: '5.x' });
