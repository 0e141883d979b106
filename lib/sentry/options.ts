/**
 * Sentry settings of spec sections 8 and 9, shared by the browser and the server.
 * With no DSN, `enabled` is false and the SDK sends nothing at all.
 */
import type { BrowserOptions } from '@sentry/nextjs';

export const SENTRY_TRACES_SAMPLE_RATE = 0.2;
export const SENTRY_TRANSPORT_BUFFER = 30;
export const SENTRY_MAX_VALUE_LENGTH = 250;
export const SENTRY_LINKED_ERROR_DEPTH = 5;

/** Errors we do not report: network, abort, not-allowed, not-supported, invalid-state, routing and 404. */
export const SENTRY_IGNORE_ERRORS: (string | RegExp)[] = [
  /network ?error/i,
  /failed to fetch/i,
  /load failed/i,
  /networkerror/i,
  /AbortError/,
  /aborted/i,
  /NotAllowedError/,
  /NotSupportedError/,
  /InvalidStateError/,
  /routing exception/,
  /RoutingException/,
  /\b404\b/,
  /not ?found/i,
];

export function sentryOptions(dsn: string | undefined): BrowserOptions {
  const enabled = Boolean(dsn);
  return {
    dsn: enabled ? dsn : undefined,
    enabled,
    tracesSampleRate: SENTRY_TRACES_SAMPLE_RATE,
    maxValueLength: SENTRY_MAX_VALUE_LENGTH,
    transportOptions: { bufferSize: SENTRY_TRANSPORT_BUFFER },
    ignoreErrors: SENTRY_IGNORE_ERRORS,
  };
}
