/**
 * A test stand-in for the Agones SDK sidecar: a real gRPC server (the SDK package's own
 * @grpc/grpc-js) serving the package's generated service definitions — `agones.dev.sdk.SDK`
 * (lib/sdk_grpc_pb) and `agones.dev.sdk.beta.SDK` (lib/beta/beta_grpc_pb) — so the host's Agones
 * fleet is checked against the SDK's wire contract, not a mock of our own making. It records every
 * call, keeps the GameServer's state, labels and counters as the sidecar would (a counter's count
 * must stay within 0..capacity, else INVALID_ARGUMENT), and can push a GameServer state to
 * WatchGameServer streams (`setState('Shutdown')`). Listens on 127.0.0.1 only.
 */
import { createRequire } from 'node:module';
import path from 'node:path';

const sdkRequire = createRequire(require.resolve('@google-cloud/agones-sdk'));
/* eslint-disable @typescript-eslint/no-explicit-any -- the generated protobuf modules are untyped JS */
const grpc = sdkRequire('@grpc/grpc-js') as typeof import('@grpc/grpc-js');
const libDir = path.join(path.dirname(require.resolve('@google-cloud/agones-sdk')), '..', 'lib');
const sdkPb = sdkRequire(path.join(libDir, 'sdk_pb.js')) as any;
const sdkGrpc = sdkRequire(path.join(libDir, 'sdk_grpc_pb.js')) as any;
const betaPb = sdkRequire(path.join(libDir, 'beta', 'beta_pb.js')) as any;
const betaGrpc = sdkRequire(path.join(libDir, 'beta', 'beta_grpc_pb.js')) as any;

export interface SdkCall {
  method: string;
  at: number;
  body: Record<string, unknown>;
}

type Handler = (call: any, callback: (err: unknown, res?: unknown) => void) => void;

export class FakeAgonesSidecar {
  readonly calls: SdkCall[] = [];
  healthPings = 0;
  state = 'Scheduled';
  readonly labels = new Map<string, string>();
  readonly counters = new Map<string, { count: number; capacity: number }>();
  private readonly server = new grpc.Server();
  private readonly watchers = new Set<any>();
  port = 0;

  constructor(readonly gameServerName: string) {
    // the Fleet's spec declares the counter (count 0, capacity 0 until the host sets it)
    this.counters.set('sessions', { count: 0, capacity: 0 });
    const empty = () => new sdkPb.Empty();
    const record = (method: string, body: Record<string, unknown> = {}) => this.calls.push({ method, at: Date.now(), body });
    const stateChange = (method: string, state: string): Handler => (_call, cb) => {
      record(method);
      this.setState(state);
      cb(null, empty());
    };
    const sdk: Record<string, Handler | ((call: any) => void)> = {
      ready: stateChange('Ready', 'Ready'),
      allocate: stateChange('Allocate', 'Allocated'),
      shutdown: stateChange('Shutdown', 'Shutdown'),
      reserve: stateChange('Reserve', 'Reserved'),
      health: (call: any, cb: (err: unknown, res?: unknown) => void) => {
        call.on('data', () => {
          this.healthPings++;
        });
        call.on('end', () => cb(null, empty()));
        call.on('error', () => undefined);
      },
      getGameServer: (_call: any, cb: (err: unknown, res?: unknown) => void) => {
        record('GetGameServer');
        cb(null, this.gameServer());
      },
      watchGameServer: (call: any) => {
        record('WatchGameServer');
        this.watchers.add(call);
        call.write(this.gameServer());
        call.on('cancelled', () => this.watchers.delete(call));
        call.on('close', () => this.watchers.delete(call));
      },
      setLabel: (call: any, cb: (err: unknown, res?: unknown) => void) => {
        const key = call.request.getKey() as string;
        const value = call.request.getValue() as string;
        record('SetLabel', { key, value });
        this.labels.set(`agones.dev/sdk-${key}`, value);
        cb(null, empty());
      },
      setAnnotation: (call: any, cb: (err: unknown, res?: unknown) => void) => {
        record('SetAnnotation', { key: call.request.getKey(), value: call.request.getValue() });
        cb(null, empty());
      },
    };
    this.server.addService(sdkGrpc['agones.dev.sdk.SDK'], sdk as any);
    const unimplemented: Handler = (_call, cb) => cb({ code: grpc.status.UNIMPLEMENTED, details: 'not in this stand-in' });
    this.server.addService(betaGrpc['agones.dev.sdk.beta.SDK'], {
      getCounter: (call: any, cb: (err: unknown, res?: unknown) => void) => {
        const name = call.request.getName() as string;
        const c = this.counters.get(name);
        if (!c) return cb({ code: grpc.status.NOT_FOUND, details: `counter not found: ${name}` });
        cb(null, this.counterMessage(name));
      },
      updateCounter: (call: any, cb: (err: unknown, res?: unknown) => void) => {
        const u = call.request.getCounterupdaterequest();
        const name = u.getName() as string;
        const c = this.counters.get(name);
        if (!c) return cb({ code: grpc.status.NOT_FOUND, details: `counter not found: ${name}` });
        const next = { ...c };
        const body: Record<string, unknown> = { name };
        if (u.hasCapacity()) next.capacity = body.capacity = Number(u.getCapacity().getValue());
        if (u.hasCount()) next.count = body.count = Number(u.getCount().getValue());
        if (u.getCountdiff()) next.count += (body.countDiff = Number(u.getCountdiff())) as number;
        record('UpdateCounter', body);
        if (next.capacity < 0 || next.count < 0 || next.count > next.capacity) {
          return cb({ code: grpc.status.INVALID_ARGUMENT, details: `counter ${name}: count ${next.count} out of range 0..${next.capacity}` });
        }
        this.counters.set(name, next);
        cb(null, this.counterMessage(name));
      },
      getList: unimplemented,
      updateList: unimplemented,
      addListValue: unimplemented,
      removeListValue: unimplemented,
    } as any);
  }

  async listen(): Promise<this> {
    this.port = await new Promise<number>((resolve, reject) =>
      this.server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (err, port) => (err ? reject(err) : resolve(port))),
    );
    return this;
  }

  /** Calls of one method, in order. */
  callsTo(method: string): SdkCall[] {
    return this.calls.filter((c) => c.method === method);
  }

  /** Sets the GameServer's state (as Agones would) and tells every WatchGameServer stream. */
  setState(state: string): void {
    this.state = state;
    const gs = this.gameServer();
    for (const w of this.watchers) w.write(gs);
  }

  async close(): Promise<void> {
    for (const w of this.watchers) w.end();
    await new Promise<void>((r) => this.server.tryShutdown(() => r()));
  }

  private counterMessage(name: string): unknown {
    const c = this.counters.get(name)!;
    const m = new betaPb.Counter();
    m.setName(name);
    m.setCount(c.count);
    m.setCapacity(c.capacity);
    return m;
  }

  private gameServer(): unknown {
    const meta = new sdkPb.GameServer.ObjectMeta();
    meta.setName(this.gameServerName);
    meta.setNamespace('default');
    const status = new sdkPb.GameServer.Status();
    status.setState(this.state);
    status.setAddress('127.0.0.1');
    const gs = new sdkPb.GameServer();
    gs.setObjectMeta(meta);
    gs.setStatus(status);
    return gs;
  }
}
