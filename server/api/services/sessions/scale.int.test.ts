/**
 * What the periodic calls cost PostgreSQL (issue 14, docs/scale.md), against a real PostgreSQL and
 * fake hosts: a heartbeat is one statement and one row version in the usual case and still fails
 * the sessions a host no longer lists; a host-state refresh that changes nothing writes nothing;
 * input-activity reports are written at most once per window per session, the latest time at
 * the window's end, and refused as before for a session that is not the host's. Statements are
 * counted on the app's own pool connections (pg.Client#query), row versions by `xmin`.
 */
import pg from 'pg';
import { FakeHost } from '../../testing/fake-host';
import { request, sleep, startSessionApp, TEST_HOST_SECRET, TestUsers, waitFor, type SessionTestApp } from '../../testing/sessions';
import { createTestSchema, type TestSchema } from '../../testing/test-app';
import type { SessionConfig } from '../sessionConfig';
import { refreshHostState } from './hostStore';

jest.setTimeout(60_000);

const GAME = 'hoshifuru-toshokan';
const WINDOW_MS = 600;

let schema: TestSchema;
let api: SessionTestApp;
const users = new TestUsers();
const hosts: FakeHost[] = [];

/** Statements sent on connections other than the test's own pool, while `fn` runs. */
const ours = new WeakSet<object>();
async function statementsDuring(fn: () => Promise<unknown>): Promise<string[]> {
  await api.app.sessions.settle(); // background work of earlier calls (drains) is not counted
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = proto.query;
  const seen: string[] = [];
  proto.query = function (this: object, ...args: unknown[]) {
    if (!ours.has(this)) {
      const first = args[0];
      const sql = typeof first === 'string' ? first : (first as { text?: string } | undefined)?.text;
      if (sql) seen.push(sql.trim().split(/\s+/).slice(0, 3).join(' '));
    }
    return original.apply(this, args);
  };
  try {
    await fn();
    await api.app.sessions.settle();
  } finally {
    proto.query = original;
  }
  return seen;
}

/** A registered fake host (shut down and closed after the test). */
async function host(id: string, capacity: number): Promise<FakeHost> {
  const created = await new FakeHost({ id, capacity, secret: TEST_HOST_SECRET, apiBase: api.base }).listen();
  hosts.push(created);
  expect((await created.register()).status).toBe(200);
  return created;
}

/** A playing session placed on `on` (the only host with a free slot, or the first by the allocation's order). */
async function playingSession(on: FakeHost): Promise<{ id: string; token: string }> {
  const user = await users.email();
  const started = await request(api.base, 'GET', `/v1/game/${GAME}/start`, { token: user.idToken });
  expect(started.status).toBe(200);
  const id = started.body.game_session_id as string;
  await waitFor(async () => (await request(api.base, 'GET', `/v1/session/${id}/status`, { token: user.idToken })).body.session_state === 'ready', 5_000, 'ready');
  const { rows } = await schema.pool.query('SELECT host_id FROM sessions WHERE id = $1', [id]);
  expect(rows[0].host_id).toBe(on.id);
  expect((await on.report(id, 'playing')).status).toBe(200);
  return { id, token: user.idToken };
}

async function xminOf(table: 'hosts' | 'sessions', id: string): Promise<string> {
  const { rows } = await schema.pool.query(`SELECT xmin::text AS v FROM ${table} WHERE id = $1`, [id]);
  return rows[0].v;
}

async function lastInputMs(id: string): Promise<number | null> {
  const { rows } = await schema.pool.query<{ at: Date | null }>('SELECT last_input_at AS at FROM sessions WHERE id = $1', [id]);
  return rows[0].at ? rows[0].at.getTime() : null;
}

beforeAll(async () => {
  schema = await createTestSchema('scale');
  schema.pool.on('connect', (client) => ours.add(client));
  api = await startSessionApp(schema.name, { sweeper: false, inputActivityWriteMs: WINDOW_MS, runtimeLostGraceMs: 0 } as Partial<SessionConfig>);
});

// Each test places its sessions on the hosts it registers: the earlier tests' hosts leave.
afterEach(async () => {
  for (const h of hosts.splice(0)) {
    await h.call('POST', `/internal/hosts/${h.id}/shutdown`, {});
    await h.close();
  }
  await api.app.sessions.settle();
});

afterAll(async () => {
  await Promise.allSettled(hosts.map((h) => h.close()));
  await api?.close();
  await users.cleanup();
  await schema?.drop();
});

