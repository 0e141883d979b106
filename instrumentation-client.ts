import * as Sentry from '@sentry/nextjs';
import { sentryOptions, SENTRY_LINKED_ERROR_DEPTH } from '@/lib/sentry/options';

const dsn = process.env.NEXT_PUBLIC_SENTRY_DSN;
if (dsn) {
  Sentry.init({
    ...sentryOptions(dsn),
    integrations: [Sentry.linkedErrorsIntegration({ limit: SENTRY_LINKED_ERROR_DEPTH })],
  });
}

export const onRouterTransitionStart = Sentry.captureRouterTransitionStart;
