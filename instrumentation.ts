import * as Sentry from '@sentry/nextjs';
import { sentryOptions, SENTRY_LINKED_ERROR_DEPTH } from '@/lib/sentry/options';

/** Server-side Sentry: only when a DSN is configured. */
export async function register() {
  const dsn = process.env.SENTRY_DSN || process.env.NEXT_PUBLIC_SENTRY_DSN;
  if (!dsn) return;
  Sentry.init({
    ...sentryOptions(dsn),
    integrations: [Sentry.linkedErrorsIntegration({ limit: SENTRY_LINKED_ERROR_DEPTH })],
  });
}

export const onRequestError = Sentry.captureRequestError;
