/**
 * Play history is written by the server when a session ends, on every end path, in the
 * transaction that ends it: the player's force_close, the idle rule, a lost host, the host's own
 * failure report. Sessions that never reached `playing` (queue abandonment, nobody joined) leave
 * no history.
 */
import { FakeHost } from '../../testing/fake-host';
import { request, sleep, startSessionApp, TEST_HOST_SECRET, TestUsers, waitFor, type SessionTestApp } from '../../testing/sessions';
import { createTestSchema, type TestSchema } from '../../testing/test-app';

jest.setTimeout(60_000);

let schema: TestSchema;
let api: SessionTestApp;
const users = new TestUsers();
const hosts: FakeHost[] = [];

beforeAll(async () => {
  schema = await createTestSchema('history');
  api = await startSessionApp(schema.name, {
    idleCloseMs: 2_500,
    hostHeartbeatTimeoutMs: 1_000,
    queueAbandonMs: 500,
    sweepIntervalMs: 100,
  });
});

afterAll(async () => {
  for (const host of hosts) host.stopHeartbeats();
  await Promise.allSettled(hosts.map((host) => host.close()));
  await api?.close();
  await users.cleanup();
  await schema?.drop();
});

// Each test gets its own host: the previous ones are shut down, so sessions go to the new one.
afterEach(async () => {
  for (const host of hosts) {
    host.stopHeartbeats();
    await host.call('POST', `/internal/hosts/${host.id}/shutdown`, {});
  }
});

async function newHost(id: string, capacity = 1): Promise<FakeHost> {
  const host = await new FakeHost({ id, capacity, secret: TEST_HOST_SECRET, apiBase: api.base }).listen();
  hosts.push(host);
  expect((await host.register()).status).toBe(200);
  host.startHeartbeats(200);
  return host;
}

const get = (url: string, token: string) => request(api.base, 'GET', url, { token });

async function sessionState(id: string): Promise<{ state: string; failure_reason: string | null; close_reason: string | null }> {
  const { rows } = await schema.pool.query('SELECT state, failure_reason, close_reason FROM sessions WHERE id = $1', [id]);
  return rows[0];
}

async function startPlaying(host: FakeHost, token: string, game = 'hajimari-no-eki'): Promise<string> {
  const started = await get(`/v1/game/${game}/start`, token);
  expect(started.status).toBe(200);
  const id = started.body.game_session_id as string;
  await waitFor(async () => (await sessionState(id)).state === 'ready', 5_000, `${id} ready`);
  expect((await host.report(id, 'playing')).body.session_state).toBe('playing');
  return id;
}

const ended = (id: string) => waitFor(async () => ['closed', 'failed'].includes((await sessionState(id)).state), 8_000, `${id} ended`);

/** What the history should hold for these sessions: play from playing_at to closing (or the end). */
async function expectedTotals(uid: string, gameId: string): Promise<{ total_seconds: number; play_count: number; last_played_at: Date }> {
  const { rows } = await schema.pool.query(
    `SELECT coalesce(sum(round(extract(epoch FROM least(coalesce(closing_at, ended_at), ended_at) - playing_at))), 0)::int AS total_seconds,
            count(*)::int AS play_count, max(least(coalesce(closing_at, ended_at), ended_at)) AS last_played_at
       FROM sessions WHERE uid = $1 AND game_id = $2 AND playing_at IS NOT NULL AND state IN ('closed', 'failed')`,
    [uid, gameId],
  );
  return rows[0];
}

async function historyRow(uid: string, gameId: string) {
  const { rows } = await schema.pool.query(
    'SELECT total_seconds::int AS total_seconds, play_count, last_played_at FROM play_histories WHERE uid = $1 AND game_id = $2',
    [uid, gameId],
  );
  return rows[0] ?? null;
}

