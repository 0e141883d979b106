/**
 * Stats retention (plugins/retention.ts, services/collect.ts `prune`; docs/scale.md item 5): rows
 * older than the retention are deleted in batches, newer ones stay, and a second replica's run at
 * the same time deletes each row once; migration 005's BRIN index is there.
 */
import { FakeHost } from '../testing/fake-host';
import { request, startSessionApp, TEST_HOST_SECRET, TestUsers, waitFor, type SessionTestApp } from '../testing/sessions';
import { createTestSchema, type TestSchema } from '../testing/test-app';
import { CollectService } from './collect';

jest.setTimeout(60_000);

describe('stats retention', () => {
  let schema: TestSchema;
  let api: SessionTestApp;
  let host: FakeHost;
  const users = new TestUsers();

  beforeAll(async () => {
    schema = await createTestSchema('retention');
    api = await startSessionApp(schema.name);
    host = await new FakeHost({ id: 'host-ret', capacity: 2, secret: TEST_HOST_SECRET, apiBase: api.base }).listen();
    await host.register();
  });

  afterAll(async () => {
    await host?.close();
    await api?.close();
    await users.cleanup();
    await schema?.drop();
  });

  it('deletes stats older than the retention in batches, keeps the rest, once across replicas', async () => {
    const user = await users.email();
    const started = await request(api.base, 'GET', '/v1/game/hoshifuru-toshokan/start', { token: user.idToken });
    const id = started.body.game_session_id as string;
    await waitFor(() => host.started.has(id));
    // 25 rows 40 days old, 5 rows 10 days old, 5 from now
    await schema.pool.query(
      `INSERT INTO collect_webrtc_stats (session_id, uid, game_id, stats, received_at)
       SELECT $1, $2, 'hoshifuru-toshokan', '{}'::jsonb, now() - make_interval(days => d)
       FROM unnest(array_cat(array_fill(40, ARRAY[25]), array_cat(array_fill(10, ARRAY[5]), array_fill(0, ARRAY[5])))) AS d`,
      [id, user.uid],
    );
    const { rows: index } = await schema.pool.query(`SELECT indexdef FROM pg_indexes WHERE indexname = 'collect_webrtc_stats_received' AND schemaname = $1`, [schema.name]);
    expect(index[0]?.indexdef).toMatch(/USING brin \(received_at\)/);

    // two replicas at once, in batches of 4
    const [a, b] = [new CollectService(schema.pool), new CollectService(schema.pool)];
    const deleted = await Promise.all([a.prune(30, 4), b.prune(30, 4)]);
    expect(deleted[0] + deleted[1]).toBe(25);
    const { rows } = await schema.pool.query(`SELECT count(*)::int AS n, min(received_at) > now() - interval '30 days' AS recent FROM collect_webrtc_stats WHERE session_id = $1`, [id]);
    expect(rows[0]).toEqual({ n: 10, recent: true });
    // a shorter retention then takes the 10-day-old rows, at most maxBatches × batch per run
    expect(await a.prune(5, 2, 2)).toBe(4);
    expect(await a.prune(5, 2, 10)).toBe(1);
    expect(await a.prune(5)).toBe(0);
  });
});