describe('heartbeat', () => {
  it('is one statement and one new row version of the host, and answers its sessions and state', async () => {
    const h = await host('scale-h1', 2);
    const session = await playingSession(h);
    const before = await xminOf('hosts', h.id);
    let answer: Awaited<ReturnType<FakeHost['heartbeat']>> | undefined;
    const sent = await statementsDuring(async () => {
      answer = await h.heartbeat({ sessionIds: [session.id] });
    });
    expect(answer?.status).toBe(200);
    expect(answer?.body).toEqual({ status: 'ok', state: 'Allocated', sessions: [session.id] });
    expect(sent).toHaveLength(1);
    expect(await xminOf('hosts', h.id)).not.toBe(before);
    const { rows } = await schema.pool.query('SELECT reported_active, last_heartbeat_at > now() - interval \'5 seconds\' AS fresh FROM hosts WHERE id = $1', [h.id]);
    expect(rows[0]).toEqual({ reported_active: 1, fresh: true });
  });

  it('still fails (runtime_lost) a session the host no longer lists, and leaves it out of the answer', async () => {
    const h = await host('scale-h2', 2);
    const kept = await playingSession(h);
    const lost = await playingSession(h);
    const answer = await h.heartbeat({ sessionIds: [kept.id] });
    expect(answer.body.sessions).toEqual([kept.id]);
    const { rows } = await schema.pool.query('SELECT state, failure_reason FROM sessions WHERE id = $1', [lost.id]);
    expect(rows[0]).toEqual({ state: 'failed', failure_reason: 'runtime_lost' });
    // the next heartbeat, with nothing missing, is one statement again
    const sent = await statementsDuring(() => h.heartbeat({ sessionIds: [kept.id] }));
    expect(sent).toHaveLength(1);
  });

  it('brings an Unhealthy host back (Ready without sessions) and keeps a Shutdown one Shutdown', async () => {
    const h = await host('scale-h3', 1);
    await schema.pool.query(`UPDATE hosts SET state = 'Unhealthy' WHERE id = $1`, [h.id]);
    expect((await h.heartbeat({ sessionIds: [] })).body).toEqual({ status: 'ok', state: 'Ready', sessions: [] });
    expect((await h.call('POST', `/internal/hosts/${h.id}/shutdown`, {})).status).toBe(200);
    expect((await h.heartbeat({ sessionIds: [] })).body).toEqual({ status: 'ok', state: 'Shutdown', sessions: [] });
  });

  it('answers 404 host_not_found for a host it does not know', async () => {
    const stranger = new FakeHost({ id: 'scale-nobody', capacity: 1, secret: TEST_HOST_SECRET, apiBase: api.base });
    const answer = await stranger.heartbeat({ sessionIds: [] });
    expect(answer.status).toBe(404);
    expect(answer.body.error.code).toBe('host_not_found');
  });
});

describe('host state refresh', () => {
  it('writes the host row only when its state changes', async () => {
    const h = await host('scale-h4', 1);
    const before = await xminOf('hosts', h.id);
    await refreshHostState(schema.pool, h.id); // Ready, no sessions: nothing to change
    expect(await xminOf('hosts', h.id)).toBe(before);
    await schema.pool.query(`UPDATE hosts SET state = 'Allocated' WHERE id = $1`, [h.id]);
    const allocated = await xminOf('hosts', h.id);
    await refreshHostState(schema.pool, h.id); // no sessions: back to Ready
    expect(await xminOf('hosts', h.id)).not.toBe(allocated);
    const { rows } = await schema.pool.query('SELECT state FROM hosts WHERE id = $1', [h.id]);
    expect(rows[0].state).toBe('Ready');
  });
});

describe('input activity', () => {
  it('writes the first report at once, keeps the next ones and writes the latest at the end of the window', async () => {
    const h = await host('scale-h5', 2);
    const session = await playingSession(h);
    const t1 = Date.now() - 3_000;
    expect((await h.call('POST', `/internal/sessions/${session.id}/input-activity`, { at: t1 })).status).toBe(200);
    expect(await lastInputMs(session.id)).toBe(t1);

    const t2 = t1 + 1_000;
    const t3 = t1 + 2_000;
    const sent = await statementsDuring(async () => {
      expect((await h.call('POST', `/internal/sessions/${session.id}/input-activity`, { at: t3 })).status).toBe(200);
      expect((await h.call('POST', `/internal/sessions/${session.id}/input-activity`, { at: t2 })).status).toBe(200);
    });
    expect(sent).toHaveLength(0);
    expect(await lastInputMs(session.id)).toBe(t1);
    await waitFor(async () => (await lastInputMs(session.id)) === t3, WINDOW_MS * 4, 'the kept time written');

    // the window after a write keeps reports again; a quiet window ends it, and the next report is written at once
    await sleep(WINDOW_MS * 2.5);
    const t4 = Date.now();
    expect((await h.call('POST', `/internal/sessions/${session.id}/input-activity`, { at: t4 })).status).toBe(200);
    expect(await lastInputMs(session.id)).toBe(t4);
  });

  it('refuses a session that is not the host\'s (404), also inside another host\'s window', async () => {
    const h = await host('scale-h6', 1);
    const other = await host('scale-h7', 1);
    const session = await playingSession(h);
    expect((await h.call('POST', `/internal/sessions/${session.id}/input-activity`, { at: Date.now() })).status).toBe(200);
    const refused = await other.call('POST', `/internal/sessions/${session.id}/input-activity`, { at: Date.now() });
    expect(refused.status).toBe(404);
    expect(refused.body.error.code).toBe('session_not_found');
    const unknown = await h.call('POST', '/internal/sessions/00000000-0000-4000-8000-000000000001/input-activity', {});
    expect(unknown.status).toBe(404);
  });
});
