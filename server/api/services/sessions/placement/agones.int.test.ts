/**
 * The Agones placement against the allocator service's documented wire contract, with a real
 * PostgreSQL, a real api and a fake host (../../../testing/fake-host.ts) registered under its
 * GameServer's name: a real HTTPS allocator stand-in (server/api/testing/fake-allocator.ts) that requires the api's
 * client certificate (mTLS) receives the AllocationRequest JSON (namespace, the Fleet's label, the
 * `sessions` counter selector with room, the counter's Increment), and answers a GameServer whose
 * address and port the api calls POST /sessions at, or UnAllocated (429), which leaves the session
 * queued at the head until the allocator has a GameServer. A host that refuses the start follows
 * the registry path's rules (back to the queue, failed host_unavailable after the last attempt);
 * a GameServer the registry does not know is not used; without certificates plain HTTP works.
 */
import { rm } from 'node:fs/promises';
import { FakeHost } from '../../../testing/fake-host';
import { request, sleep, startSessionApp, TEST_HOST_SECRET, TestUsers, waitFor, type SessionTestApp } from '../../../testing/sessions';
import { createTestSchema, type TestSchema } from '../../../testing/test-app';
import { loadSessionConfig, type AgonesAllocatorConfig } from '../../sessionConfig';
import { HOST_COOLDOWN_MS, MAX_ALLOCATION_ATTEMPTS } from '../allocation';
import { FakeAllocator, makeTestPki, type TestPki } from '../../../testing/fake-allocator';

jest.setTimeout(60_000);

const GAME = 'hoshifuru-toshokan';

function setup(prefix: string, tls: boolean) {
  const ctx = {
    schema: undefined as unknown as TestSchema,
    api: undefined as unknown as SessionTestApp,
    allocator: undefined as unknown as FakeAllocator,
    pki: null as TestPki | null,
    users: new TestUsers(),
    hosts: [] as FakeHost[],
    async host(id: string, capacity: number, registerUrl?: string): Promise<FakeHost> {
      const host = await new FakeHost({ id, capacity, secret: TEST_HOST_SECRET, apiBase: ctx.api.base }).listen();
      ctx.hosts.push(host);
      const real = host.url;
      if (registerUrl) host.url = registerUrl;
      expect((await host.register()).status).toBe(200);
      host.url = real;
      return host;
    },
    gameServer(host: FakeHost) {
      return { gameServerName: host.id, address: '127.0.0.1', ports: [{ name: 'default', port: Number(new URL(host.url).port) }] };
    },
    async start(): Promise<{ id: string; token: string }> {
      const user = await ctx.users.email();
      const answer = await request(ctx.api.base, 'GET', `/v1/game/${GAME}/start`, { token: user.idToken });
      expect(answer.status).toBe(200);
      return { id: answer.body.game_session_id, token: user.idToken };
    },
    async row(id: string): Promise<{ state: string; host_id: string | null; allocation_attempts: number; failure_reason: string | null }> {
      const { rows } = await ctx.schema.pool.query('SELECT state, host_id, allocation_attempts, failure_reason FROM sessions WHERE id = $1', [id]);
      return rows[0];
    },
  };
  beforeAll(async () => {
    ctx.pki = tls ? makeTestPki() : null;
    ctx.allocator = await new FakeAllocator(ctx.pki).listen();
    const agonesAllocator: AgonesAllocatorConfig = {
      url: ctx.allocator.url,
      namespace: 'games',
      fleet: 'yumecast-host',
      portName: 'default',
      timeoutMs: 2_000,
      ...(ctx.pki ? { clientCertFile: ctx.pki.clientCertFile, clientKeyFile: ctx.pki.clientKeyFile, caFile: ctx.pki.caFile } : {}),
    };
    ctx.schema = await createTestSchema(prefix);
    ctx.api = await startSessionApp(ctx.schema.name, { agonesAllocator });
  });
  afterAll(async () => {
    await Promise.allSettled(ctx.hosts.map((host) => host.close()));
    await ctx.api?.close();
    await ctx.allocator?.close();
    await ctx.users.cleanup();
    await ctx.schema?.drop();
    if (ctx.pki) await rm(ctx.pki.dir, { recursive: true, force: true });
  });
  return ctx;
}

describe('config', () => {
  it('reads the allocator settings from the environment; unset = the PostgreSQL registry', () => {
    expect(loadSessionConfig({}).agonesAllocator).toBeUndefined();
    expect(
      loadSessionConfig({
        AGONES_ALLOCATOR_URL: 'https://agones-allocator.agones-system.svc:443/',
        AGONES_ALLOCATOR_CLIENT_CERT: '/certs/tls.crt',
        AGONES_ALLOCATOR_CLIENT_KEY: '/certs/tls.key',
        AGONES_ALLOCATOR_CA_CERT: '/certs/ca.crt',
        AGONES_NAMESPACE: 'games',
        AGONES_FLEET: 'hosts',
        AGONES_HOST_PORT_NAME: 'agent',
        AGONES_ALLOCATOR_TIMEOUT_MS: '3000',
      }).agonesAllocator,
    ).toEqual({
      url: 'https://agones-allocator.agones-system.svc:443',
      clientCertFile: '/certs/tls.crt',
      clientKeyFile: '/certs/tls.key',
      caFile: '/certs/ca.crt',
      namespace: 'games',
      fleet: 'hosts',
      portName: 'agent',
      timeoutMs: 3000,
    });
    expect(() => loadSessionConfig({ AGONES_ALLOCATOR_URL: 'https://a', AGONES_ALLOCATOR_CLIENT_CERT: '/c' })).toThrow(/together/);
    expect(() => loadSessionConfig({ AGONES_ALLOCATOR_URL: 'ftp://a' })).toThrow(/AGONES_ALLOCATOR_URL/);
  });
});

