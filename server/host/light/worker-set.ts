/**
 * The light workers of one agent (docs/light-runtime.md; HOST_SESSIONS_PER_WORKER), as
 * browsers.ts's BrowserSet is its Chromiums: a worker process (./worker.ts) holds up to
 * `perWorker` light runtimes, each a session's own engine, canvas and sender; a runtime that
 * needs one takes a worker with room or forks a new one. A worker is let go when its last runtime
 * is, and takes no new one after `maxServed` (whatever a long-lived process keeps, it keeps for a
 * bounded number of sessions).
 * Its processes: the worker leads a process group of its own (forked detached) that its runtimes'
 * senders join, and all of them name the worker's folder (a runtime folder with browsers.ts's
 * owner file: the stale sweep kills them after an unclean agent death); each sender also names
 * its session's folder inside it, so a runtime's own processes are its sender and the worker is
 * shared (procs.ts sessionFootprint splits it among its runtimes).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import { makeRuntimeDir, withTimeout } from '../browsers';
import { RUNTIME_HOST_PAGE } from '../page-paths';
import { killRuntimeTree, killRuntimeTreeSync, listProcs, runtimeProcs, type ProcInfo } from '../procs';
import { NODE_MODULES, workerBundle } from './worker-bundle';
import { parseFromWorker, type FromWorker, type ToWorker, type WorkerMethod, type WorkerMethods } from './worker-protocol';

/**
 * The worker's V8: a 1 MB young generation (semi-space) instead of 16: the engines' garbage is
 * short-lived and small, and the default let the heap grow ~13 MB a session
 * (docs/performance.md "Issue 11, twentieth round").
 */
const WORKER_NODE_FLAGS = ['--max-semi-space-size=1'];
/** Sessions a worker serves before it takes no more (it goes with its last one). */
const MAX_SERVED = 20;

export interface WorkerSetOptions {
  tmpDir: string;
  pageOrigin: string;
  perWorker: number;
  launchTimeoutMs: number;
  closeTimeoutMs: number;
}

/** What a worker tells one of its runtimes (worker-set → light-runtime). */
export type RuntimeMessage = Extract<FromWorker, { type: 'host-call' | 'engine-event' | 'log' }>;

export interface WorkerUser {
  /** Its key in the worker's messages. */
  readonly id: string;
  onWorkerMessage(m: RuntimeMessage): void;
  onWorkerGone(reason: string): void;
}

let seq = 0;

export class LightWorker extends EventEmitter {
  readonly id = `lw-${process.pid}-${++seq}`;
  /** The worker's folder (its sessions' folders are inside; every process of it names it). */
  readonly dir: string;
  readonly users = new Set<WorkerUser>();
  served = 0;
  state: 'launching' | 'up' | 'dead' = 'launching';
  readonly booted: Promise<void>;
  private child: ChildProcess | null = null;
  private calls = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  private callSeq = 0;
  private killing: Promise<ProcInfo[]> | null = null;

  constructor(private readonly opts: WorkerSetOptions) {
    super();
    this.dir = makeRuntimeDir(opts.tmpDir);
    this.booted = withTimeout(this.boot(), opts.launchTimeoutMs, 'light worker launch');
    this.booted.then(
      () => (this.state = this.state === 'launching' ? 'up' : this.state),
      () => void this.kill(),
    );
  }

  get pgid(): number | null {
    return this.child?.pid ?? null;
  }

  get open(): boolean {
    return this.state !== 'dead' && this.served < MAX_SERVED && this.users.size < this.opts.perWorker;
  }

