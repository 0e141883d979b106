import type { FastifyRequest } from 'fastify';
import type { ApiErrorCode } from '../../../lib/api-types/errors';
import { ApiError } from '../errors';

/**
 * For routes with attachValidation: a malformed path parameter answers the same 404 as an
 * unknown id (the caller learns nothing from its shape); other schema errors stay 400.
 */
export function pathParam(request: FastifyRequest, name: string, notFound: ApiErrorCode): string {
  const error = request.validationError;
  if (error) {
    if (error.validationContext === 'params') throw new ApiError(notFound);
    throw error;
  }
  return (request.params as Record<string, string>)[name];
}

/** The params schema of a route with one string path parameter matching `pattern`. */
export function oneParam(name: string, pattern: string): object {
  return {
    type: 'object',
    required: [name],
    additionalProperties: false,
    properties: { [name]: { type: 'string', pattern } },
  };
}
