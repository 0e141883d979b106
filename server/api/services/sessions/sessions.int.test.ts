/**
 * The session service against a real PostgreSQL and fake hosts (testing/fake-host.ts): the host
 * registry, queueing and spreading, refusals, saves and resume, lost hosts, the idle, join,
 * start, abandon and runtime-lost rules, and an api restart (docs/sessions.md 1, 3 and 4).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FakeHost } from '../../testing/fake-host';
import { request, sleep, startSessionApp, TEST_HOST_SECRET, TestUsers, waitFor, type SessionTestApp } from '../../testing/sessions';
import { createTestSchema, type TestSchema } from '../../testing/test-app';
import type { SessionConfig } from '../sessionConfig';

jest.setTimeout(60_000);

const GAME = 'hoshifuru-toshokan';

/** One schema + app + helpers per describe block (each block has its own timings). */
function setup(prefix: string, sessions: Partial<SessionConfig> = {}) {
  const ctx = {
    schema: undefined as unknown as TestSchema,
    api: undefined as unknown as SessionTestApp,
    users: new TestUsers(),
    hosts: [] as FakeHost[],
    async host(id: string, capacity: number, options: { register?: boolean; autoReady?: boolean } = {}): Promise<FakeHost> {
      const host = await new FakeHost({ id, capacity, secret: TEST_HOST_SECRET, apiBase: ctx.api.base, autoReady: options.autoReady }).listen();
      ctx.hosts.push(host);
      if (options.register !== false) expect((await host.register()).status).toBe(200);
      return host;
    },
    get(url: string, token?: string) {
      return request(ctx.api.base, 'GET', url, { token });
    },
    async start(token: string, game = GAME): Promise<string> {
      const answer = await ctx.get(`/v1/game/${game}/start`, token);
      expect(answer.status).toBe(200);
      return answer.body.game_session_id;
    },
    async status(id: string, token: string) {
      return (await ctx.get(`/v1/session/${id}/status`, token)).body;
    },
    async waitState(id: string, token: string, state: string, timeoutMs = 5_000) {
      return waitFor(async () => {
        const body = await ctx.status(id, token);
        return body.session_state === state ? body : null;
      }, timeoutMs, `${id} ${state}`);
    },
    async hostOf(id: string): Promise<string | null> {
      const { rows } = await ctx.schema.pool.query('SELECT host_id FROM sessions WHERE id = $1', [id]);
      return rows[0]?.host_id ?? null;
    },
    async hostState(id: string): Promise<string> {
      const { rows } = await ctx.schema.pool.query('SELECT state FROM hosts WHERE id = $1', [id]);
      return rows[0]?.state;
    },
    async holding(hostId: string): Promise<number> {
      const { rows } = await ctx.schema.pool.query(
        `SELECT count(*)::int AS n FROM sessions WHERE host_id = $1 AND state IN ('allocating','starting','ready','playing','closing')`,
        [hostId],
      );
      return rows[0].n;
    },
  };
  beforeAll(async () => {
    ctx.schema = await createTestSchema(prefix);
    ctx.api = await startSessionApp(ctx.schema.name, sessions);
  });
  afterAll(async () => {
    await Promise.allSettled(ctx.hosts.map((host) => host.close()));
    await ctx.api?.close();
    await ctx.users.cleanup();
    await ctx.schema?.drop();
  });
  return ctx;
}