  private async boot(): Promise<void> {
    const bundle = await workerBundle(this.opts.tmpDir);
    if (this.state === 'dead') throw new Error('light worker killed while launching');
    const child = fork(bundle, [this.dir], {
      execArgv: WORKER_NODE_FLAGS,
      detached: true,
      serialization: 'advanced',
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: this.dir,
        NODE_PATH: NODE_MODULES,
        NODE_ENV: 'production',
        YUMECAST_BASE_HREF: `${this.opts.pageOrigin}${RUNTIME_HOST_PAGE}`,
        // the engines' memory (docs/performance.md, nineteenth round): two malloc arenas, one libvips thread
        MALLOC_ARENA_MAX: '2',
        VIPS_CONCURRENCY: '1',
      },
    });
    this.child = child;
    for (const s of [child.stdout, child.stderr]) s?.setEncoding('utf8').on('data', (d: string) => this.emit('log', 'warn', `${this.id}: ${d.trimEnd().slice(0, 1000)}`));
    await new Promise<void>((resolve, reject) => {
      child.on('message', (raw) => {
        const m = parseFromWorker(raw);
        if (m?.type === 'booted') resolve();
        else if (m) this.onMessage(m);
      });
      child.once('exit', (code, sig) => {
        reject(new Error(`the light worker exited (${code ?? sig})`));
        this.onExit(`light worker exited (${code ?? sig})`);
      });
      child.once('error', reject);
    });
  }

  private onMessage(m: FromWorker): void {
    if (m.type === 'answer') {
      const c = this.calls.get(m.id);
      this.calls.delete(m.id);
      if (m.error !== undefined) c?.reject(new Error(m.error));
      else c?.resolve(m.value);
      return;
    }
    if (m.type === 'booted') return;
    if (m.type === 'log' && m.key === undefined) {
      this.emit('log', m.level, `${this.id}: ${m.message}`);
      return;
    }
    const user = [...this.users].find((u) => u.id === m.key);
    if (user) user.onWorkerMessage(m);
    else if (m.type === 'host-call') this.answer(m.id, null);
  }

  private onExit(reason: string): void {
    this.state = 'dead';
    for (const c of this.calls.values()) c.reject(new Error('the light worker exited'));
    this.calls.clear();
    for (const u of [...this.users]) u.onWorkerGone(reason);
    this.emit('gone');
  }

  /** Answers a runtime's host call. */
  answer(id: number, value: unknown): void {
    this.tell({ type: 'host-answer', id, value: value ?? null });
  }

  private tell(m: ToWorker): void {
    if (this.child?.connected) this.child.send(m);
  }

  call<M extends WorkerMethod>(key: string, method: M, args: WorkerMethods[M]['args'], timeoutMs: number): Promise<WorkerMethods[M]['value']> {
    if (!this.child?.connected || this.state === 'dead') return Promise.reject(new Error(`${this.id} is ${this.state}`));
    const id = ++this.callSeq;
    const p = new Promise<unknown>((resolve, reject) => this.calls.set(id, { resolve, reject }));
    this.tell({ type: 'request', id, key, method, args } as ToWorker);
    return withTimeout(p, timeoutMs, method).finally(() => this.calls.delete(id)) as Promise<WorkerMethods[M]['value']>;
  }

  /** Every living process of the worker (its own and its senders). */
  processes(procs: ProcInfo[] = listProcs()): ProcInfo[] {
    return runtimeProcs(this.dir, this.pgid, procs);
  }

  /** SIGKILLs the worker's whole tree, waits until none of it is left, removes its folder. */
  kill(): Promise<ProcInfo[]> {
    this.killing ??= (async () => {
      this.state = 'dead';
      const left = await killRuntimeTree(this.dir, this.pgid, this.opts.closeTimeoutMs + 1000);
      fs.rmSync(this.dir, { recursive: true, force: true, maxRetries: 3 });
      return left;
    })();
    return this.killing;
  }

  killSync(): void {
    killRuntimeTreeSync(this.dir, this.pgid);
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

export class LightWorkers {
  private readonly workers = new Set<LightWorker>();

  constructor(private readonly opts: () => WorkerSetOptions) {}

  /** A worker with room for `user` (a new one when none has): the user is counted in it. */
  acquire(user: WorkerUser): LightWorker {
    let w = [...this.workers].find((x) => x.open);
    if (!w) {
      const made = new LightWorker(this.opts());
      w = made;
      this.workers.add(made);
      made.on('gone', () => this.workers.delete(made));
      made.on('log', (level: string, msg: string) => this.onLog?.(level as 'warn', msg));
    }
    w.users.add(user);
    w.served++;
    return w;
  }

  /** `user` is done with `w`: the worker goes with its last user. Returns what survived the kill. */
  async release(w: LightWorker, user: WorkerUser): Promise<ProcInfo[]> {
    w.users.delete(user);
    if (w.users.size > 0 && w.state !== 'dead') return [];
    this.workers.delete(w);
    return w.kill();
  }

  /** Where the workers' own log lines go (the pool's log). */
  onLog: ((level: 'info' | 'warn' | 'error', msg: string) => void) | null = null;

  killAllSync(): void {
    for (const w of this.workers) w.killSync();
  }
}
