/**
 * Constant-time comparison of a presented secret (a header value) with the configured one, for
 * every shared-secret check on our servers (the api's internal routes, the claims setter, the
 * game host's routes). Digests are compared, so neither the content nor the length leaks.
 */
import { createHash, timingSafeEqual } from 'node:crypto';

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/** True when `given` is a string equal to `expected`; false for anything else (absent, array…). */
export function secretMatches(given: unknown, expected: string): boolean {
  if (typeof given !== 'string') return false;
  return timingSafeEqual(digest(given), digest(expected));
}