describe('host registry', () => {
  const ctx = setup('registry');

  it('requires the shared secret (constant-time compared) on every internal route', async () => {
    const routes: [string, string, unknown][] = [
      ['POST', '/internal/hosts/register', { hostId: 'h', url: 'http://127.0.0.1:1', capacity: 1 }],
      ['POST', '/internal/hosts/h/heartbeat', { activeSessions: 0, warm: 0 }],
      ['POST', '/internal/hosts/h/shutdown', {}],
      ['POST', '/internal/sessions/00000000-0000-4000-8000-000000000000/state', { state: 'ready' }],
      ['POST', '/internal/sessions/00000000-0000-4000-8000-000000000000/input-activity', {}],
    ];
    for (const [method, url, body] of routes) {
      for (const headers of [{}, { 'x-host-secret': 'wrong' }, { 'x-host-secret': `${TEST_HOST_SECRET}x` }] as Record<string, string>[]) {
        const answer = await request(ctx.api.base, method, url, { body, headers });
        expect(answer.status).toBe(401);
        expect(answer.body.error.code).toBe('unauthorized');
      }
    }
  });

  it('registers, heartbeats and shuts hosts down with Agones-like states', async () => {
    const host = await ctx.host('host-r1', 2, { register: false });
    const registered = await host.register();
    expect(registered.body).toEqual({ status: 'ok', state: 'Ready', heartbeatIntervalMs: 20_000, heartbeatTimeoutMs: 60_000 });
    expect(await ctx.hostState('host-r1')).toBe('Ready');

    const user = await ctx.users.email();
    const id = await ctx.start(user.idToken);
    await ctx.waitState(id, user.idToken, 'ready');
    expect(await ctx.hostState('host-r1')).toBe('Allocated');
    const beat = await host.heartbeat();
    expect(beat.body).toEqual({ status: 'ok', state: 'Allocated', sessions: [id] });

    // Shutdown: live sessions fail (the player is told), no new ones go there.
    expect((await host.call('POST', '/internal/hosts/host-r1/shutdown', {})).body).toEqual({ status: 'ok', state: 'Shutdown' });
    expect(await ctx.status(id, user.idToken)).toEqual({ status: 'ok', session_state: 'failed', failure_reason: 'host_shutdown' });
    expect((await host.heartbeat()).body).toEqual({ status: 'ok', state: 'Shutdown', sessions: [] });
    const next = await ctx.start(user.idToken);
    await sleep(300);
    expect(await ctx.status(next, user.idToken)).toEqual({ status: 'ok', session_state: 'queued', queue_position: 1 });

    // Registering again: Ready, and the queued session goes there.
    await host.register();
    await ctx.waitState(next, user.idToken, 'ready');
    // Registering once more means the host restarted: its sessions are gone.
    await host.register();
    expect(await ctx.status(next, user.idToken)).toEqual({ status: 'ok', session_state: 'failed', failure_reason: 'host_restarted' });
    expect(await ctx.hostState('host-r1')).toBe('Ready');
    await host.call('POST', '/internal/hosts/host-r1/shutdown', {});
  });

  it('answers 404 host_not_found to a heartbeat of an unknown host, and 400 to bad registrations', async () => {
    const stranger = await ctx.host('host-unknown', 1, { register: false });
    const beat = await stranger.heartbeat();
    expect(beat.status).toBe(404);
    expect(beat.body.error.code).toBe('host_not_found');
    for (const body of [
      { hostId: 'bad id!', url: stranger.url, capacity: 1 },
      { hostId: 'h', url: 'ftp://x', capacity: 1 },
      { hostId: 'h', url: stranger.url, capacity: -1 },
      { hostId: 'h', url: stranger.url },
    ]) {
      expect((await stranger.call('POST', '/internal/hosts/register', body)).status).toBe(400);
    }
  });

  it('only lets the session’s own host report on it, and refuses reports on ended sessions', async () => {
    const host = await ctx.host('host-r2', 1, { autoReady: false });
    const other = await ctx.host('host-r3', 0);
    const user = await ctx.users.email();
    const id = await ctx.start(user.idToken);
    await waitFor(() => host.started.has(id));

    const foreign = await other.report(id, 'ready');
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('session_not_found');
    expect((await host.call('POST', `/internal/sessions/${id}/state`, { state: 'bogus' })).status).toBe(400);
    expect((await host.call('POST', `/internal/sessions/${id}/state`, { state: 'failed', reason: 'Bad Reason' })).status).toBe(400);

    expect((await host.report(id, 'ready')).body).toEqual({ status: 'ok', session_state: 'ready' });
    // Late or repeated reports do not move it back.
    expect((await host.report(id, 'starting')).body).toEqual({ status: 'ok', session_state: 'ready' });
    expect((await host.report(id, 'playing')).body).toEqual({ status: 'ok', session_state: 'playing' });
    expect((await host.report(id, 'failed', 'runtime_crashed')).body).toEqual({ status: 'ok', session_state: 'failed' });
    expect(await ctx.status(id, user.idToken)).toEqual({ status: 'ok', session_state: 'failed', failure_reason: 'runtime_crashed' });
    // Ended: progress reports are refused (the host must stop), end reports are idempotent.
    const late = await host.report(id, 'ready');
    expect(late.status).toBe(409);
    expect(late.body.error.code).toBe('session_closed');
    expect((await host.report(id, 'closed')).status).toBe(200);
    expect(await ctx.holding('host-r2')).toBe(0);
  });
});

