/**
 * The light runtime as the agent sees it (docs/light-runtime.md; HOST_RUNTIME_KIND=light): one
 * session's engine drawing in Node, with its own canvas, sender (GStreamer's webrtcbin, a Python
 * child) and session rules, in a light worker process shared with up to
 * HOST_SESSIONS_PER_WORKER − 1 other runtimes (./worker-set.ts), never reused. The same contract
 * as a page runtime (../session-runtime.ts): warm once the worker has booted and opened it (its
 * canvas made, the fonts registered), `begin` starts the game, the sender and the signalling; the
 * worker's host calls and engine events come to the session's handler as a page's bindings do.
 * Its processes: its sender (naming the session's folder, inside the worker's) is its own; the
 * worker is shared with the worker's other runtimes. kill() closes it in the worker, SIGKILLs its
 * sender if still alive, removes its folder, and lets the worker go with its last runtime.
 */
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { withTimeout } from '../browsers';
import type { BridgeCounters, BridgeReadyInfo, BridgeSessionConfig, PrewarmResult } from '../bridge-protocol';
import { killRuntimeTree, listProcs, runtimeProcs, type ProcInfo } from '../procs';
import type { EngineSummary } from '../schemas';
import type { EngineState } from '../../../runtime/src/types';
import { engineSummary, type KillReport, type RuntimeHandler, type RuntimeState, type SessionRuntime } from '../session-runtime';
import { SENDER_SCRIPT } from './worker-bundle';
import type { WorkerMethod, WorkerMethods } from './worker-protocol';
import type { LightWorker, LightWorkers, RuntimeMessage, WorkerUser } from './worker-set';

export interface LightRuntimeOptions {
  launchTimeoutMs: number;
  startTimeoutMs: number;
  closeTimeoutMs: number;
  /** HOST_LIGHT_PYTHON: the Python with GStreamer's introspection (Debian's). */
  python: string;
  /** HOST_LIGHT_CPU_USED: VP8's speed (libvpx cpu-used). */
  cpuUsed: number;
}

let seq = 0;

export class LightHostRuntime extends EventEmitter implements SessionRuntime, WorkerUser {
  readonly id = `lt-${process.pid}-${++seq}`;
  readonly kind = 'light' as const;
  state: RuntimeState = 'launching';
  launchMs = 0;
  readonly prewarmed: PrewarmResult | null = null;
  readonly blocked = { requests: 0, websockets: 0, lastUrl: '' };
  sessionId: string | null = null;
  worker: LightWorker | null = null;
  /** The session's folder (its sender's frames file), inside its worker's. */
  dir = '';
  private handler: RuntimeHandler | null = null;
  private killing: Promise<KillReport> | null = null;
  private gone = false;

  constructor(
    private readonly opts: LightRuntimeOptions,
    private readonly workers: LightWorkers,
  ) {
    super();
  }

  async launch(): Promise<this> {
    const t0 = Date.now();
    try {
      await withTimeout(this.open(), this.opts.launchTimeoutMs, 'light runtime launch');
    } catch (e) {
      await this.kill();
      throw e;
    }
    this.launchMs = Date.now() - t0;
    this.state = 'warm';
    return this;
  }

  private async open(): Promise<void> {
    const w = this.workers.acquire(this);
    this.worker = w;
    await w.booted;
    if (this.state !== 'launching') throw new Error('runtime killed while launching');
    this.dir = path.join(w.dir, this.id);
    fs.mkdirSync(this.dir, { mode: 0o700 });
    await w.call(this.id, 'open', { dir: this.dir }, this.opts.launchTimeoutMs);
  }

  onWorkerMessage(m: RuntimeMessage): void {
    switch (m.type) {
      case 'host-call': {
        const h = this.handler;
        const w = this.worker!;
        if (!h) return w.answer(m.id, null);
        h.onHostCall(m.call).then(
          (v) => w.answer(m.id, v),
          () => w.answer(m.id, null),
        );
        return;
      }
      case 'engine-event':
        this.handler?.onEngineEvent(m.name, m.payload);
        return;
      case 'log':
        this.emit('log', m.level, m.message);
        return;
    }
  }

