/**
 * The agent's HTTP limits (routes/rateLimit.ts, server/shared/http-limits.ts) on its api-facing
 * app, listening without runtimes: GET /health (no secret) has a per-address budget and answers
 * 429 rate_limited in the envelope with Retry-After past it, another address is not affected;
 * the api's secret routes spend the separate internal budget; wrong secrets count per address;
 * a stalled body (with the secret) or slow headers are cut off within the configured timeouts.
 */
import type { AddressInfo } from 'node:net';
import { HOST_SECRET_HEADER } from '../shared/host-contract';
import { parseAnswer, requestFrom, slowBody, slowHeaders, type FromResponse } from '../shared/testing/slow-client';
import { buildHostAgent, type HostAgent } from './agent';
import { loadHostConfig } from './config';
import { hostRateLimitGroup } from './routes/rateLimit';

jest.setTimeout(60_000);

const SECRET = 'limits-test-secret';
const PUBLIC_MAX = 4;

describe('the agent’s rate limits and timeouts', () => {
  let agent: HostAgent;
  let port: number;
  const from = (address: string, method: string, path: string, headers: Record<string, string> = {}) => requestFrom(address, port, method, path, headers);
  const statuses = async (n: number, call: () => Promise<FromResponse>) => {
    const out: number[] = [];
    for (let i = 0; i < n; i++) out.push((await call()).status);
    return out;
  };

  beforeAll(async () => {
    const config = loadHostConfig({
      HOST_AGENT_PORT: '0',
      HOST_SHARED_SECRET: SECRET,
      HOST_REGISTER: '0',
      HOST_WARM_POOL: '0',
      LOG_LEVEL: 'silent',
      HOST_HTTP_RATE_LIMIT_PUBLIC_MAX: String(PUBLIC_MAX),
      HOST_HTTP_RATE_LIMIT_INTERNAL_MAX: '100',
      HOST_HEADERS_TIMEOUT_MS: '1000',
      HOST_REQUEST_TIMEOUT_MS: '2000',
      HOST_TIMEOUT_CHECK_MS: '100',
    });
    agent = buildHostAgent(config, { log: () => undefined });
    // The api-facing app alone: no runtimes, no registration.
    await agent.app.listen({ host: '127.0.0.1', port: 0 });
    port = (agent.app.server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    await agent?.app.close();
  });

  it('GET /health: the budget per address passes, one more is 429 with Retry-After, another address is not affected', async () => {
    expect(await statuses(PUBLIC_MAX, () => from('127.0.0.2', 'GET', '/health'))).toEqual(Array(PUBLIC_MAX).fill(200));
    const limited = await from('127.0.0.2', 'GET', '/health');
    expect(limited.status).toBe(429);
    expect(limited.json).toMatchObject({ status: 'error', error: { code: 'rate_limited' } });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect((await from('127.0.0.3', 'GET', '/health')).status).toBe(200);
  });

  it('the api’s secret routes spend the internal budget; wrong secrets count per address', async () => {
    const list = (address: string, secret: string) => from(address, 'GET', '/sessions', { [HOST_SECRET_HEADER]: secret });
    expect(await statuses(PUBLIC_MAX * 3, () => list('127.0.0.4', SECRET))).toEqual(Array(PUBLIC_MAX * 3).fill(200));
    expect(await statuses(PUBLIC_MAX + 1, () => list('127.0.0.5', 'wrong'))).toEqual(Array(PUBLIC_MAX + 1).fill(401));
    expect((await list('127.0.0.5', SECRET)).status).toBe(429);
    expect((await list('127.0.0.4', SECRET)).status).toBe(200);
  });

  it('a stalled start body (with the secret) and slow headers are cut off', async () => {
    const [body, headers] = await Promise.all([
      slowBody(port, '/sessions', 15_000, { 'Content-Type': 'application/json', [HOST_SECRET_HEADER]: SECRET }),
      slowHeaders(port, 100, 15_000),
    ]);
    expect(body.closedAfterMs).not.toBeNull();
    expect(body.closedAfterMs!).toBeLessThanOrEqual(2_000 + 100 + 1_500);
    expect(headers.closedAfterMs).not.toBeNull();
    expect(headers.closedAfterMs!).toBeLessThanOrEqual(1_000 + 100 + 1_500);
    for (const held of [body, headers]) {
      const answer = parseAnswer(held.received);
      if (answer) expect(answer).toMatchObject({ status: 408, body: { status: 'error' } });
    }
  });

  it('sorts its routes into budgets', () => {
    expect(hostRateLimitGroup({ url: '/sessions' })).toBe('internal');
    expect(hostRateLimitGroup({ url: '/sessions/:sessionId' })).toBe('internal');
    expect(hostRateLimitGroup({ url: '/health' })).toBe('public');
    expect(hostRateLimitGroup({ url: '/metrics' })).toBe('public');
  });
});
