/**
 * The function's side of the function ⇄ api contract, against a small HTTP server standing in
 * for the api: the exact request forwardPaymentRequest sends (path, token header, JSON body with
 * the uid and e-mail from the token and the validated payload, nothing else), and how every kind
 * of api answer becomes the callable's error (code, Japanese message, details.code). The same
 * code runs in the emulator (invokePaymentRequest.int.test.ts calls it there).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as logger from 'firebase-functions/logger';
import { HttpsError } from 'firebase-functions/v2/https';
import { apiTarget } from '../../../functions/src/config';
import { MESSAGES } from '../../../functions/src/messages';
import { forwardPaymentRequest, INTERNAL_TOKEN_HEADER, PAYMENT_REQUESTS_PATH } from '../../../functions/src/payment/forward';

// The function's structured logs, captured: quiet output, and a check of what they hold.
jest.mock('firebase-functions/logger', () => ({ debug: jest.fn(), info: jest.fn(), log: jest.fn(), warn: jest.fn(), error: jest.fn() }));

const TOKEN = 'test-internal-token-0123456789abcdef';
const CALLER = { uid: 'uid_123', email: 'buyer@example.test' };
const PAYLOAD = { method: 'updateEmail' as const, requestId: '6f1c2a4e-8b0d-4c5e-9a7b-1234567890ab' };

interface Received {
  method?: string;
  url?: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

let server: http.Server;
let baseUrl: string;
let received: Received[] = [];
/** What the fake api answers next: status and body (a string is sent as is). */
let answer: { status: number; body: unknown; delayMs?: number } = { status: 200, body: {} };

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      received.push({ method: req.method, url: req.url, headers: req.headers, body });
      setTimeout(() => {
        res.statusCode = answer.status;
        res.setHeader('content-type', typeof answer.body === 'string' ? 'text/html' : 'application/json');
        res.end(typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body));
      }, answer.delayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  received = [];
});

const target = () => ({ baseUrl, token: TOKEN });

async function failure(promise: Promise<unknown>): Promise<HttpsError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(HttpsError);
    return error as HttpsError;
  }
  throw new Error('expected an HttpsError');
}

describe('forwardPaymentRequest: the request', () => {
  it('POSTs {uid, email, method, requestId} to /internal/v1/payment-requests with the internal token', async () => {
    answer = { status: 200, body: { status: 'ok', result: { customerId: 'cus_1', email: CALLER.email } } };
    const result = await forwardPaymentRequest(target(), CALLER, PAYLOAD);
    expect(result).toEqual({ customerId: 'cus_1', email: CALLER.email });
    expect(received).toHaveLength(1);
    const [req] = received;
    expect(req.method).toBe('POST');
    expect(req.url).toBe(PAYMENT_REQUESTS_PATH);
    expect(PAYMENT_REQUESTS_PATH).toBe('/internal/v1/payment-requests');
    expect(req.headers[INTERNAL_TOKEN_HEADER]).toBe(TOKEN);
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.headers.authorization).toBeUndefined();
    expect(JSON.parse(req.body)).toEqual({ uid: CALLER.uid, email: CALLER.email, method: 'updateEmail', requestId: PAYLOAD.requestId });
  });

  it('returns only the result fields the browser may see', async () => {
    answer = { status: 200, body: { status: 'ok', result: { customerId: 'cus_2', email: CALLER.email, internal: 'x' }, extra: 1 } };
    await expect(forwardPaymentRequest(target(), CALLER, PAYLOAD)).resolves.toEqual({ customerId: 'cus_2', email: CALLER.email });
  });

  it('treats a 200 without a result as an internal error', async () => {
    answer = { status: 200, body: { status: 'ok' } };
    const error = await failure(forwardPaymentRequest(target(), CALLER, PAYLOAD));
    expect(error.code).toBe('internal');
    expect(error.message).toBe(MESSAGES.internal);
  });
});

