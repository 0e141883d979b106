/**
 * The shared part of /metrics (metrics.ts) on a bare Fastify app: the process metrics and the
 * request histogram are exposed; without METRICS_TOKEN only a loopback peer that did not come
 * through a proxy reads them (a peer on another interface and a forwarded request get 403); with
 * a token only its bearer does (401 otherwise, loopback included). Counters mirrored with
 * setCounter follow their source.
 */
import os from 'node:os';
import Fastify, { type FastifyInstance } from 'fastify';
import { Counter, isLoopbackAddress, Registry, registerMetricsEndpoint, setCounter } from './metrics';

async function serve(token: string | undefined, host = '127.0.0.1'): Promise<{ app: FastifyInstance; port: number }> {
  const app = Fastify({ logger: false });
  const registry = new Registry();
  registerMetricsEndpoint(app, { prefix: 'yumecast_test', registry, token });
  app.get('/hello', async () => ({ status: 'ok' }));
  await app.listen({ host, port: 0 });
  return { app, port: (app.server.address() as { port: number }).port };
}

/** A non-loopback IPv4 address of this machine, if it has one. */
function externalAddress(): string | undefined {
  for (const list of Object.values(os.networkInterfaces())) {
    for (const info of list ?? []) if (info.family === 'IPv4' && !info.internal) return info.address;
  }
  return undefined;
}

test('isLoopbackAddress knows loopback peers', () => {
  for (const a of ['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1']) expect(isLoopbackAddress(a)).toBe(true);
  for (const a of [undefined, '', '10.0.0.1', '::ffff:10.0.0.1', '192.168.1.127', 'fe80::1', '::']) expect(isLoopbackAddress(a)).toBe(false);
});

test('setCounter mirrors a running total, with and without labels', async () => {
  const registry = new Registry();
  const plain = new Counter({ name: 'plain_total', help: 'h', registers: [registry] });
  const labelled = new Counter({ name: 'labelled_total', help: 'h', labelNames: ['kind'] as const, registers: [registry] });
  setCounter(plain, {}, 3);
  setCounter(plain, {}, 5);
  setCounter(labelled, { kind: 'a' }, 2);
  setCounter(labelled, { kind: 'a' }, 7);
  setCounter(labelled, { kind: 'b' }, 0);
  const text = await registry.metrics();
  expect(text).toContain('plain_total 5');
  expect(text).toContain('labelled_total{kind="a"} 7');
  expect(text).toContain('labelled_total{kind="b"} 0');
});

describe('without METRICS_TOKEN: loopback only', () => {
  let app: FastifyInstance;
  let port: number;
  beforeAll(async () => ({ app, port } = await serve(undefined, '0.0.0.0')));
  afterAll(() => app.close());

  it('answers a loopback peer with the process metrics and the request histogram', async () => {
    await fetch(`http://127.0.0.1:${port}/hello`);
    const res = await fetch(`http://127.0.0.1:${port}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await res.text();
    expect(text).toContain('# TYPE process_cpu_seconds_total counter');
    expect(text).toContain('# TYPE nodejs_eventloop_lag_seconds gauge');
    expect(text).toMatch(/yumecast_test_http_request_duration_seconds_count\{method="GET",route="\/hello",status_code="200"\} 1/);
  });

  it('refuses a request that came through a proxy', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/metrics`, { headers: { 'x-forwarded-for': '203.0.113.9' } });
    expect(res.status).toBe(403);
    expect(await res.text()).not.toContain('process_cpu');
  });

  it('refuses a peer on another interface', async () => {
    const address = externalAddress();
    if (!address) return; // no other interface on this machine
    const res = await fetch(`http://${address}:${port}/metrics`);
    expect(res.status).toBe(403);
    expect(await res.text()).not.toContain('process_cpu');
  });
});

describe('with METRICS_TOKEN: its bearer only', () => {
  let app: FastifyInstance;
  let port: number;
  beforeAll(async () => ({ app, port } = await serve('metrics-token-0123456789')));
  afterAll(() => app.close());

  it('refuses no token and a wrong one, loopback included', async () => {
    for (const headers of [{}, { authorization: 'Bearer wrong' }, { authorization: 'metrics-token-0123456789' }] as Record<string, string>[]) {
      const res = await fetch(`http://127.0.0.1:${port}/metrics`, { headers });
      expect(res.status).toBe(401);
    }
  });

  it('answers the token’s bearer', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/metrics`, { headers: { authorization: 'Bearer metrics-token-0123456789' } });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('process_resident_memory_bytes');
  });
});
