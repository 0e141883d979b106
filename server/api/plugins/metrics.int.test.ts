/**
 * The api's GET /metrics (plugins/metrics.ts): a loopback peer reads every family of
 * docs/operations.md (sessions by state from PostgreSQL, starts by outcome, start latency,
 * sessions ended, heartbeats, reports, the pg pool, the signalling relay, requests by route and
 * status, the process); a stranger (a request through a proxy) gets 403, and with
 * METRICS_TOKEN set only its bearer reads them.
 */
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app';
import { listenForTest, type TestClient } from '../testing/http-client';
import { createTestSchema, testConfig, type TestSchema } from '../testing/test-app';

jest.setTimeout(60_000);

const FAMILIES = [
  'yumecast_api_sessions gauge',
  'yumecast_api_db_up gauge',
  'yumecast_api_session_starts_total counter',
  'yumecast_api_session_start_seconds histogram',
  'yumecast_api_sessions_ended_total counter',
  'yumecast_api_host_heartbeats_total counter',
  'yumecast_api_host_reports_total counter',
  'yumecast_api_db_pool_connections gauge',
  'yumecast_api_db_pool_max gauge',
  'yumecast_api_signal_connections gauge',
  'yumecast_api_signal_frames_relayed_total counter',
  'yumecast_api_signal_frames_dropped_total counter',
  'yumecast_api_signal_connections_rejected_total counter',
  'yumecast_api_http_request_duration_seconds histogram',
  'process_cpu_seconds_total counter',
  'nodejs_heap_size_used_bytes gauge',
];

let schema: TestSchema;

beforeAll(async () => {
  schema = await createTestSchema('metrics');
});

afterAll(async () => {
  await schema?.drop();
});

describe('without METRICS_TOKEN', () => {
  let app: FastifyInstance;
  let client: TestClient;

  beforeAll(async () => {
    app = await buildApp({ config: testConfig(schema.name), logger: false });
    client = await listenForTest(app);
  });
  afterAll(() => app?.close());

  it('answers a loopback peer with every family, live sessions counted in PostgreSQL', async () => {
    // a start without a token: counted with its outcome
    expect((await client.request({ method: 'GET', url: '/v1/game/hajimari-no-eki/start' })).statusCode).toBe(401);
    const res = await client.request({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    for (const family of FAMILIES) expect(res.body).toContain(`# TYPE ${family}`);
    expect(res.body).toContain('yumecast_api_db_up 1');
    for (const state of ['queued', 'allocating', 'starting', 'ready', 'playing', 'closing']) expect(res.body).toContain(`yumecast_api_sessions{state="${state}"} 0`);
    expect(res.body).toContain('yumecast_api_session_starts_total{outcome="unauthorized"} 1');
    expect(res.body).toContain('yumecast_api_db_pool_max 3');
    expect(res.body).toMatch(/yumecast_api_http_request_duration_seconds_count\{method="GET",route="\/v1\/game\/:gameId\/start",status_code="401"\} 1/);
  });

  it('refuses a stranger: a request that came through a proxy', async () => {
    const res = await client.request({ method: 'GET', url: '/metrics', headers: { 'x-forwarded-for': '203.0.113.7' } });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ status: 'error', error: { code: 'forbidden', message: expect.any(String) } });
  });
});

describe('with METRICS_TOKEN', () => {
  let app: FastifyInstance;
  let client: TestClient;
  const token = 'metrics-token-for-tests-0123456789';

  beforeAll(async () => {
    process.env.METRICS_TOKEN = token;
    try {
      app = await buildApp({ config: testConfig(schema.name), logger: false });
    } finally {
      delete process.env.METRICS_TOKEN;
    }
    client = await listenForTest(app);
  });
  afterAll(() => app?.close());

  it('answers only its bearer', async () => {
    const none = await client.request({ method: 'GET', url: '/metrics' });
    expect(none.statusCode).toBe(401);
    expect(none.json().error.code).toBe('unauthorized');
    expect((await client.request({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer nope' } })).statusCode).toBe(401);
    const ok = await client.request({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${token}` } });
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toContain('# TYPE yumecast_api_sessions gauge');
  });
});
