/**
 * The api's rate limits (plugins/rateLimit.ts over server/shared/rate-limit.ts) on a real app
 * with small budgets: under a budget every request passes; one over answers 429 rate_limited in
 * the envelope with Retry-After; another user or another address is not affected; the internal
 * budget is separate; 401s count per address; allow-listed addresses and, behind a trusted proxy,
 * X-Forwarded-For clients are keyed as they should be. Each case uses its own loopback address
 * (127.0.0.x), since every budget is per address or per user.
 */
import type { FastifyInstance } from 'fastify';
import type { AddressInfo } from 'node:net';
import { API_ERROR_MESSAGES } from '../../../lib/api-types/errors';
import { DEFAULT_RATE_LIMITS, loadRateLimits, loadServerTimeouts, loadTrustProxy, type RateLimits } from '../../shared/http-limits';
import { requestFrom, type FromResponse } from '../../shared/testing/slow-client';
import { craftIdToken, deleteEmulatorUser, signUpEmailUser, type EmulatorUser } from '../testing/emulator-users';
import { buildTestApp, createTestSchema, type TestSchema } from '../testing/test-app';
import { apiRateLimitGroup } from './rateLimit';

jest.setTimeout(60_000);

const MAX = 5;
const LIMITS: RateLimits = { windowMs: 60_000, userMax: MAX, publicMax: MAX, internalMax: 50, allow: ['127.0.0.6'] };

function expectLimited(response: FromResponse): void {
  expect(response.status).toBe(429);
  expect(response.json).toEqual({ status: 'error', error: { code: 'rate_limited', message: API_ERROR_MESSAGES.rate_limited } });
  const retryAfter = Number(response.headers['retry-after']);
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
  expect(response.headers['x-ratelimit-limit']).toBe(String(MAX));
  expect(response.headers['x-ratelimit-remaining']).toBe('0');
}

