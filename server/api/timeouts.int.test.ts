/**
 * Slow senders are cut off by the api (server/shared/http-limits.ts): a body announced as 100
 * bytes of which one arrives, headers sent a byte at a time, and a connection that sends nothing
 * are all closed within the configured bounds, answering (if at all) 408 in the error envelope.
 * Once with small timeouts, and once with the defaults (the issue: POST /collect stayed open past
 * 75 s although `requestTimeout: 30_000` was set). Normal requests and keep-alive still work.
 */
import type { FastifyInstance } from 'fastify';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_SERVER_TIMEOUTS, type ServerTimeouts } from '../shared/http-limits';
import { parseAnswer, requestFrom, silent, slowBody, slowHeaders, type HeldConnection } from '../shared/testing/slow-client';
import { buildTestApp, createTestSchema, type TestSchema } from './testing/test-app';

jest.setTimeout(60_000);

/** Closed within `boundMs`, answering nothing or 408 in the envelope. */
function expectCutOff(held: HeldConnection, boundMs: number): void {
  expect(held.closedAfterMs).not.toBeNull();
  expect(held.closedAfterMs!).toBeLessThanOrEqual(boundMs);
  const answer = parseAnswer(held.received);
  if (answer) {
    expect(answer.status).toBe(408);
    expect(answer.body).toMatchObject({ status: 'error', error: { code: expect.any(String), message: expect.any(String) } });
  }
}

async function start(schema: string, timeouts?: ServerTimeouts): Promise<{ app: FastifyInstance; port: number }> {
  const app = await buildTestApp(schema, timeouts ? { timeouts } : {});
  await app.listen({ host: '127.0.0.1', port: 0 });
  return { app, port: (app.server.address() as AddressInfo).port };
}

describe('slow senders (api)', () => {
  let schema: TestSchema;
  let small: { app: FastifyInstance; port: number };
  const SMALL: ServerTimeouts = { headersTimeoutMs: 1_000, requestTimeoutMs: 2_000, checkIntervalMs: 100 };
  // The bound plus one checking interval, plus slack for a loaded machine.
  const SLACK = 1_500;

  beforeAll(async () => {
    schema = await createTestSchema('timeouts');
    small = await start(schema.name, SMALL);
  });

  afterAll(async () => {
    await small?.app.close();
    await schema?.drop();
  });

  it('POST /collect with Content-Length: 100 and one byte is closed after the request timeout', async () => {
    const held = await slowBody(small.port, '/collect', 15_000);
    expectCutOff(held, SMALL.requestTimeoutMs + SMALL.checkIntervalMs + SLACK);
    expect(held.closedAfterMs!).toBeGreaterThanOrEqual(SMALL.requestTimeoutMs - 200);
  });

  it('headers sent a byte at a time are closed after the headers timeout', async () => {
    const held = await slowHeaders(small.port, 100, 15_000);
    expectCutOff(held, SMALL.headersTimeoutMs + SMALL.checkIntervalMs + SLACK);
  });

  it('a connection that sends nothing is closed after the headers timeout', async () => {
    expectCutOff(await silent(small.port, 15_000), SMALL.headersTimeoutMs + SMALL.checkIntervalMs + SLACK);
  });

  it('whole requests still pass, also on a kept-alive connection used past the timeouts', async () => {
    expect((await requestFrom('127.0.0.1', small.port, 'POST', '/collect', { 'content-type': 'text/plain' }, '{}')).status).toBe(400);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const get = () => fetchStatus(agent, small.port, '/v1/catalog/titles?limit=1');
    expect(await get()).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, SMALL.requestTimeoutMs + 500));
    expect(await get()).toBe(200);
    agent.destroy();
  });

  it('with the default settings a stalled body is closed within 15 s (+ 1 s checks)', async () => {
    const defaults = await start(schema.name);
    try {
      expect(defaults.app.server.headersTimeout).toBe(DEFAULT_SERVER_TIMEOUTS.headersTimeoutMs);
      expect(defaults.app.server.requestTimeout).toBe(DEFAULT_SERVER_TIMEOUTS.requestTimeoutMs);
      const held = await slowBody(defaults.port, '/collect', 40_000);
      expectCutOff(held, DEFAULT_SERVER_TIMEOUTS.requestTimeoutMs + DEFAULT_SERVER_TIMEOUTS.checkIntervalMs + SLACK);
    } finally {
      await defaults.app.close();
    }
  });
});

function fetchStatus(agent: http.Agent, port: number, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path, agent }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      })
      .on('error', reject);
  });
}
