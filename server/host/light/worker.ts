/**
 * A light worker process (docs/light-runtime.md): up to HOST_SESSIONS_PER_WORKER light runtimes
 * in one Node process, each its own engine, canvas, sender and session rules (./session.ts), as
 * a Chromium holds several runtimes' contexts (the process is shared, the session's state never
 * is: a runtime is made for one session and let go after it). The agent (./worker-set.ts) forks
 * it, bundled (./worker-bundle.ts), with an IPC channel: the messages are ./worker-protocol.ts's,
 * each naming its runtime by key. At boot it registers the engine's fonts, says `booted`, and
 * waits; `open` makes a warm runtime (its canvas), `begin` starts its session, `close` lets it
 * go. When the agent goes (its channel closes) every session says bye and the worker exits:
 * nothing of a session outlives the host that ran it.
 * Environment: YUMECAST_BASE_HREF (the page server's runtime page: what the games' URLs resolve
 * against); argv[2] is the worker's folder (every session's folder is inside it).
 */
import { LightRuntime } from '../../../runtime/node/runtime';
import { registerFonts } from '../../../runtime/node/platform';
import type { HostCall } from '../bridge-protocol';
import { LightSession } from './session';
import type { FromWorker, ToWorker, WorkerMethod, WorkerMethods } from './worker-protocol';

/** A host call the agent has not answered in this long resolves null (as a page's failed binding). */
const HOST_CALL_MS = 30_000;

const t0 = performance.now();
const baseHref = process.env.YUMECAST_BASE_HREF ?? '';
if (!baseHref || !process.argv[2]) {
  console.error('light worker: YUMECAST_BASE_HREF and the worker folder are needed');
  process.exit(2);
}

function tell(m: FromWorker): void {
  if (process.connected) process.send!(m);
}

let callSeq = 0;
const pending = new Map<number, (v: unknown) => void>();

/** The agent's side of a runtime's host calls (a page's binding). */
function callHostFor(key: string) {
  return <K extends HostCall['kind']>(kind: K, data: Omit<Extract<HostCall, { kind: K }>, 'kind'>): Promise<unknown> =>
    new Promise((resolve) => {
      const id = ++callSeq;
      const timer = setTimeout(() => {
        pending.delete(id);
        resolve(null);
      }, HOST_CALL_MS);
      pending.set(id, (v) => {
        clearTimeout(timer);
        resolve(v);
      });
      tell({ type: 'host-call', id, key, call: { ...data, kind } as HostCall });
    });
}

/** The runtimes this worker holds, by key. */
const runtimes = new Map<string, LightSession>();

function session(key: string): LightSession {
  const s = runtimes.get(key);
  if (!s) throw new Error(`no runtime ${key} in this worker`);
  return s;
}

/** Each method the agent may call, for the runtime `key`. */
const methods: { [M in WorkerMethod]: (key: string, args: WorkerMethods[M]['args']) => Promise<WorkerMethods[M]['value']> | WorkerMethods[M]['value'] } = {
  open: (key, a) => {
    if (runtimes.has(key)) throw new Error(`runtime ${key} is open already`);
    const rt = new LightRuntime({ baseHref });
    runtimes.set(
      key,
      new LightSession(rt, a.dir, {
        callHost: callHostFor(key),
        event: (name, payload) => tell({ type: 'engine-event', key, name, payload }),
        log: (level, message) => tell({ type: 'log', key, level, message }),
      }),
    );
    return null;
  },
  close: async (key) => {
    const s = runtimes.get(key);
    runtimes.delete(key);
    await s?.bye('session_closed');
    return null;
  },
  begin: (key, a) => session(key).begin(a),
  screenshot: (key) => session(key).screenshot(),
  counters: (key) => session(key).counters(),
  getState: (key) => session(key).getState(),
  snapshot: (key) => session(key).snapshot(),
  bye: async (key, a) => {
    await session(key).bye(a.reason);
    return null;
  },
};

process.on('message', (raw: ToWorker) => {
  if (raw?.type === 'host-answer') {
    pending.get(raw.id)?.(raw.value);
    pending.delete(raw.id);
    return;
  }
  if (raw?.type !== 'request' || typeof raw.key !== 'string' || !(raw.method in methods)) return;
  const fn = methods[raw.method] as (key: string, a: unknown) => unknown;
  Promise.resolve()
    .then(() => fn(raw.key, raw.args))
    .then(
      (value) => tell({ type: 'answer', id: raw.id, value }),
      (e: unknown) => tell({ type: 'answer', id: raw.id, error: e instanceof Error ? e.message : String(e) }),
    );
});

process.on('disconnect', () => {
  void Promise.allSettled([...runtimes.values()].map((s) => s.bye('host_shutdown'))).finally(() => process.exit(0));
});
process.on('unhandledRejection', (e) => tell({ type: 'log', level: 'error', message: `unhandled: ${e instanceof Error ? e.message : String(e)}` }));

// the fonts, registered once for every runtime of the process
registerFonts();
tell({ type: 'booted', ms: Math.round(performance.now() - t0) });