describe('queueing and spreading', () => {
  const ctx = setup('queue');

  it('queues when capacity is full and allocates in FIFO order when a slot frees', async () => {
    const host = await ctx.host('host-q1', 1);
    const [a, b, c] = [await ctx.users.email(), await ctx.users.email(), await ctx.users.email()];
    const sa = await ctx.start(a.idToken);
    await ctx.waitState(sa, a.idToken, 'ready');
    const sb = await ctx.start(b.idToken);
    const sc = await ctx.start(c.idToken);
    expect(await ctx.status(sb, b.idToken)).toEqual({ status: 'ok', session_state: 'queued', queue_position: 1 });
    expect(await ctx.status(sc, c.idToken)).toEqual({ status: 'ok', session_state: 'queued', queue_position: 2 });
    expect(host.started.has(sb)).toBe(false);

    await ctx.get(`/v1/session/${sa}/force_close`, a.idToken);
    await ctx.waitState(sb, b.idToken, 'ready');
    expect(await ctx.status(sc, c.idToken)).toEqual({ status: 'ok', session_state: 'queued', queue_position: 1 });

    // A queued session can be closed too (it never reaches a host).
    await ctx.get(`/v1/session/${sc}/force_close`, c.idToken);
    expect(await ctx.status(sc, c.idToken)).toEqual({ status: 'ok', session_state: 'closed' });
    await ctx.get(`/v1/session/${sb}/force_close`, b.idToken);
    expect(host.started.has(sc)).toBe(false);
    expect(await ctx.holding('host-q1')).toBe(0);
    expect(await ctx.hostState('host-q1')).toBe('Ready');
    await host.call('POST', '/internal/hosts/host-q1/shutdown', {});
  });

  it('spreads sessions across hosts (fewest active first) and never over capacity', async () => {
    const h1 = await ctx.host('host-s1', 2);
    const h2 = await ctx.host('host-s2', 2);
    const users = await Promise.all(Array.from({ length: 5 }, () => ctx.users.email()));
    const ids = await Promise.all(users.map((user) => ctx.start(user.idToken)));
    await waitFor(async () => (await ctx.holding('host-s1')) + (await ctx.holding('host-s2')) === 4, 5_000, 'four placed');
    expect(await ctx.holding('host-s1')).toBe(2);
    expect(await ctx.holding('host-s2')).toBe(2);
    expect(h1.started.size).toBe(2);
    expect(h2.started.size).toBe(2);
    const statuses = await Promise.all(ids.map((id, i) => ctx.status(id, users[i].idToken)));
    expect(statuses.filter((s) => s.session_state === 'queued')).toEqual([{ status: 'ok', session_state: 'queued', queue_position: 1 }]);
    await Promise.all(ids.map((id, i) => ctx.get(`/v1/session/${id}/force_close`, users[i].idToken)));
    await h1.close();
    await h2.close();
    await h1.call('POST', '/internal/hosts/host-s1/shutdown', {});
    await h2.call('POST', '/internal/hosts/host-s2/shutdown', {});
  });

  it('puts a session back at the head of the queue when a host refuses it', async () => {
    const bad = await ctx.host('host-a-bad', 1);
    bad.startStatus = 503;
    const good = await ctx.host('host-z-good', 1);
    const user = await ctx.users.email();
    const id = await ctx.start(user.idToken);
    await ctx.waitState(id, user.idToken, 'ready');
    expect(await ctx.hostOf(id)).toBe('host-z-good');
    const { rows } = await ctx.schema.pool.query('SELECT to_state, reason FROM session_events WHERE session_id = $1 ORDER BY id', [id]);
    expect(rows.slice(0, 4)).toEqual([
      { to_state: 'queued', reason: null },
      { to_state: 'allocating', reason: 'host-a-bad' },
      { to_state: 'queued', reason: 'host_refused' },
      { to_state: 'allocating', reason: 'host-z-good' },
    ]);
    await ctx.get(`/v1/session/${id}/force_close`, user.idToken);
    expect(good.stopped.map((s) => s.sessionId)).toContain(id);
    await bad.call('POST', '/internal/hosts/host-a-bad/shutdown', {});
    await good.call('POST', '/internal/hosts/host-z-good/shutdown', {});
  });

  it('keeps saves per user and title and hands the autosave to the next start', async () => {
    const host = await ctx.host('host-saves', 1);
    const user = await ctx.users.email();
    const first = await ctx.start(user.idToken);
    await ctx.waitState(first, user.idToken, 'ready');
    const auto = { ink: '{"flow":"main"}', scene: 'station', line: 42 };
    const saved = await host.call('POST', `/internal/sessions/${first}/saves`, { slot: 'auto', state: auto });
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({ status: 'ok', updatedAt: expect.any(String) });
    await host.call('POST', `/internal/sessions/${first}/saves`, { slot: '1', state: { line: 7 } });
    expect((await host.call('POST', `/internal/sessions/${first}/saves`, { slot: 'Bad Slot', state: {} })).status).toBe(400);
    expect((await host.call('POST', `/internal/sessions/${first}/saves`, { slot: 'auto', state: 'nope' })).status).toBe(400);
    const huge = await host.call('POST', `/internal/sessions/${first}/saves`, { slot: '2', state: { blob: 'x'.repeat(600 * 1024) } });
    expect(huge.status).toBe(413);
    await ctx.get(`/v1/session/${first}/force_close`, user.idToken);
    // The final autosave of a closing session is still accepted.
    expect((await host.call('POST', `/internal/sessions/${first}/saves`, { slot: 'auto', state: { ...auto, line: 43 } })).status).toBe(200);

    const second = await ctx.start(user.idToken);
    await ctx.waitState(second, user.idToken, 'ready');
    const body = host.started.get(second)!;
    expect(body.resumeState).toEqual({ ...auto, line: 43 });
    expect(body.saves.map((save) => save.slot).sort()).toEqual(['1', 'auto']);

    // Another title starts fresh.
    await ctx.get(`/v1/session/${second}/force_close`, user.idToken);
    const third = await ctx.start(user.idToken, 'hajimari-no-eki');
    await ctx.waitState(third, user.idToken, 'ready');
    expect(host.started.get(third)!.resumeState).toBeNull();

    // At most 32 slots per user and title.
    for (let slot = 0; slot < 32; slot++) {
      expect((await host.call('POST', `/internal/sessions/${third}/saves`, { slot: `s${slot}`, state: { slot } })).status).toBe(200);
    }
    const over = await host.call('POST', `/internal/sessions/${third}/saves`, { slot: 's32', state: {} });
    expect(over.status).toBe(409);
    expect((await host.call('POST', `/internal/sessions/${third}/saves`, { slot: 's0', state: { again: true } })).status).toBe(200);
    await ctx.get(`/v1/session/${third}/force_close`, user.idToken);
    await host.call('POST', '/internal/hosts/host-saves/shutdown', {});
  });
});

