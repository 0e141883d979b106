/**
 * Sentry on the servers (sentry.ts): off without a DSN (nothing initialised, reporting a no-op);
 * the beforeSend scrubber removes every credential (secret headers, body, cookies, token query
 * values, bearers and JWTs in text, local variables); and with a DSN, a Fastify app's 500 is
 * reported with the error behind it while 4xx and 503 are not, and nothing secret reaches the
 * transport (a capturing transport stands in for Sentry's servers).
 */
import Fastify from 'fastify';
import type { ErrorEvent } from '@sentry/node';
import { ApiError } from './errors';
import { captureServerError, flushSentry, initSentry, scrubBreadcrumb, scrubEvent, sentryDsn, sentryEnabled, sentryErrorCapture } from './sentry';

// loading @sentry/node under Jest takes seconds
jest.setTimeout(60_000);

// The SDK hooks the process (beforeExit, uncaughtException, …): they are removed after the
// tests, or they would run after Jest has torn this file's global scope down.
const EVENTS = ['beforeExit', 'exit', 'uncaughtException', 'unhandledRejection'];
const listeners = (event: string): unknown[] => process.listeners(event as 'exit');
const before = new Map(EVENTS.map((event) => [event, listeners(event)]));
afterAll(async () => {
  await (await import('@sentry/node')).close(2000);
  for (const event of EVENTS) {
    for (const listener of listeners(event)) {
      if (!(before.get(event) as unknown[]).includes(listener)) process.removeListener(event, listener as (...args: unknown[]) => void);
    }
  }
});

const JWT = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ1c2VyLTEyMyJ9.SIGNATUREPART123';
const SECRETS = [JWT, 'BEARER-SECRET-1', 'COOKIE-SECRET-2', 'HOST-SECRET-3', 'INTERNAL-SECRET-4', 'SIGNAL-TOKEN-5', 'BODY-SECRET-6', 'LOCALVAR-7'];

test('the DSN follows the web server rule: SENTRY_DSN, else NEXT_PUBLIC_SENTRY_DSN, blank is unset', () => {
  expect(sentryDsn({})).toBeUndefined();
  expect(sentryDsn({ SENTRY_DSN: '  ' })).toBeUndefined();
  expect(sentryDsn({ NEXT_PUBLIC_SENTRY_DSN: 'https://k@o.invalid/2' })).toBe('https://k@o.invalid/2');
  expect(sentryDsn({ SENTRY_DSN: 'https://k@o.invalid/1', NEXT_PUBLIC_SENTRY_DSN: 'https://k@o.invalid/2' })).toBe('https://k@o.invalid/1');
});

test('without a DSN nothing is initialised and reporting does nothing', async () => {
  expect(await initSentry({ dsn: undefined, service: 'api' })).toBe(false);
  expect(await initSentry({ dsn: '', service: 'api' })).toBe(false);
  expect(sentryEnabled()).toBe(false);
  expect(() => captureServerError(new Error('x'))).not.toThrow();
  await flushSentry(10);
  const sdk = await import('@sentry/node');
  expect(sdk.getClient()).toBeUndefined();
  expect(sdk.isInitialized()).toBe(false);
});

test('scrubEvent removes bodies, cookies, secret headers, token query values and credentials in text', () => {
  const event: ErrorEvent = {
    type: undefined,
    message: `failed with Bearer BEARER-SECRET-1`,
    request: {
      method: 'GET',
      url: `http://127.0.0.1:8080/v1/signal?token=SIGNAL-TOKEN-5&x=1`,
      query_string: 'token=SIGNAL-TOKEN-5&x=1',
      data: { password: 'BODY-SECRET-6' },
      cookies: { session: 'COOKIE-SECRET-2' },
      headers: {
        Authorization: 'Bearer BEARER-SECRET-1',
        cookie: 'session=COOKIE-SECRET-2',
        'x-host-secret': 'HOST-SECRET-3',
        'X-Internal-Token': 'INTERNAL-SECRET-4',
        'user-agent': 'jest',
      },
    },
    exception: {
      values: [
        {
          type: 'Error',
          value: `could not verify ${JWT}`,
          stacktrace: { frames: [{ function: 'f', vars: { token: 'LOCALVAR-7' } }] },
        },
      ],
    },
    breadcrumbs: [{ category: 'http', message: `GET /v1/signal?token=SIGNAL-TOKEN-5`, data: { url: `http://h/x?token=SIGNAL-TOKEN-5`, status_code: 101 } }],
    extra: { signalToken: 'SIGNAL-TOKEN-5', nested: { note: `id ${JWT}` } },
    user: { id: 'u1', ip_address: '10.0.0.1', email: 'a@b.c' },
  };
  const out = scrubEvent(event);
  const text = JSON.stringify(out);
  for (const secret of SECRETS) expect(text).not.toContain(secret);
  expect(out.request?.url).toBe('http://127.0.0.1:8080/v1/signal?token=***&x=1');
  expect(out.request?.query_string).toBe('token=***&x=1');
  expect(out.request?.headers?.['user-agent']).toBe('jest');
  expect(out.request?.headers?.Authorization).toBe('***');
  expect(out.request?.data).toBeUndefined();
  expect(out.request?.cookies).toBeUndefined();
  expect(out.user).toEqual({ id: 'u1' });
  expect(out.exception?.values?.[0].value).toBe('could not verify ***');
  expect(scrubBreadcrumb({ message: 'Authorization: Bearer BEARER-SECRET-1' }).message).toBe('Authorization: Bearer ***');
});

test('with a DSN, a 500 is reported with its error and no secret; 4xx and 503 are not', async () => {
  const bodies: string[] = [];
  const { createTransport } = await import('@sentry/node');
  const on = await initSentry({
    dsn: 'https://publickey@o0.ingest.invalid/1',
    service: 'api',
    transport: (options) =>
      createTransport(options, async (request) => {
        bodies.push(typeof request.body === 'string' ? request.body : Buffer.from(request.body).toString('utf8'));
        return { statusCode: 200 };
      }),
  });
  expect(on).toBe(true);
  expect(sentryEnabled()).toBe(true);

  const app = Fastify({ logger: false });
  await app.register(sentryErrorCapture);
  app.get('/boom', async () => {
    throw new Error(`database said no to ${JWT}`);
  });
  app.get('/down', async () => {
    throw new ApiError('service_unavailable');
  });
  app.get('/bad', async () => {
    throw new ApiError('invalid_request');
  });
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  const headers = {
    authorization: 'Bearer BEARER-SECRET-1',
    cookie: 'session=COOKIE-SECRET-2',
    'x-host-secret': 'HOST-SECRET-3',
    'x-internal-token': 'INTERNAL-SECRET-4',
  };
  try {
    expect((await fetch(`${base}/bad?token=SIGNAL-TOKEN-5`, { headers })).status).toBe(400);
    expect((await fetch(`${base}/down?token=SIGNAL-TOKEN-5`, { headers })).status).toBe(503);
    const boom = await fetch(`${base}/boom?token=SIGNAL-TOKEN-5`, { method: 'GET', headers });
    expect(boom.status).toBe(500);
    await flushSentry(5000);
  } finally {
    await app.close();
  }
  const sent = bodies.join('\n');
  const events = sent.split('\n').filter((line) => line.includes('"exception"'));
  expect(events).toHaveLength(1);
  expect(events[0]).toContain('database said no to ***');
  expect(events[0]).toContain('"route":"/boom"');
  expect(events[0]).toContain('"status_code":"500"');
  expect(events[0]).toContain('"service":"api"');
  for (const secret of SECRETS) expect(sent).not.toContain(secret);
});
