/**
 * The messages between the host's agent (./worker-set.ts, ./light-runtime.ts) and a light
 * worker process (./worker.ts: up to HOST_SESSIONS_PER_WORKER engines in Node, each with its
 * sender and the session's rules; docs/light-runtime.md): the one definition of them. They travel
 * on Node's IPC channel (child_process.fork with the `advanced` serialization, so a screenshot's
 * PNG goes as bytes). Every message about a runtime names it by `key`. Calls go both ways as
 * numbered requests and answers: the agent asks the worker to open a runtime, begin, read its
 * state, say bye and close; the worker asks the agent what the page's bridge asks through its
 * binding (HostCall: a screenshot's upload, input activity, the connection, the end) and tells it
 * the engine's events and its logs, as the page's ENGINE_EVENT_BINDING and console do.
 */
import type { BridgeCounters, BridgeReadyInfo, BridgeSessionConfig, HostCall } from '../bridge-protocol';
import type { EngineState } from '../../../runtime/src/types';

/** What the agent may ask of a worker, with each answer's type. */
export interface WorkerMethods {
  /** Makes a warm runtime under `key`: its canvas, its session folder `dir` (the agent's). */
  open: { args: { dir: string }; value: null };
  /** Lets the runtime go (after bye): its sender closed, its engine and canvas freed. */
  close: { args: Record<string, never>; value: null };
  /** Starts the game and the sender and opens the signalling; answers when the host may report `ready`. */
  begin: { args: { cfg: BridgeSessionConfig; senderScript: string; python: string; cpuUsed: number }; value: BridgeReadyInfo };
  /** The picture as a PNG at full size (1280×720), drawn now. */
  screenshot: { args: Record<string, never>; value: Uint8Array };
  counters: { args: Record<string, never>; value: BridgeCounters };
  /** The engine's whole state (runtime/src's getState(), as a page's window.yumecast.getState()). */
  getState: { args: Record<string, never>; value: EngineState };
  /** The engine's play state (to save before the runtime goes). */
  snapshot: { args: Record<string, never>; value: string | null };
  /** `bye` to the player, and the sender and the signalling closed. */
  bye: { args: { reason: string }; value: null };
}

export type WorkerMethod = keyof WorkerMethods;

/** Agent → worker. */
export type ToWorker =
  | { [M in WorkerMethod]: { type: 'request'; id: number; key: string; method: M; args: WorkerMethods[M]['args'] } }[WorkerMethod]
  /** The answer to the worker's host call `id`. */
  | { type: 'host-answer'; id: number; value: unknown };

/** Worker → agent. */
export type FromWorker =
  /** The worker has booted (its fonts registered) and waits for `begin`. */
  | { type: 'booted'; ms: number }
  | { type: 'answer'; id: number; value?: unknown; error?: string }
  | { type: 'host-call'; id: number; key: string; call: HostCall }
  | { type: 'engine-event'; key: string; name: string; payload: unknown }
  /** A log line, of a runtime (`key`) or of the worker (no key). */
  | { type: 'log'; key?: string; level: 'info' | 'warn' | 'error'; message: string };

/** The log levels a worker may use. */
const LEVELS = new Set(['info', 'warn', 'error']);

/** One message from a worker, checked (the agent trusts nothing it did not check); null for anything else. */
export function parseFromWorker(v: unknown): FromWorker | null {
  if (typeof v !== 'object' || v === null) return null;
  const m = v as Record<string, unknown>;
  switch (m.type) {
    case 'booted':
      return typeof m.ms === 'number' ? { type: 'booted', ms: m.ms } : null;
    case 'answer':
      if (typeof m.id !== 'number') return null;
      return typeof m.error === 'string' ? { type: 'answer', id: m.id, error: m.error.slice(0, 500) } : { type: 'answer', id: m.id, value: m.value };
    case 'host-call': {
      const c = m.call as Record<string, unknown> | null;
      return typeof m.id === 'number' && typeof m.key === 'string' && c && typeof c === 'object' && typeof c.kind === 'string' ? { type: 'host-call', id: m.id, key: m.key, call: c as unknown as HostCall } : null;
    }
    case 'engine-event':
      return typeof m.name === 'string' && typeof m.key === 'string' ? { type: 'engine-event', key: m.key, name: m.name.slice(0, 64), payload: m.payload } : null;
    case 'log':
      return typeof m.level === 'string' && LEVELS.has(m.level) && typeof m.message === 'string'
        ? { type: 'log', ...(typeof m.key === 'string' ? { key: m.key } : {}), level: m.level as 'info', message: m.message.slice(0, 2000) }
        : null;
    default:
      return null;
  }
}