describe('a host that stops heartbeating', () => {
  const ctx = setup('lost', { hostHeartbeatTimeoutMs: 1_000, sweepIntervalMs: 100 });

  it('fails its sessions with host_lost, frees every slot, and gets no new sessions', async () => {
    const lost = await ctx.host('host-l1', 2);
    const alive = await ctx.host('host-l2', 2);
    lost.startHeartbeats(200);
    alive.startHeartbeats(200);
    const [a, b] = [await ctx.users.email(), await ctx.users.email()];
    const sa = await ctx.start(a.idToken);
    const sb = await ctx.start(b.idToken);
    await ctx.waitState(sa, a.idToken, 'ready');
    await ctx.waitState(sb, b.idToken, 'ready');
    const onLost = (await ctx.hostOf(sa)) === 'host-l1' ? { id: sa, user: a } : { id: sb, user: b };
    const onAlive = onLost.id === sa ? { id: sb, user: b } : { id: sa, user: a };
    expect(await ctx.hostOf(onLost.id)).toBe('host-l1');

    lost.stopHeartbeats();
    const failed = await ctx.waitState(onLost.id, onLost.user.idToken, 'failed', 5_000);
    expect(failed).toEqual({ status: 'ok', session_state: 'failed', failure_reason: 'host_lost' });
    expect(await ctx.hostState('host-l1')).toBe('Unhealthy');
    expect(await ctx.holding('host-l1')).toBe(0);
    // The other host's session is untouched.
    expect((await ctx.status(onAlive.id, onAlive.user.idToken)).session_state).toBe('ready');

    // New sessions go to the healthy host only.
    await ctx.get(`/v1/session/${onAlive.id}/force_close`, onAlive.user.idToken);
    const again = await ctx.start(onLost.user.idToken);
    await ctx.waitState(again, onLost.user.idToken, 'ready');
    expect(await ctx.hostOf(again)).toBe('host-l2');

    // The lost host comes back: Ready again, and told that it has no sessions (it stops its runtimes).
    const back = await lost.heartbeat();
    expect(back.body).toEqual({ status: 'ok', state: 'Ready', sessions: [] });
    await ctx.get(`/v1/session/${again}/force_close`, onLost.user.idToken);
    lost.stopHeartbeats();
    alive.stopHeartbeats();
  });
});

