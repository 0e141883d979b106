/**
 * The scheduler with two api replicas at once (issue 14, docs/sessions.md "Two or more api
 * replicas"): two apps on one PostgreSQL schema, both sweeping every 100 ms, many sessions
 * started concurrently through both. No session is allocated twice, no host goes over its
 * capacity, queue positions are one consistent order whichever replica answers, and a session the
 * sweepers close is closed (and its host told) once. Starts as many as the hosts, at once through
 * both replicas, land one on each host, round after round (a replica's drain that finds the queue
 * empty must not make another's placement pass over a free host).
 */
import { FakeHost } from '../../testing/fake-host';
import { request, startSessionApp, TEST_HOST_SECRET, TestUsers, waitFor, type SessionTestApp } from '../../testing/sessions';
import { createTestSchema, type TestSchema } from '../../testing/test-app';

jest.setTimeout(90_000);

const GAME = 'hoshifuru-toshokan';
const HOSTS = 3;
const CAPACITY = 3;
const USERS = 16;

describe('two api replicas scheduling at once', () => {
  let schema: TestSchema;
  const apis: SessionTestApp[] = [];
  const hosts: FakeHost[] = [];
  const users = new TestUsers();

  beforeAll(async () => {
    schema = await createTestSchema('replicas');
    // Ready sessions nobody joins close after 2 s: both sweepers race to close them.
    for (let i = 0; i < 2; i++) apis.push(await startSessionApp(schema.name, { readyJoinTimeoutMs: 2_000, sweepIntervalMs: 100 }));
    for (let i = 0; i < HOSTS; i++) {
      const host = await new FakeHost({ id: `host-r${i}`, capacity: CAPACITY, secret: TEST_HOST_SECRET, apiBase: apis[i % 2].base }).listen();
      expect((await host.register()).status).toBe(200);
      hosts.push(host);
    }
  });

  afterAll(async () => {
    await Promise.allSettled(hosts.map((host) => host.close()));
    for (const api of apis) await api.close();
    await users.cleanup();
    await schema?.drop();
  });

  async function events(id: string): Promise<{ to_state: string; reason: string | null }[]> {
    const { rows } = await schema.pool.query('SELECT to_state, reason FROM session_events WHERE session_id = $1 ORDER BY id', [id]);
    return rows;
  }

  it('places every session once, never over capacity, with one queue order on both replicas; sweeps close each once', async () => {
    const people = await Promise.all(Array.from({ length: USERS }, () => users.email()));
    // all at once, alternating replicas
    const started = await Promise.all(people.map((user, i) => request(apis[i % 2].base, 'GET', `/v1/game/${GAME}/start`, { token: user.idToken })));
    expect(started.map((answer) => (answer.status === 200 ? 200 : answer.body))).toEqual(Array(USERS).fill(200));
    const ids: string[] = started.map((answer) => answer.body.game_session_id);
    expect(new Set(ids).size).toBe(USERS);

    const placed = () => hosts.reduce((n, host) => n + host.started.size, 0);
    await waitFor(() => placed() === HOSTS * CAPACITY, 10_000, 'every slot filled');
    for (const host of hosts) expect(host.started.size).toBe(CAPACITY);

    // the queued ones: the same positions 1..7 whichever replica is asked, in queue order
    const queued = ids.map((id, i) => ({ id, i })).filter(({ id }) => !hosts.some((host) => host.started.has(id)));
    expect(queued.length).toBe(USERS - HOSTS * CAPACITY);
    const positions = await Promise.all(
      queued.map(async ({ id, i }) => {
        const [viaA, viaB] = await Promise.all(apis.map((api) => request(api.base, 'GET', `/v1/session/${id}/status`, { token: people[i].idToken })));
        expect(viaA.body).toEqual(viaB.body);
        return viaA.body.queue_position as number;
      }),
    );
    expect([...positions].sort((x, y) => x - y)).toEqual(Array.from({ length: queued.length }, (_, k) => k + 1));
    const { rows: order } = await schema.pool.query(`SELECT id FROM sessions WHERE id = ANY($1::uuid[]) ORDER BY queued_at, id`, [queued.map((q) => q.id)]);
    expect(order.map((row: { id: string }) => positions[queued.findIndex((q) => q.id === row.id)])).toEqual([...positions].sort((x, y) => x - y));

    // nobody joins: the sweepers close the ready ones (not_joined), the queue moves up, and so on
    await waitFor(() => hosts.reduce((n, host) => n + host.started.size, 0) === USERS, 30_000, 'every session placed in the end');
    await waitFor(async () => {
      const { rows } = await schema.pool.query(`SELECT count(*)::int AS n FROM sessions WHERE id = ANY($1::uuid[]) AND state = 'closed'`, [ids]);
      return rows[0].n === USERS;
    }, 30_000, 'every session closed');

    for (const id of ids) {
      const history = await events(id);
      // allocated once, closed once
      expect(history.filter((e) => e.to_state === 'allocating')).toHaveLength(1);
      expect(history.filter((e) => e.to_state === 'closing')).toHaveLength(1);
      expect(history.filter((e) => e.to_state === 'closed')).toHaveLength(1);
      const stops = hosts.flatMap((host) => host.stopped.filter((s) => s.sessionId === id));
      expect(stops).toEqual([{ sessionId: id, reason: 'not_joined' }]);
    }
    // no host ever held more than its capacity at once
    const { rows: peaks } = await schema.pool.query(
      `SELECT s.host_id, max(n)::int AS peak FROM (
         SELECT e.session_id, s.host_id, sum(CASE WHEN e.to_state = 'allocating' THEN 1 WHEN e.to_state = 'closed' THEN -1 ELSE 0 END)
           OVER (PARTITION BY s.host_id ORDER BY e.id) AS n
         FROM session_events e JOIN sessions s ON s.id = e.session_id WHERE s.id = ANY($1::uuid[])) s
       GROUP BY s.host_id`,
      [ids],
    );
    expect(peaks).toHaveLength(HOSTS);
    for (const peak of peaks) expect(peak.peak).toBeLessThanOrEqual(CAPACITY);
  });

  it('spreads as many concurrent starts as there are hosts one on each, round after round', async () => {
    const ROUNDS = 20;
    for (let round = 0; round < ROUNDS; round++) {
      const people = await Promise.all(Array.from({ length: HOSTS }, () => users.email()));
      const before = hosts.map((host) => host.started.size);
      // Each start drains on its replica; the other replica's drain runs at the same time.
      const started = await Promise.all(people.map((user, i) => request(apis[(i + round) % 2].base, 'GET', `/v1/game/${GAME}/start`, { token: user.idToken })));
      expect(started.map((answer) => answer.status)).toEqual(Array(HOSTS).fill(200));
      await waitFor(() => hosts.reduce((n, host, i) => n + host.started.size - before[i], 0) >= HOSTS, 10_000, 'every start placed');
      expect({ round, placed: hosts.map((host, i) => host.started.size - before[i]) }).toEqual({ round, placed: Array(HOSTS).fill(1) });
      await Promise.all(started.map((answer, i) => request(apis[i % 2].base, 'GET', `/v1/session/${answer.body.game_session_id}/force_close`, { token: people[i].idToken })));
      await waitFor(async () => {
        const { rows } = await schema.pool.query(`SELECT count(*)::int AS n FROM sessions WHERE id = ANY($1::uuid[]) AND state = 'closed'`, [started.map((a) => a.body.game_session_id)]);
        return rows[0].n === HOSTS;
      }, 10_000, 'the round closed');
    }
  });
});