  onWorkerGone(reason: string): void {
    if (this.state === 'closing' || this.state === 'dead' || this.gone) return;
    this.gone = true;
    this.emit('crash', reason);
    this.handler?.onCrash(reason);
  }

  private call<M extends WorkerMethod>(method: M, args: WorkerMethods[M]['args'], timeoutMs: number): Promise<WorkerMethods[M]['value']> {
    if (!this.worker || this.state === 'dead' || this.state === 'closing') return Promise.reject(new Error(`runtime ${this.id} is ${this.state}`));
    return this.worker.call(this.id, method, args, timeoutMs);
  }

  attach(sessionId: string, handler: RuntimeHandler): void {
    if (this.state !== 'warm') throw new Error(`runtime ${this.id} is ${this.state}, not warm`);
    this.state = 'busy';
    this.sessionId = sessionId;
    this.handler = handler;
  }

  begin(cfg: BridgeSessionConfig, timeoutMs = this.opts.startTimeoutMs): Promise<BridgeReadyInfo> {
    return this.call('begin', { cfg, senderScript: SENDER_SCRIPT, python: this.opts.python, cpuUsed: this.opts.cpuUsed }, timeoutMs);
  }

  async screenshotPng(): Promise<Buffer> {
    return Buffer.from(await this.call('screenshot', {}, 10_000));
  }

  async counters(): Promise<BridgeCounters | null> {
    if (this.state !== 'busy') return null;
    return this.call('counters', {}, 2000).catch(() => null);
  }

  async engineState(): Promise<EngineSummary | null> {
    const st = await this.fullState().catch(() => null);
    return st ? engineSummary(st as unknown as Record<string, unknown>) : null;
  }

  /** The engine's whole state (tests and benches read what a page's window.yumecast.getState() tells). */
  fullState(): Promise<EngineState> {
    return this.call('getState', {}, 2000);
  }

  async snapshot(): Promise<string | null> {
    if (this.state !== 'busy') return null;
    return this.call('snapshot', {}, 2000).catch(() => null);
  }

  async bye(reason: string): Promise<void> {
    if (this.state !== 'busy') return;
    await this.call('bye', { reason }, 2500).catch(() => undefined);
  }

  /** Its own processes (its sender: the one naming its folder; procs.ts's rule for a runtime folder). */
  private own(procs: ProcInfo[]): ProcInfo[] {
    return this.dir ? runtimeProcs(`${this.dir}/`, null, procs) : [];
  }

  processes(): ProcInfo[] {
    const { own, shared } = this.processShare();
    return [...own, ...shared];
  }

  processShare(procs: ProcInfo[] = listProcs()): { own: ProcInfo[]; shared: ProcInfo[]; sharers: number } {
    const own = this.own(procs);
    const w = this.worker;
    if (!w || this.state === 'dead' || this.state === 'closing') return { own, shared: [], sharers: 1 };
    // the worker itself: not the senders of its runtimes (each names its own folder inside the worker's)
    const shared = w.processes(procs).filter((p) => !p.cmdline.includes(`${w.dir}/`));
    return { own, shared, sharers: Math.max(1, w.users.size) };
  }

  kill(): Promise<KillReport> {
    this.killing ??= (async () => {
      const t0 = Date.now();
      const wasLive = this.state === 'warm' || this.state === 'busy';
      this.state = 'closing';
      this.handler = null;
      const w = this.worker;
      let left: ProcInfo[] = [];
      if (w) {
        if (wasLive) await w.call(this.id, 'close', {}, this.opts.closeTimeoutMs + 2500).catch(() => undefined);
        // its sender, if the worker could not close it
        const leftover = this.dir ? await killRuntimeTree(`${this.dir}/`, null, this.opts.closeTimeoutMs + 1000) : [];
        if (this.dir) fs.rmSync(this.dir, { recursive: true, force: true, maxRetries: 3 });
        left = [...leftover, ...(await this.workers.release(w, this))];
      }
      this.state = 'dead';
      this.emit('dead');
      return { ms: Date.now() - t0, leftover: left };
    })();
    return this.killing;
  }

  killSync(): void {
    if (this.state === 'dead') return;
    this.worker?.killSync();
  }
}