describe('idle, join and reconnect rules', () => {
  const ctx = setup('idle', {
    idleCloseMs: 700,
    readyJoinTimeoutMs: 500,
    startTimeoutMs: 600,
    queueAbandonMs: 500,
    reconnectGraceMs: 400,
    runtimeLostGraceMs: 0,
    sweepIntervalMs: 50,
  });

  it('closes a ready session nobody joined (not_joined) and tells the host', async () => {
    const host = await ctx.host('host-i1', 4);
    const user = await ctx.users.email();
    const id = await ctx.start(user.idToken);
    await ctx.waitState(id, user.idToken, 'ready');
    await ctx.waitState(id, user.idToken, 'closed', 3_000);
    expect(host.stopped).toContainEqual({ sessionId: id, reason: 'not_joined' });
    const { rows } = await ctx.schema.pool.query('SELECT close_reason FROM sessions WHERE id = $1', [id]);
    expect(rows[0].close_reason).toBe('not_joined');
  });

  it('keeps a session with input alive and closes it after the idle time without input', async () => {
    const host = ctx.hosts[0];
    const user = await ctx.users.email();
    const id = await ctx.start(user.idToken);
    await ctx.waitState(id, user.idToken, 'ready');
    await host.report(id, 'playing');
    for (let i = 0; i < 6; i++) {
      await sleep(250);
      expect((await host.call('POST', `/internal/sessions/${id}/input-activity`, { at: Date.now() })).status).toBe(200);
    }
    expect((await ctx.status(id, user.idToken)).session_state).toBe('playing');
    await ctx.waitState(id, user.idToken, 'closed', 3_000);
    expect(host.stopped).toContainEqual({ sessionId: id, reason: 'idle' });
  });

  it('fails a session whose host never gets it ready (start_timeout)', async () => {
    const host = ctx.hosts[0];
    host.autoReady = false;
    try {
      const user = await ctx.users.email();
      const id = await ctx.start(user.idToken);
      const failed = await ctx.waitState(id, user.idToken, 'failed', 3_000);
      expect(failed.failure_reason).toBe('start_timeout');
      await waitFor(() => host.stopped.some((s) => s.sessionId === id), 2_000, 'stop call');
    } finally {
      host.autoReady = true;
    }
  });

  it('closes a queued session nobody polls any more (abandoned)', async () => {
    const full = await ctx.users.email();
    const waiting = await ctx.users.email();
    // Fill every slot of every host, then queue one more.
    await ctx.hosts[0].call('POST', '/internal/hosts/host-i1/shutdown', {});
    const id = await ctx.start(waiting.idToken);
    expect((await ctx.status(id, waiting.idToken)).session_state).toBe('queued');
    await sleep(900);
    const { rows } = await ctx.schema.pool.query('SELECT state, close_reason FROM sessions WHERE id = $1', [id]);
    expect(rows[0]).toEqual({ state: 'closed', close_reason: 'abandoned' });
    expect(full).toBeDefined();
    await ctx.hosts[0].register();
  });

  it('fails sessions a host no longer lists in its heartbeat (runtime_lost)', async () => {
    const host = ctx.hosts[0];
    const user = await ctx.users.email();
    const id = await ctx.start(user.idToken);
    await ctx.waitState(id, user.idToken, 'ready');
    const listed = await host.heartbeat({ sessionIds: [id] });
    expect(listed.body.sessions).toEqual([id]);
    expect((await ctx.status(id, user.idToken)).session_state).toBe('ready');
    const missing = await host.heartbeat({ sessionIds: [] });
    expect(missing.body.sessions).toEqual([]);
    expect(await ctx.status(id, user.idToken)).toEqual({ status: 'ok', session_state: 'failed', failure_reason: 'runtime_lost' });
  });
});

