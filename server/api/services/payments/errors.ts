/**
 * A processor failure (PaymentProcessorError, server/payments/processor.ts) → our typed error:
 * a refused card keeps the processor's Japanese message (server/payments/failures.ts); an
 * unreachable processor is a 503 the page may retry with the same idempotency key; our own
 * misconfiguration (bad key, a Stripe price that does not match the plan) is a 500 whose cause
 * stays in the log.
 */
import { PaymentProcessorError } from '../../../payments';
import { ApiError } from '../../errors';

export const PROCESSOR_UNAVAILABLE = '決済サービスに接続できませんでした。しばらくしてからもう一度お試しください。';

export function fromProcessorError(error: unknown): unknown {
  if (!(error instanceof PaymentProcessorError)) return error;
  switch (error.code) {
    case 'card_error':
      return new ApiError('card_declined', error.failure?.message, { cause: error });
    case 'idempotency_conflict':
      return new ApiError('idempotency_conflict', undefined, { cause: error });
    case 'processor_unavailable':
    case 'rate_limited':
      return new ApiError('service_unavailable', PROCESSOR_UNAVAILABLE, { cause: error });
    case 'not_found':
      return new ApiError('not_found', undefined, { cause: error });
    default:
      return new ApiError('internal', undefined, { cause: error });
  }
}

/** Runs a processor call, turning its failures into typed errors. */
export async function viaProcessor<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw fromProcessorError(error);
  }
}

export function isProcessorNotFound(error: unknown): boolean {
  return error instanceof PaymentProcessorError && error.code === 'not_found';
}
