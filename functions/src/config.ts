/**
 * Where the functions run and how they reach our api, one place.
 *
 * - FUNCTIONS_REGION (region.ts): where every function runs; the browser names the same one.
 * - API_INTERNAL_URL: the api's base URL as seen from the function (the local stack sets it to
 *   the api it started; in production the api's internal address).
 * - INTERNAL_API_TOKEN: the api's shared secret for internal callers (≥ 32 characters), sent as
 *   `x-internal-token`. Locally the stack generates one per run and gives it to the api and to
 *   the Functions emulator's environment; in production it is a Secret Manager secret bound to
 *   the function (see `secrets` in payment/invokePaymentRequest.ts).
 *
 * Read at call time, not at import: the emulator's discovery step loads this module without the
 * stack's environment, and a missing value must be a clear error on the call, not a crash.
 */
import * as logger from 'firebase-functions/logger';
import { HttpsError } from 'firebase-functions/v2/https';
import { MESSAGES } from './messages';

export { FUNCTIONS_REGION } from './region';

/** True inside the Firebase emulator (it sets FUNCTIONS_EMULATOR=true for discovery and calls). */
export const IN_EMULATOR = process.env.FUNCTIONS_EMULATOR === 'true';

const MIN_TOKEN_LENGTH = 32;

export interface ApiTarget {
  /** e.g. "http://127.0.0.1:8080", without a trailing slash. */
  baseUrl: string;
  token: string;
}

/** The api's address and token, or HttpsError('internal') (logged) when they are not set up. */
export function apiTarget(env: Record<string, string | undefined> = process.env): ApiTarget {
  const rawUrl = env.API_INTERNAL_URL?.trim();
  const token = env.INTERNAL_API_TOKEN?.trim();
  let baseUrl: string | undefined;
  try {
    const url = rawUrl ? new URL(rawUrl) : undefined;
    if (url && (url.protocol === 'http:' || url.protocol === 'https:')) baseUrl = url.toString().replace(/\/+$/, '');
  } catch {
    baseUrl = undefined;
  }
  if (!baseUrl || !token || token.length < MIN_TOKEN_LENGTH) {
    logger.error('functions are not configured: set API_INTERNAL_URL (http(s) URL) and INTERNAL_API_TOKEN (≥ 32 characters)', {
      apiInternalUrl: baseUrl ? 'set' : rawUrl ? 'invalid' : 'missing',
      internalApiToken: token ? (token.length < MIN_TOKEN_LENGTH ? 'too short' : 'set') : 'missing',
    });
    throw new HttpsError('internal', MESSAGES.internal);
  }
  return { baseUrl, token };
}
