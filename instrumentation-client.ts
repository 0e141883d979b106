/**
 * The browser's error reporting (spec sections 8 and 9), loaded only when it can report.
 *
 * With no DSN (local mode, tests) the Sentry SDK is not in the page at all: its ~40 kB gzip
 * were the largest piece of every public page's first load (issue 12, docs/web-performance.md).
 * With a DSN it loads as its own chunk once the page is idle, and the errors thrown before
 * that are kept (window `error` / `unhandledrejection`) and reported when it is up, so an
 * early crash is not lost.
 */
import { sentryOptions, SENTRY_LINKED_ERROR_DEPTH } from '@/lib/sentry/options';

const dsn = process.env.NEXT_PUBLIC_SENTRY_DSN;

/** How many early errors are kept until the SDK is up (a crash loop must not fill memory). */
const EARLY_ERRORS_KEPT = 20;

if (dsn && typeof window !== 'undefined') {
  const early: unknown[] = [];
  const keep = (e: unknown) => {
    if (early.length < EARLY_ERRORS_KEPT) early.push(e);
  };
  const onError = (ev: ErrorEvent) => keep(ev.error ?? ev.message);
  const onRejection = (ev: PromiseRejectionEvent) => keep(ev.reason);
  window.addEventListener('error', onError);
  window.addEventListener('unhandledrejection', onRejection);

  const load = () =>
    import('@sentry/nextjs').then((Sentry) => {
      Sentry.init({
        ...sentryOptions(dsn),
        integrations: [Sentry.linkedErrorsIntegration({ limit: SENTRY_LINKED_ERROR_DEPTH })],
      });
      window.removeEventListener('error', onError);
      window.removeEventListener('unhandledrejection', onRejection);
      for (const e of early.splice(0)) Sentry.captureException(e);
    });
  const idle = (window as Window & { requestIdleCallback?: (cb: () => void, o?: { timeout: number }) => number }).requestIdleCallback;
  if (idle) idle(() => void load(), { timeout: 4000 });
  else window.setTimeout(() => void load(), 1500);
}
