/**
 * The host's Agones fleet against the SDK's wire contract: a real gRPC server serving the
 * @google-cloud/agones-sdk package's own generated service definitions (./agones-sdk-server.ts)
 * stands in for the sidecar, and a real agent (Chromium runtimes, the fake api of
 * ../testing/fake-api.ts for the api registry it keeps) runs with HOST_FLEET=agones against it:
 * the counter's capacity before Ready, Ready once the warm pool is up and the api knows the host,
 * Health pings, the `sessions` counter (and Allocate, the label, Ready again) as a session starts
 * and ends, Shutdown only after the sessions ended on stop, and a GameServer that Agones moves to
 * Shutdown draining the agent.
 */
import { startTestHost, until, type TestHost } from '../testing/harness';
import { loadHostConfig } from '../config';
import { FakeAgonesSidecar } from './agones-sdk-server';

jest.setTimeout(120_000);

const methods = (sdk: FakeAgonesSidecar) => sdk.calls.map((c) => c.method).filter((m) => m !== 'SetLabel' && m !== 'WatchGameServer' && m !== 'GetGameServer');

describe('config', () => {
  it('HOST_FLEET defaults to api and accepts only api or agones; the SDK port comes from AGONES_SDK_GRPC_PORT', () => {
    expect(loadHostConfig({}).fleet).toBe('api');
    expect(loadHostConfig({}).agones.sdkPort).toBe(9357);
    expect(loadHostConfig({ HOST_FLEET: 'agones', AGONES_SDK_GRPC_PORT: '9400' })).toMatchObject({ fleet: 'agones', agones: { sdkPort: 9400 } });
    expect(() => loadHostConfig({ HOST_FLEET: 'k8s' })).toThrow(/HOST_FLEET/);
  });
});

describe('a host under Agones', () => {
  let sdk: FakeAgonesSidecar;
  let host: TestHost;
  const hostId = `gs-test-${process.pid}`;

  beforeAll(async () => {
    sdk = await new FakeAgonesSidecar(hostId).listen();
    host = await startTestHost({
      HOST_ID: hostId,
      HOST_FLEET: 'agones',
      AGONES_SDK_GRPC_PORT: String(sdk.port),
      HOST_AGONES_HEALTH_MS: '200',
      HOST_CAPACITY: '2',
      HOST_WARM_POOL: '1',
    });
  });

  afterAll(async () => {
    await host?.stop().catch(() => undefined);
    await sdk?.close();
  });

  it('sets the sessions counter capacity, then says Ready once warm and registered, and pings Health', async () => {
    await until(() => sdk.callsTo('Ready').length === 1, 'Ready', 60_000);
    expect(host.agent.fleet?.kind).toBe('api+agones');
    // the capacity came first: the allocator never sees a Ready GameServer with no room
    const capacityAt = sdk.calls.findIndex((c) => c.method === 'UpdateCounter' && c.body.capacity === 2);
    const readyAt = sdk.calls.findIndex((c) => c.method === 'Ready');
    expect(capacityAt).toBeGreaterThanOrEqual(0);
    expect(capacityAt).toBeLessThan(readyAt);
    expect(sdk.counters.get('sessions')).toEqual({ count: 0, capacity: 2 });
    // Ready only with a warm runtime and the api's registration in
    expect(host.agent.pool.stats().warm).toBeGreaterThanOrEqual(1);
    expect(host.api.callsTo(/^POST \/internal\/hosts\/register$/).length).toBeGreaterThanOrEqual(1);
    expect(sdk.state).toBe('Ready');
    const pings = sdk.healthPings;
    await until(() => sdk.healthPings >= pings + 3, 'health pings', 5_000);
  });

  it('counts a session in the sessions counter (Allocated, labelled) and frees it when it ends (Ready again)', async () => {
    const sid = 'agones-s1';
    expect((await host.startSession(sid)).status).toBe(202);
    await until(() => sdk.counters.get('sessions')?.count === 1, 'count 1', 10_000);
    await until(() => sdk.state === 'Allocated', 'Allocated', 5_000);
    await until(() => sdk.labels.get('agones.dev/sdk-sessions') === '1', 'label 1', 5_000);
    expect(sdk.callsTo('Allocate')).toHaveLength(1);
    await until(() => host.api.states(sid).includes('ready'), 'session ready', 30_000);

    expect((await host.request('DELETE', `/sessions/${sid}?reason=user`)).status).toBe(200);
    await until(() => sdk.counters.get('sessions')?.count === 0, 'count 0', 10_000);
    await until(() => sdk.callsTo('Ready').length === 2, 'Ready again', 5_000);
    expect(sdk.state).toBe('Ready');
    // the host sends Ready() and then the label (agones.ts): the label may land a moment after Ready
    await until(() => sdk.labels.get('agones.dev/sdk-sessions') === '0', 'label 0', 5_000);
    expect(sdk.labels.get('agones.dev/sdk-sessions')).toBe('0');
    expect(sdk.callsTo('UpdateCounter').every((c) => c.body.countDiff === undefined)).toBe(true);
  });

  it('on stop: Shutdown only after the running session ended, and no more health pings', async () => {
    const sid = 'agones-s2';
    expect((await host.startSession(sid)).status).toBe(202);
    await until(() => sdk.counters.get('sessions')?.count === 1, 'count 1', 10_000);
    await host.stop();
    const shutdowns = sdk.callsTo('Shutdown');
    expect(shutdowns).toHaveLength(1);
    // the session's end was reported to the api before the GameServer was told to go
    // the session had ended (saved, bye, runtime released) before the GameServer was told to go
    const ended = host.agent.sessions.get(sid);
    expect(ended?.endedAt).toEqual(expect.any(Number));
    expect(ended!.endedAt!).toBeLessThanOrEqual(shutdowns[0].at);
    expect(sdk.counters.get('sessions')?.count).toBe(0);
    expect(methods(sdk).at(-1)).toBe('Shutdown');
    const pings = sdk.healthPings;
    await new Promise((r) => setTimeout(r, 600));
    expect(sdk.healthPings).toBe(pings);
  });
});

describe('a GameServer that Agones shuts down', () => {
  it('drains the agent (its state goes to stopped) and says Shutdown', async () => {
    const sdk = await new FakeAgonesSidecar('gs-drain').listen();
    // no warm runtime and no api: nothing but the SDK
    const host = await startTestHost(
      { HOST_ID: 'gs-drain', HOST_FLEET: 'agones', AGONES_SDK_GRPC_PORT: String(sdk.port), HOST_WARM_POOL: '0', HOST_REGISTER: '0' },
    );
    try {
      await until(() => sdk.callsTo('Ready').length === 1, 'Ready', 30_000);
      expect(host.agent.fleet?.kind).toBe('agones');
      sdk.setState('Shutdown');
      await until(() => host.agent.state() === 'stopped', 'agent stopped', 20_000);
      expect(sdk.callsTo('Shutdown').length).toBeGreaterThanOrEqual(1);
    } finally {
      await host.stop().catch(() => undefined);
      await sdk.close();
    }
  });
});