describe('an api restart', () => {
  let schema: TestSchema;
  let secretDir: string;
  const users = new TestUsers();

  beforeAll(async () => {
    schema = await createTestSchema('restart');
    secretDir = await mkdtemp(path.join(tmpdir(), 'yc-secret-'));
  });
  afterAll(async () => {
    await users.cleanup();
    await schema?.drop();
    await rm(secretDir, { recursive: true, force: true });
  });

  it('keeps a running session: status, token, host reports, signal tokens and force_close all work on the new api', async () => {
    // No SIGNAL_SECRET: the secret lives in a file that survives the restart.
    const secretFile = path.join(secretDir, 'signal-secret');
    const timings = { signalSecret: undefined, signalSecretFile: secretFile, hostHeartbeatTimeoutMs: 2_000, sweepIntervalMs: 100 };
    const first = await startSessionApp(schema.name, timings);
    const port = first.port;
    const host = await new FakeHost({ id: 'host-restart', capacity: 2, secret: TEST_HOST_SECRET, apiBase: first.base }).listen();
    let second: SessionTestApp | undefined;
    try {
      await host.register();
      host.startHeartbeats(200);
      const user = await users.email();
      const started = await request(first.base, 'GET', `/v1/game/${GAME}/start`, { token: user.idToken });
      const id = started.body.game_session_id;
      await waitFor(async () => (await request(first.base, 'GET', `/v1/session/${id}/status`, { token: user.idToken })).body.session_state === 'ready');
      await host.report(id, 'playing');
      const before = await request(first.base, 'GET', `/v1/session/${id}/get_token`, { token: user.idToken });
      const secret = (await readFile(secretFile, 'utf8')).trim();
      expect(secret).toMatch(/^[0-9a-f]{64}$/);

      await first.close();
      // The api is down for a moment; the host keeps trying.
      await sleep(300);
      second = await startSessionApp(schema.name, timings, { port, config: { runMigrations: true } });
      expect(second.base).toBe(first.base);

      const status = await request(second.base, 'GET', `/v1/session/${id}/status`, { token: user.idToken });
      expect(status.body).toEqual({ status: 'ok', session_state: 'playing' });
      expect((await request(second.base, 'GET', '/v1/session/all', { token: user.idToken })).body.game_sessions).toEqual([{ id, game_id: GAME }]);
      // Tokens issued before the restart are still valid on the new process.
      const claims = await second.app.signalTokens.verify(before.body.webrtc_signal_token);
      expect(claims).toEqual({ sessionId: id, uid: user.uid, role: 'player' });
      const hostClaims = await second.app.signalTokens.verify(host.started.get(id)!.signalToken);
      expect(hostClaims.role).toBe('host');
      expect((await request(second.base, 'GET', `/v1/session/${id}/get_token`, { token: user.idToken })).status).toBe(200);
      // The host's reports and heartbeats land on the new process.
      expect((await host.call('POST', `/internal/sessions/${id}/input-activity`, {})).status).toBe(200);
      await sleep(2_500); // longer than the heartbeat timeout: the host must still be healthy
      expect((await request(second.base, 'GET', `/v1/session/${id}/status`, { token: user.idToken })).body.session_state).toBe('playing');
      const { rows } = await schema.pool.query(`SELECT state FROM hosts WHERE id = 'host-restart'`);
      expect(rows[0].state).toBe('Allocated');

      const closed = await request(second.base, 'GET', `/v1/session/${id}/force_close`, { token: user.idToken });
      expect(closed.status).toBe(200);
      expect(host.stopped).toContainEqual({ sessionId: id, reason: 'user' });
      expect((await request(second.base, 'GET', `/v1/session/${id}/status`, { token: user.idToken })).body.session_state).toBe('closed');
    } finally {
      host.stopHeartbeats();
      await host.close();
      await second?.close();
    }
  });
});