describe('forwardPaymentRequest: api errors → callable errors', () => {
  const apiError = (code: string, message = `${code} のメッセージ`) => ({ status: 'error', error: { code, message } });

  it.each([
    [400, 'invalid_request', 'invalid-argument', MESSAGES.invalidData],
    [409, 'payment_request_conflict', 'already-exists', 'payment_request_conflict のメッセージ'],
    [409, 'idempotency_conflict', 'aborted', 'idempotency_conflict のメッセージ'],
    [403, 'user_disabled', 'permission-denied', 'user_disabled のメッセージ'],
    [429, 'rate_limited', 'resource-exhausted', MESSAGES.rateLimited],
    [503, 'service_unavailable', 'unavailable', MESSAGES.unavailable],
    [402, 'card_declined', 'failed-precondition', 'card_declined のメッセージ'],
  ])('%i %s → %s', async (status, code, callableCode, message) => {
    answer = { status, body: apiError(code) };
    const error = await failure(forwardPaymentRequest(target(), CALLER, PAYLOAD));
    expect(error.code).toBe(callableCode);
    expect(error.message).toBe(message);
    expect(error.details).toEqual({ code });
  });

  it.each([
    [401, 'unauthorized'],
    [403, 'forbidden'],
    [404, 'not_found'],
    [500, 'internal'],
  ])('%i %s (our configuration or a bug) → internal, with nothing about the token', async (status, code) => {
    answer = { status, body: apiError(code) };
    const error = await failure(forwardPaymentRequest(target(), CALLER, PAYLOAD));
    expect(error.code).toBe('internal');
    expect(error.message).toBe(MESSAGES.internal);
    expect(error.details).toBeUndefined();
  });

  it('logs the uid, request and api code, never the token or the e-mail address', async () => {
    answer = { status: 401, body: apiError('unauthorized') };
    await failure(forwardPaymentRequest(target(), CALLER, PAYLOAD));
    const logged = JSON.stringify([jest.mocked(logger.error).mock.calls, jest.mocked(logger.warn).mock.calls]);
    expect(logged).toContain(CALLER.uid);
    expect(logged).toContain('unauthorized');
    expect(logged).not.toContain(TOKEN);
    expect(logged).not.toContain(CALLER.email);
  });

  it.each([
    [502, 'unavailable'],
    [504, 'unavailable'],
    [500, 'internal'],
  ])('a %i that is not our error format → %s', async (status, callableCode) => {
    answer = { status, body: '<html>Bad Gateway</html>' };
    const error = await failure(forwardPaymentRequest(target(), CALLER, PAYLOAD));
    expect(error.code).toBe(callableCode);
  });

  it('an api that cannot be reached → unavailable', async () => {
    const error = await failure(forwardPaymentRequest({ baseUrl: 'http://127.0.0.1:1', token: TOKEN }, CALLER, PAYLOAD));
    expect(error.code).toBe('unavailable');
    expect(error.message).toBe(MESSAGES.unavailable);
  });

  it('an api that does not answer in time → unavailable', async () => {
    answer = { status: 200, body: { status: 'ok', result: { customerId: 'late', email: CALLER.email } }, delayMs: 1_000 };
    const error = await failure(forwardPaymentRequest(target(), CALLER, PAYLOAD, 100));
    expect(error.code).toBe('unavailable');
  });
});

describe('apiTarget: the function is configured by the environment', () => {
  it('reads API_INTERNAL_URL (trailing slash dropped) and INTERNAL_API_TOKEN', () => {
    expect(apiTarget({ API_INTERNAL_URL: 'http://127.0.0.1:8080/', INTERNAL_API_TOKEN: TOKEN })).toEqual({ baseUrl: 'http://127.0.0.1:8080', token: TOKEN });
  });

  it.each([
    ['no URL', { INTERNAL_API_TOKEN: TOKEN }],
    ['a URL that is not http(s)', { API_INTERNAL_URL: 'ftp://x', INTERNAL_API_TOKEN: TOKEN }],
    ['no token', { API_INTERNAL_URL: 'http://127.0.0.1:8080' }],
    ['a token shorter than 32 characters', { API_INTERNAL_URL: 'http://127.0.0.1:8080', INTERNAL_API_TOKEN: 'short' }],
  ])('%s → internal (the caller sees a plain error)', (_label, env) => {
    let error: unknown;
    try {
      apiTarget(env as Record<string, string | undefined>);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(HttpsError);
    expect((error as HttpsError).code).toBe('internal');
    expect((error as HttpsError).message).toBe(MESSAGES.internal);
  });
});