describe('rate limits (api)', () => {
  let schema: TestSchema;
  let app: FastifyInstance;
  let port: number;
  const users: EmulatorUser[] = [];

  const from = (address: string, method: string, path: string, headers: Record<string, string> = {}, body?: string) =>
    requestFrom(address, port, method, path, headers, body);
  // A status, or for an error its status and code (so a failure says which error it was).
  const statuses = async (n: number, call: () => Promise<FromResponse>) => {
    const out: (number | string)[] = [];
    for (let i = 0; i < n; i++) {
      const response = await call();
      out.push(response.status < 300 ? response.status : `${response.status} ${response.json?.error?.code}`);
    }
    return out;
  };
  const newUser = async () => {
    const user = await signUpEmailUser();
    users.push(user);
    return user;
  };

  beforeAll(async () => {
    schema = await createTestSchema('ratelimit');
    app = await buildTestApp(schema.name, { rateLimit: LIMITS, trustProxy: ['127.0.0.7'] });
    await app.listen({ host: '127.0.0.1', port: 0 });
    port = (app.server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    await app?.close();
    await schema?.drop();
    for (const user of users) await deleteEmulatorUser(user.uid).catch(() => undefined);
  });

  it('public routes: the budget per address passes, one more is 429 with Retry-After, another address is not affected', async () => {
    const catalogue = () => from('127.0.0.2', 'GET', '/v1/catalog/titles?limit=1');
    expect(await statuses(MAX, catalogue)).toEqual(Array(MAX).fill(200));
    expectLimited(await catalogue());
    // The whole public budget: the beacon, search and the magazine are refused too.
    expectLimited(await from('127.0.0.2', 'POST', '/collect', { 'content-type': 'text/plain' }, '{}'));
    expectLimited(await from('127.0.0.2', 'GET', '/v1/catalog/search?q=a'));
    expectLimited(await from('127.0.0.2', 'GET', '/no/such/route'));
    // Another client.
    expect((await from('127.0.0.3', 'GET', '/v1/catalog/titles?limit=1')).status).toBe(200);
    expect((await from('127.0.0.3', 'GET', '/v1/magazine')).status).toBe(200);
  });

  it('authenticated routes: per user, so another user (same address) and the public budget are not affected', async () => {
    const [alice, bob] = await Promise.all([newUser(), newUser()]);
    const me = (user: EmulatorUser) => from('127.0.0.4', 'GET', '/v1/me', { authorization: `Bearer ${user.idToken}` });
    expect(await statuses(MAX, () => me(alice))).toEqual(Array(MAX).fill(200));
    expectLimited(await me(alice));
    expect(await statuses(MAX, () => me(bob))).toEqual(Array(MAX).fill(200));
    expectLimited(await me(bob));
    // Alice's calls spent her budget, not her address's public one.
    expect((await from('127.0.0.4', 'GET', '/v1/catalog/titles?limit=1')).status).toBe(200);
  });

  it('401 answers count per address: past the public budget of them, that address is refused before the token is checked', async () => {
    const bad = () => from('127.0.0.5', 'GET', '/v1/me', { authorization: `Bearer ${craftIdToken({ aud: 'another-project' })}` });
    // Counted after each answer, so the budget's worth of failures plus the one that goes over.
    expect(await statuses(MAX + 1, bad)).toEqual(Array(MAX + 1).fill('401 token_invalid'));
    expectLimited(await bad());
    const carol = await newUser();
    expectLimited(await from('127.0.0.5', 'GET', '/v1/me', { authorization: `Bearer ${carol.idToken}` }));
    // The same user from elsewhere is fine.
    expect((await from('127.0.0.3', 'GET', '/v1/me', { authorization: `Bearer ${carol.idToken}` })).status).toBe(200);
  });

  it('routes for our services (the payment webhook) spend the generous internal budget, not the public one', async () => {
    const webhook = () => from('127.0.0.8', 'POST', '/v1/payments/webhook', { 'content-type': 'application/json' }, '{}');
    // A missing signature is 400, not 401: nothing counts as a failed sign-in.
    expect(await statuses(MAX * 3, webhook)).toEqual(Array(MAX * 3).fill('400 invalid_request'));
    expect((await from('127.0.0.8', 'GET', '/v1/catalog/titles?limit=1')).status).toBe(200);
  });

  it('an allow-listed address is never limited', async () => {
    expect(await statuses(MAX * 2, () => from('127.0.0.6', 'GET', '/v1/catalog/titles?limit=1'))).toEqual(Array(MAX * 2).fill(200));
  });

  it('behind a trusted proxy each X-Forwarded-For client has its own budget; from anyone else the header is ignored', async () => {
    const via = (client: string) => from('127.0.0.7', 'GET', '/v1/catalog/titles?limit=1', { 'x-forwarded-for': client });
    expect(await statuses(MAX, () => via('203.0.113.1'))).toEqual(Array(MAX).fill(200));
    expectLimited(await via('203.0.113.1'));
    expect((await via('203.0.113.2')).status).toBe(200);
    // 127.0.0.2 spent its budget above; a forged header from it does not buy a new one.
    expectLimited(await from('127.0.0.2', 'GET', '/v1/catalog/titles?limit=1', { 'x-forwarded-for': '203.0.113.9' }));
  });
});

describe('rate-limit settings', () => {
  it('sorts routes into budgets', () => {
    expect(apiRateLimitGroup({ url: '/v1/me', config: { auth: true } })).toBe('user');
    expect(apiRateLimitGroup({ url: '/v1/collect/stats/webrtc', config: { auth: true } })).toBe('user');
    expect(apiRateLimitGroup({ url: '/collect' })).toBe('public');
    expect(apiRateLimitGroup({ url: '/v1/catalog/search' })).toBe('public');
    expect(apiRateLimitGroup({ url: '/health' })).toBe('public');
    expect(apiRateLimitGroup({ url: '/internal/hosts/heartbeat' })).toBe('internal');
    expect(apiRateLimitGroup({ url: '/internal/v1/payment-requests' })).toBe('internal');
    expect(apiRateLimitGroup({ url: '/v1/payments/webhook' })).toBe('internal');
    expect(apiRateLimitGroup({ url: '/v1/signal' })).toBe('internal');
  });

  it('reads the budgets, timeouts and proxies from the environment with safe defaults', () => {
    expect(loadRateLimits({}, 'API_RATE_LIMIT')).toEqual(DEFAULT_RATE_LIMITS);
    expect(
      loadRateLimits({ API_RATE_LIMIT_USER_MAX: '7', API_RATE_LIMIT_PUBLIC_MAX: '8', API_RATE_LIMIT_INTERNAL_MAX: '9', API_RATE_LIMIT_WINDOW_MS: '10000', API_RATE_LIMIT_ALLOW: ' 10.0.0.1, 10.0.0.2 ' }, 'API_RATE_LIMIT'),
    ).toEqual({ windowMs: 10_000, userMax: 7, publicMax: 8, internalMax: 9, allow: ['10.0.0.1', '10.0.0.2'] });
    expect(() => loadRateLimits({ API_RATE_LIMIT_USER_MAX: '0' }, 'API_RATE_LIMIT')).toThrow(/API_RATE_LIMIT_USER_MAX/);

    expect(loadServerTimeouts({}, 'API')).toEqual({ headersTimeoutMs: 10_000, requestTimeoutMs: 15_000, checkIntervalMs: 1_000 });
    expect(() => loadServerTimeouts({ API_HEADERS_TIMEOUT_MS: '20000' }, 'API')).toThrow(/API_HEADERS_TIMEOUT_MS .* must not exceed API_REQUEST_TIMEOUT_MS/);

    expect(loadTrustProxy({}, 'API_TRUST_PROXY')).toBe(false);
    expect(loadTrustProxy({ API_TRUST_PROXY: '10.0.0.0/8, loopback' }, 'API_TRUST_PROXY')).toEqual(['10.0.0.0/8', 'loopback']);
    expect(() => loadTrustProxy({ API_TRUST_PROXY: 'true' }, 'API_TRUST_PROXY')).toThrow(/API_TRUST_PROXY/);
    expect(() => loadTrustProxy({ API_TRUST_PROXY: '1' }, 'API_TRUST_PROXY')).toThrow(/API_TRUST_PROXY/);
  });
});