describe('placement through the Agones allocator (mTLS)', () => {
  const ctx = setup('agones_alloc', true);

  it('asks the allocator for a GameServer of the Fleet with room in its sessions counter, then starts at its address', async () => {
    // registered with an address nobody listens at: the start must go where the allocator says
    const host = await ctx.host('gs-aaaa1', 4, 'http://127.0.0.1:9');
    ctx.allocator.script.push(ctx.gameServer(host));
    const { id } = await ctx.start();
    await waitFor(() => host.started.has(id), 5_000, 'start on the allocated host');
    await waitFor(async () => ((await ctx.row(id)).state === 'ready' ? true : null), 5_000, 'ready');
    expect((await ctx.row(id)).host_id).toBe('gs-aaaa1');

    const [req] = ctx.allocator.requests;
    expect(req.path).toBe('/gameserverallocation');
    expect(req.clientCn).toBe('yumecast-api');
    const selector = { matchLabels: { 'agones.dev/fleet': 'yumecast-host' }, counters: { sessions: { minAvailable: 1 } } };
    expect(req.body).toEqual({
      namespace: 'games',
      gameServerSelectors: [
        { gameServerState: 'ALLOCATED', ...selector },
        { gameServerState: 'READY', ...selector },
      ],
      scheduling: 'Packed',
      priorities: [{ type: 'Counter', key: 'sessions', order: 'Ascending' }],
      counters: { sessions: { action: 'Increment', amount: 1 } },
      metadata: { annotations: { 'yumecast.dev/last-session': id } },
    });
    const { rows } = await ctx.schema.pool.query('SELECT state FROM hosts WHERE id = $1', ['gs-aaaa1']);
    expect(rows[0].state).toBe('Allocated');
  });

  it('UnAllocated (429) keeps the session queued, uncounted, and it is placed once a GameServer is free', async () => {
    const host = ctx.hosts[0];
    ctx.allocator.script.push('unallocated', 'unallocated');
    const before = ctx.allocator.requests.length;
    const { id } = await ctx.start();
    await waitFor(() => ctx.allocator.requests.length >= before + 2, 5_000, 'two allocation attempts');
    expect(await ctx.row(id)).toMatchObject({ state: 'queued', host_id: null, allocation_attempts: 0 });
    expect(host.started.has(id)).toBe(false);
    ctx.allocator.script.push(ctx.gameServer(host));
    await waitFor(() => host.started.has(id), 5_000, 'placed after the allocator had room');
    expect((await ctx.row(id)).allocation_attempts).toBe(1);
  });

  it('a GameServer the registry does not know as a live host is not used', async () => {
    const before = ctx.allocator.requests.length;
    ctx.allocator.script.push({ gameServerName: 'gs-unknown', address: '127.0.0.1', ports: [{ name: 'default', port: 9 }] });
    const { id } = await ctx.start();
    await waitFor(() => ctx.allocator.requests.length >= before + 2, 5_000, 'asked again');
    // the fallback answer is UnAllocated: the session waits
    expect(await ctx.row(id)).toMatchObject({ state: 'queued', host_id: null });
    ctx.allocator.script.push(ctx.gameServer(ctx.hosts[0]));
    await waitFor(() => ctx.hosts[0].started.has(id), 5_000, 'placed on a known host');
  });

  it('a host that refuses the start: back to the queue, failed host_unavailable after the last attempt', async () => {
    const host = await ctx.host('gs-refuser', 2);
    host.startStatus = 503;
    ctx.allocator.fallback = ctx.gameServer(host);
    try {
      const t0 = Date.now();
      const { id } = await ctx.start();
      const row = await waitFor(async () => {
        const r = await ctx.row(id);
        return r.state === 'failed' ? r : null;
      }, 30_000, 'failed');
      expect(row).toMatchObject({ failure_reason: 'host_unavailable', allocation_attempts: MAX_ALLOCATION_ATTEMPTS });
      expect(host.started.size).toBe(0);
      // the refusing GameServer was left alone for its cooldown between attempts, as in the registry path
      expect(Date.now() - t0).toBeGreaterThanOrEqual(HOST_COOLDOWN_MS * (MAX_ALLOCATION_ATTEMPTS - 1));
    } finally {
      ctx.allocator.fallback = 'unallocated';
    }
  });
});

describe('placement through the Agones allocator (plain HTTP, no certificates)', () => {
  const ctx = setup('agones_http', false);

  it('posts the same request without TLS and places the session', async () => {
    const host = await ctx.host('gs-http1', 1);
    ctx.allocator.script.push(ctx.gameServer(host));
    const { id } = await ctx.start();
    await waitFor(() => host.started.has(id), 5_000, 'start');
    expect(ctx.allocator.requests[0].clientCn).toBeNull();
    expect(ctx.allocator.requests[0].body).toMatchObject({ namespace: 'games', counters: { sessions: { action: 'Increment', amount: 1 } } });
    await sleep(50);
  });
});
