/**
 * A light runtime's worker process (docs/light-runtime.md): the engine in Node with its sender
 * and the session's rules (./session.ts), for one session. The agent (./light-runtime.ts) forks
 * it, bundled (./worker-bundle.ts), with an IPC channel: the messages are ./worker-protocol.ts's.
 * At boot it makes the engine's canvas and registers its fonts (a warm runtime), says `booted`,
 * and waits for `begin`. When the agent goes (its channel closes) the worker says bye and exits:
 * nothing of a session outlives the host that ran it.
 * Environment: YUMECAST_BASE_HREF (the page server's runtime page: what the game's URLs resolve
 * against) and YUMECAST_SESSION_DIR (the session's own folder, the agent's to make and remove).
 */
import { LightRuntime } from '../../../runtime/node/runtime';
import type { HostCall } from '../bridge-protocol';
import { LightSession } from './session';
import type { FromWorker, ToWorker, WorkerMethod, WorkerMethods } from './worker-protocol';

/** A host call the agent has not answered in this long resolves null (as a page's failed binding). */
const HOST_CALL_MS = 30_000;

const t0 = performance.now();
const baseHref = process.env.YUMECAST_BASE_HREF ?? '';
const dir = process.env.YUMECAST_SESSION_DIR ?? '';
if (!baseHref || !dir) {
  console.error('light worker: YUMECAST_BASE_HREF and YUMECAST_SESSION_DIR are needed');
  process.exit(2);
}

function tell(m: FromWorker): void {
  if (process.connected) process.send!(m);
}

let callSeq = 0;
const pending = new Map<number, (v: unknown) => void>();

function callHost<K extends HostCall['kind']>(kind: K, data: Omit<Extract<HostCall, { kind: K }>, 'kind'>): Promise<unknown> {
  return new Promise((resolve) => {
    const id = ++callSeq;
    const timer = setTimeout(() => {
      pending.delete(id);
      resolve(null);
    }, HOST_CALL_MS);
    pending.set(id, (v) => {
      clearTimeout(timer);
      resolve(v);
    });
    tell({ type: 'host-call', id, call: { ...data, kind } as HostCall });
  });
}

const runtime = new LightRuntime({ baseHref });
const session = new LightSession(runtime, dir, {
  callHost,
  event: (name, payload) => tell({ type: 'engine-event', name, payload }),
  log: (level, message) => tell({ type: 'log', level, message }),
});

/** Each method the agent may call. */
const methods: { [M in WorkerMethod]: (args: WorkerMethods[M]['args']) => Promise<WorkerMethods[M]['value']> | WorkerMethods[M]['value'] } = {
  begin: (a) => session.begin(a),
  screenshot: () => session.screenshot(),
  counters: () => session.counters(),
  getState: () => session.getState(),
  snapshot: () => session.snapshot(),
  bye: async (a) => {
    await session.bye(a.reason);
    return null;
  },
};

process.on('message', (raw: ToWorker) => {
  if (raw?.type === 'host-answer') {
    pending.get(raw.id)?.(raw.value);
    pending.delete(raw.id);
    return;
  }
  if (raw?.type !== 'request' || !(raw.method in methods)) return;
  const fn = methods[raw.method] as (a: unknown) => unknown;
  Promise.resolve()
    .then(() => fn(raw.args))
    .then(
      (value) => tell({ type: 'answer', id: raw.id, value }),
      (e: unknown) => tell({ type: 'answer', id: raw.id, error: e instanceof Error ? e.message : String(e) }),
    );
});

process.on('disconnect', () => {
  void session.bye('host_shutdown').finally(() => process.exit(0));
});
process.on('unhandledRejection', (e) => tell({ type: 'log', level: 'error', message: `unhandled: ${e instanceof Error ? e.message : String(e)}` }));

tell({ type: 'booted', ms: Math.round(performance.now() - t0) });
