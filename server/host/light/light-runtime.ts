/**
 * The light runtime as the agent sees it (docs/light-runtime.md; HOST_RUNTIME_KIND=light): one
 * worker process (./worker.ts, bundled by ./worker-bundle.ts, run by plain node) with the engine
 * drawing in Node and its sender (GStreamer's webrtcbin, a Python child of the worker), for one
 * session, never reused. The same contract as a page runtime (../session-runtime.ts): warm once
 * the worker has booted (its canvas made, its fonts registered), `begin` starts the game, the
 * sender and the signalling; the worker's host calls and engine events come to the session's
 * handler as a page's bindings do.
 * Its processes: the worker leads a process group of its own (spawned detached) that the sender
 * joins, and both name the session's folder (a runtime folder of browsers.ts's kind, with its
 * owner file: the stale sweep finds and kills them after an unclean agent death); kill()
 * SIGKILLs the group and waits until none is left.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import { makeRuntimeDir, withTimeout } from '../browsers';
import type { BridgeCounters, BridgeReadyInfo, BridgeSessionConfig, PrewarmResult } from '../bridge-protocol';
import { killRuntimeTree, killRuntimeTreeSync, listProcs, runtimeProcs, type ProcInfo } from '../procs';
import { RUNTIME_HOST_PAGE } from '../page-paths';
import type { EngineSummary } from '../schemas';
import type { EngineState } from '../../../runtime/src/types';
import { engineSummary, type KillReport, type RuntimeHandler, type RuntimeState, type SessionRuntime } from '../session-runtime';
import { NODE_MODULES, SENDER_SCRIPT, workerBundle } from './worker-bundle';
import { parseFromWorker, type FromWorker, type ToWorker, type WorkerMethod, type WorkerMethods } from './worker-protocol';

export interface LightRuntimeOptions {
  tmpDir: string;
  /** The pages' static origin (http://127.0.0.1:<port>): the game's files. */
  pageOrigin: string;
  launchTimeoutMs: number;
  startTimeoutMs: number;
  closeTimeoutMs: number;
  /** HOST_LIGHT_PYTHON: the Python with GStreamer's introspection (Debian's). */
  python: string;
  /** HOST_LIGHT_CPU_USED: VP8's speed (libvpx cpu-used). */
  cpuUsed: number;
}

let seq = 0;

export class LightHostRuntime extends EventEmitter implements SessionRuntime {
  readonly id = `lt-${process.pid}-${++seq}`;
  readonly kind = 'light' as const;
  state: RuntimeState = 'launching';
  launchMs = 0;
  readonly prewarmed: PrewarmResult | null = null;
  readonly blocked = { requests: 0, websockets: 0, lastUrl: '' };
  sessionId: string | null = null;
  /** The session's folder (the frames file; every process of the runtime names it). */
  dir = '';
  private child: ChildProcess | null = null;
  private handler: RuntimeHandler | null = null;
  private calls = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  private callSeq = 0;
  private killing: Promise<KillReport> | null = null;
  private gone = false;

  constructor(private readonly opts: LightRuntimeOptions) {
    super();
  }

  get pgid(): number | null {
    return this.child?.pid ?? null;
  }

  async launch(): Promise<this> {
    const t0 = Date.now();
    try {
      await withTimeout(this.boot(), this.opts.launchTimeoutMs, 'light runtime launch');
    } catch (e) {
      await this.kill();
      throw e;
    }
    this.launchMs = Date.now() - t0;
    this.state = 'warm';
    return this;
  }