it('force_close by the player writes the time played; a second session adds to it', async () => {
  const host = await newHost('host-h1');
  const user = await users.email();
  const first = await startPlaying(host, user.idToken);
  await sleep(1_200);
  await get(`/v1/session/${first}/force_close`, user.idToken);
  await ended(first);
  expect((await sessionState(first)).close_reason).toBe('user');
  const once = await historyRow(user.uid, 'hajimari-no-eki');
  expect(once.play_count).toBe(1);
  expect(once.total_seconds).toBeGreaterThanOrEqual(1);
  expect(once).toEqual(await expectedTotals(user.uid, 'hajimari-no-eki'));

  const second = await startPlaying(host, user.idToken);
  await sleep(1_100);
  await get(`/v1/session/${second}/force_close`, user.idToken);
  await ended(second);
  const twice = await historyRow(user.uid, 'hajimari-no-eki');
  expect(twice.play_count).toBe(2);
  expect(twice.total_seconds).toBeGreaterThanOrEqual(2);
  expect(twice).toEqual(await expectedTotals(user.uid, 'hajimari-no-eki'));
  expect(twice.last_played_at.getTime()).toBeGreaterThan(once.last_played_at.getTime());

  // the api shows it
  const listed = (await get('/v1/mylist/history', user.idToken)).body.histories;
  expect(listed).toEqual([
    {
      game_id: 'hajimari-no-eki',
      title: expect.objectContaining({ id: 'hajimari-no-eki', title: 'はじまりの駅' }),
      last_played_at: twice.last_played_at.toISOString(),
      total_seconds: twice.total_seconds,
      play_count: 2,
    },
  ]);
});

it('the idle rule ends a session and writes its history', async () => {
  const host = await newHost('host-h2');
  const user = await users.email();
  const id = await startPlaying(host, user.idToken, 'hoshifuru-toshokan');
  await ended(id);
  expect((await sessionState(id)).close_reason).toBe('idle');
  const row = await historyRow(user.uid, 'hoshifuru-toshokan');
  expect(row.play_count).toBe(1);
  expect(row.total_seconds).toBeGreaterThanOrEqual(2);
  expect(row).toEqual(await expectedTotals(user.uid, 'hoshifuru-toshokan'));
});

it('a lost host fails its sessions and their history is written', async () => {
  const host = await newHost('host-h3');
  const user = await users.email();
  const id = await startPlaying(host, user.idToken);
  await sleep(1_000);
  host.stopHeartbeats();
  await ended(id);
  expect(await sessionState(id)).toMatchObject({ state: 'failed', failure_reason: 'host_lost' });
  const row = await historyRow(user.uid, 'hajimari-no-eki');
  expect(row.play_count).toBe(1);
  expect(row.total_seconds).toBeGreaterThanOrEqual(1);
  expect(row).toEqual(await expectedTotals(user.uid, 'hajimari-no-eki'));
});

it('a failure reported by the host writes the history too', async () => {
  const host = await newHost('host-h4');
  const user = await users.email();
  const id = await startPlaying(host, user.idToken);
  await sleep(1_000);
  await host.report(id, 'failed', 'runtime_crashed');
  expect(await sessionState(id)).toMatchObject({ state: 'failed', failure_reason: 'runtime_crashed' });
  const row = await historyRow(user.uid, 'hajimari-no-eki');
  expect(row).toEqual(await expectedTotals(user.uid, 'hajimari-no-eki'));
  expect(row.total_seconds).toBeGreaterThanOrEqual(1);
  // a late second end report changes nothing
  await host.report(id, 'closed');
  expect(await historyRow(user.uid, 'hajimari-no-eki')).toEqual(row);
});

it('sessions that never reached playing leave no history (abandoned in the queue, closed while ready)', async () => {
  const host = await newHost('host-h5');
  const [a, b] = [await users.email(), await users.email()];
  const holding = await get('/v1/game/hajimari-no-eki/start', a.idToken);
  await waitFor(async () => (await sessionState(holding.body.game_session_id)).state === 'ready', 5_000, 'ready');
  // b queues (the only slot is taken) and stops polling: abandoned
  const queued = (await get('/v1/game/hajimari-no-eki/start', b.idToken)).body.game_session_id;
  await ended(queued);
  expect((await sessionState(queued)).close_reason).toBe('abandoned');
  await get(`/v1/session/${holding.body.game_session_id}/force_close`, a.idToken);
  await ended(holding.body.game_session_id);
  expect(await historyRow(a.uid, 'hajimari-no-eki')).toBeNull();
  expect(await historyRow(b.uid, 'hajimari-no-eki')).toBeNull();
  expect(host.started.has(queued)).toBe(false);
});
