/**
 * The agent's probes and metrics (routes/health.ts, routes/metrics.ts, metrics.ts) against a
 * FakeApi with a real player: /livez and /readyz answer 200 while it runs; GET /metrics gives a
 * loopback peer every family of docs/operations.md with the values of what happened (a warm
 * start, a playing session, a flood rate-limited, a malformed message, a session ended, a warm
 * runtime crashed), and refuses a request that came through a proxy; once shutdown begins,
 * /health and /readyz answer 503 service_unavailable (envelope) while /livez stays 200.
 */
import { launchPlayer, startTestHost, until, type TestHost, type TestPlayer } from './testing/harness';
import { pageRuntimes } from './testing/page-runtime';

jest.setTimeout(240_000);

let host: TestHost;
let player: TestPlayer | null = null;

const get = (p: string, headers: Record<string, string> = {}) => fetch(`${host.url}${p}`, { headers });
const metrics = async () => {
  const res = await get('/metrics');
  expect(res.status).toBe(200);
  return res.text();
};
/** The value of one sample (`name{labels}`), or null when absent. */
const sample = (text: string, series: string): number | null => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : null;
};

beforeAll(async () => {
  host = await startTestHost({ HOST_CAPACITY: '2', HOST_WARM_POOL: '1' });
  await host.agent.pool.whenWarm(1, 120_000);
  await until(() => host.agent.registry?.registered, 'registered', 15_000);
});

afterAll(async () => {
  await player?.close().catch(() => undefined);
  await host?.stop();
});

it('is alive and ready while it runs', async () => {
  const live = await get('/livez');
  expect(live.status).toBe(200);
  expect(await live.json()).toEqual({ status: 'ok' });
  const ready = await get('/readyz');
  expect(ready.status).toBe(200);
  expect(await ready.json()).toMatchObject({ status: 'ok', hostId: host.agent.config.hostId, state: 'running', registered: true, warm: 1, busy: 0 });
});

it('refuses /metrics to a request that came through a proxy', async () => {
  const res = await get('/metrics', { 'x-forwarded-for': '203.0.113.5' });
  expect(res.status).toBe(403);
  expect(await res.json()).toMatchObject({ status: 'error', error: { code: 'forbidden' } });
});

it('counts a warm start, a playing session, rate-limited and malformed input, and the end', async () => {
  const sid = 'obs-session';
  expect((await host.startSession(sid)).status).toBe(202);
  await until(() => host.api.states(sid).includes('ready'), 'ready', 30_000);
  player = await launchPlayer(host.api);
  await player.join(sid);
  await player.waitForMessage('ready', 20_000);
  await until(() => host.agent.sessions.get(sid)?.state === 'playing', 'playing');
  expect(await player.page.evaluate(() => window.player.sendRaw('{'))).toBe(true);
  expect(await player.page.evaluate(() => window.player.flood('{"v":1,"type":"pointer","kind":"move","x":0.5,"y":0.5}', 600))).toBe(600);

  const during = await until(async () => {
    const text = await metrics();
    return (sample(text, 'yumecast_host_relay_messages_total{kind="received"}') ?? 0) >= 601 ? text : null;
  }, 'the flood counted', 15_000, 200);
  expect(sample(during, 'yumecast_host_sessions{state="playing"}')).toBe(1);
  expect(sample(during, 'yumecast_host_pool_runtimes{state="busy"}')).toBe(1);
  expect(sample(during, 'yumecast_host_session_starts_total{outcome="ready",source="warm"}')).toBe(1);
  expect(sample(during, 'yumecast_host_session_start_seconds_count{source="warm"}')).toBe(1);
  expect(sample(during, 'yumecast_host_relay_messages_total{kind="malformed"}')).toBe(1);
  const limited = sample(during, 'yumecast_host_input_rate_limited_total') ?? 0;
  expect(limited).toBeGreaterThan(300);
  expect(sample(during, 'yumecast_host_player_connections_total')).toBe(1);
  expect(sample(during, 'yumecast_host_signal_opens_total')).toBe(1);
  expect(sample(during, 'yumecast_host_registered')).toBe(1);
  expect(sample(during, 'yumecast_host_state{state="running"}')).toBe(1);
  expect(sample(during, 'yumecast_host_heartbeats_total{outcome="ok"}')).toBeGreaterThan(0);
  expect(during).toMatch(/yumecast_host_http_request_duration_seconds_count\{method="POST",route="\/sessions",status_code="202"\} 1/);
  expect(during).toContain('# TYPE process_cpu_seconds_total counter');

  expect((await host.request('DELETE', `/sessions/${sid}?reason=user`)).status).toBe(200);
  await player.close();
  player = null;
  const after = await metrics();
  expect(sample(after, 'yumecast_host_sessions{state="playing"}')).toBe(0);
  expect(sample(after, 'yumecast_host_sessions_ended_total{state="closed",reason="user"}')).toBe(1);
  // the ended session's counters stay in the totals
  expect(sample(after, 'yumecast_host_input_rate_limited_total')).toBeGreaterThanOrEqual(limited);
  expect(sample(after, 'yumecast_host_runtime_kills_total')).toBeGreaterThanOrEqual(1);
});

it('counts a warm runtime that crashes', async () => {
  await host.agent.pool.whenWarm(1, 120_000);
  const rt = pageRuntimes(host.agent.pool).find((r) => r.state === 'warm')!;
  process.kill(-rt.pgid!, 'SIGKILL');
  await until(async () => sample(await metrics(), 'yumecast_host_runtime_crashes_total{phase="warm"}') === 1, 'the crash counted', 15_000, 100);
  await host.agent.pool.whenWarm(1, 120_000);
  expect(sample(await metrics(), 'yumecast_host_runtime_launches_total{outcome="ok"}')).toBeGreaterThanOrEqual(3);
});

it('answers 503 on /health and /readyz once shutdown begins, and stays alive', async () => {
  const stopping = host.agent.shutdown();
  const [health, ready, live] = await Promise.all([get('/health'), get('/readyz'), get('/livez')]);
  expect(health.status).toBe(503);
  expect(await health.json()).toEqual({ status: 'error', error: { code: 'service_unavailable', message: expect.any(String) } });
  expect(ready.status).toBe(503);
  expect((await ready.json()).error.code).toBe('service_unavailable');
  expect(live.status).toBe(200);
  await stopping;
});
