/**
 * Errors of the sandbox's HTTP API, in Stripe's shape: `{ "error": { type, code, message, … } }`
 * with Stripe's statuses (400 invalid request, 401 bad key, 402 card refused, 404 unknown
 * object, 409 idempotency conflict). Card errors carry the Japanese message the form shows.
 */
import type { PaymentFailure } from '../processor';
import type { WireError } from './wire';

export class SandboxError extends Error {
  constructor(
    readonly statusCode: number,
    readonly wire: WireError,
  ) {
    super(wire.message);
    this.name = 'SandboxError';
  }
}

export function invalidRequest(message: string, param?: string, code = 'parameter_invalid'): SandboxError {
  return new SandboxError(400, { type: 'invalid_request_error', code, message, ...(param ? { param } : {}) });
}

export function notFound(kind: string, id: string): SandboxError {
  return new SandboxError(404, { type: 'invalid_request_error', code: 'resource_missing', message: `No such ${kind}: '${id}'` });
}

export function cardError(failure: PaymentFailure): SandboxError {
  return new SandboxError(402, { type: 'card_error', ...wireFailure(failure) });
}

export function wireFailure(failure: PaymentFailure): Omit<WireError, 'type'> & { code: string } {
  return { code: failure.code, ...(failure.declineCode ? { decline_code: failure.declineCode } : {}), message: failure.message };
}