  private async boot(): Promise<void> {
    const bundle = await workerBundle(this.opts.tmpDir);
    this.dir = makeRuntimeDir(this.opts.tmpDir);
    if (this.state !== 'launching') throw new Error('runtime killed while launching');
    const child = fork(bundle, [this.dir], {
      execArgv: [],
      detached: true,
      serialization: 'advanced',
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: this.dir,
        NODE_PATH: NODE_MODULES,
        NODE_ENV: 'production',
        YUMECAST_BASE_HREF: `${this.opts.pageOrigin}${RUNTIME_HOST_PAGE}`,
        YUMECAST_SESSION_DIR: this.dir,
        // the engine's memory (docs/performance.md, nineteenth round): two malloc arenas, one libvips thread
        MALLOC_ARENA_MAX: '2',
        VIPS_CONCURRENCY: '1',
      },
    });
    this.child = child;
    for (const s of [child.stdout, child.stderr]) s?.setEncoding('utf8').on('data', (d: string) => this.emit('log', 'warn', `worker: ${d.trimEnd().slice(0, 1000)}`));
    await new Promise<void>((resolve, reject) => {
      child.on('message', (raw) => {
        const m = parseFromWorker(raw);
        if (m?.type === 'booted') resolve();
        else if (m) this.onMessage(m);
      });
      child.once('exit', (code, sig) => {
        reject(new Error(`the light worker exited (${code ?? sig})`));
        this.onExit(code, sig);
      });
      child.once('error', reject);
    });
  }

  private onMessage(m: FromWorker): void {
    switch (m.type) {
      case 'answer': {
        const c = this.calls.get(m.id);
        this.calls.delete(m.id);
        if (m.error !== undefined) c?.reject(new Error(m.error));
        else c?.resolve(m.value);
        return;
      }
      case 'host-call': {
        const h = this.handler;
        const answer = (value: unknown) => this.tell({ type: 'host-answer', id: m.id, value: value ?? null });
        if (!h) return answer(null);
        h.onHostCall(m.call).then(answer, () => answer(null));
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

  private onExit(code: number | null, sig: NodeJS.Signals | null): void {
    for (const c of this.calls.values()) c.reject(new Error('the light worker exited'));
    this.calls.clear();
    if (this.state === 'closing' || this.state === 'dead' || this.gone) return;
    this.gone = true;
    const reason = `light worker exited (${code ?? sig})`;
    this.emit('crash', reason);
    this.handler?.onCrash(reason);
  }

  private tell(m: ToWorker): void {
    if (this.child?.connected) this.child.send(m);
  }

  private call<M extends WorkerMethod>(method: M, args: WorkerMethods[M]['args'], timeoutMs: number): Promise<WorkerMethods[M]['value']> {
    if (!this.child?.connected || this.state === 'dead' || this.state === 'closing') return Promise.reject(new Error(`runtime ${this.id} is ${this.state}`));
    const id = ++this.callSeq;
    const p = new Promise<unknown>((resolve, reject) => this.calls.set(id, { resolve, reject }));
    this.tell({ type: 'request', id, method, args } as ToWorker);
    return withTimeout(p, timeoutMs, method).finally(() => this.calls.delete(id)) as Promise<WorkerMethods[M]['value']>;
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

  processes(): ProcInfo[] {
    return this.dir ? runtimeProcs(this.dir, this.pgid, listProcs()) : [];
  }

  processShare(procs: ProcInfo[] = listProcs()): { own: ProcInfo[]; shared: ProcInfo[]; sharers: number } {
    return { own: this.dir ? runtimeProcs(this.dir, this.pgid, procs) : [], shared: [], sharers: 1 };
  }

  kill(): Promise<KillReport> {
    this.killing ??= (async () => {
      const t0 = Date.now();
      this.state = 'closing';
      this.handler = null;
      const leftover = this.dir ? await killRuntimeTree(this.dir, this.pgid, this.opts.closeTimeoutMs + 1000) : [];
      if (this.dir) fs.rmSync(this.dir, { recursive: true, force: true, maxRetries: 3 });
      this.state = 'dead';
      this.emit('dead');
      return { ms: Date.now() - t0, leftover };
    })();
    return this.killing;
  }

  killSync(): void {
    if (this.state === 'dead' || !this.dir) return;
    killRuntimeTreeSync(this.dir, this.pgid);
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
