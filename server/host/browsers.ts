/**
 * The shared Chromiums behind the runtimes (docs/host.md "Runtime model"). A runtime is one
 * browser context + one page; up to `sessionsPerBrowser` runtimes share one Chromium, so the
 * browser, GPU, network, storage and audio processes and the zygotes are paid once per browser
 * instead of once per session, and a cold start is a new context + page (~0.3–0.6 s) instead of
 * a browser launch (~3 s).
 *
 * Each browser is launched with playwright's launchPersistentContext on its own fresh mkdtemp
 * profile folder (with XDG_CONFIG_HOME inside it, so crashpad names it too), as each runtime was
 * before: procs.ts finds every process of the browser by its process group and that folder, and
 * the stale sweep (sweepStaleRuntimes) works unchanged. Sessions never use the persistent
 * context: each gets `browser.newContext()` (incognito-like: its own in-memory storage, cookies
 * and HTTP cache; Chromium never puts two contexts' pages in one renderer process). With
 * `sessionsPerBrowser` 1 the runtime uses the persistent context itself: exactly the model before
 * issue 11 (a browser per runtime), so the benches can compare both.
 *
 * The renderer processes of a context are found by diffing the browser's renderers before the
 * context is made and after its page has loaded, one context at a time per browser (a mutex);
 * spare renderers are turned off (runtime.ts's flags) so no unrelated renderer appears meanwhile.
 * When a context closes, any of its renderers still alive is SIGKILLed. A browser is retired
 * after serving RETIRE_AFTER × sessionsPerBrowser contexts (or when it crashes) and closed, with
 * its whole process tree, as soon as no runtime uses it.
 */
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions } from 'playwright-core';
import { basePriority, canRestorePriority, niceOf, renice } from './priority';
import { findBrowserProc, killRuntimeTree, killRuntimeTreeSync, listProcs, pidAlive, readProc, runtimeProcs, type ProcInfo } from './procs';

export const RUNTIME_DIR_PREFIX = 'yumecast-rt-';
const OWNER_FILE = 'yumecast-owner.json';
/** A shared browser is retired after serving this many rounds of `sessionsPerBrowser` contexts. */
const RETIRE_AFTER = 4;

export interface BrowserOptions {
  chromiumPath: string;
  tmpDir: string;
  launchTimeoutMs: number;
  closeTimeoutMs: number;
  /** How many runtimes share one browser (HOST_SESSIONS_PER_BROWSER); 1 = a browser each. */
  sessionsPerBrowser?: number;
  args: string[];
  /** HOST_WARM_NICE: the nice value of a runtime's processes while it warms for the pool (priority.ts); 0/unset = not lowered. */
  warmNice?: number;
}

const SECRET_ENV = /SECRET|TOKEN|PASSWORD|PASSWD|CREDENTIAL|PRIVATE|_KEY$|^DATABASE_URL$|^PG/i;

/** The browser's environment: no secrets; config (and crashpad's database) inside its own dir. */
function browserEnv(userDataDir: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !SECRET_ENV.test(k)) env[k] = v;
  env.XDG_CONFIG_HOME = path.join(userDataDir, 'xdg-config');
  env.XDG_CACHE_HOME = path.join(userDataDir, 'xdg-cache');
  return env;
}

export function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    p.finally(() => clearTimeout(timer)),
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms);
    }),
  ]);
}

const isRenderer = (p: ProcInfo) => p.cmdline.includes('--type=renderer');

let seq = 0;

/** One Chromium shared by up to `sessionsPerBrowser` runtimes (its users). */
export class SharedBrowser extends EventEmitter {
  readonly id = `br-${process.pid}-${++seq}`;
  state: 'launching' | 'up' | 'closing' | 'dead' = 'launching';
  userDataDir = '';
  browserPid: number | null = null;
  pgid: number | null = null;
  /** The persistent (default) context: the browser's handle; sessions use it only when exclusive. */
  persistent: BrowserContext | null = null;
  /** Runtimes holding a context in this browser now. */
  readonly users = new Set<object>();
  /** Contexts ever handed out. */
  served = 0;
  /** No new context goes here (served its share, or crashed). */
  retired = false;
  private readonly owned = new Map<object, number[]>();
  /** Users whose runtime warms for the pool (their processes may run at opts.warmNice). */
  private readonly warming = new Set<object>();
  /** The context being made and the renderers there were before it (openContext). */
  private opening: { user: object; before: Set<number> } | null = null;
  private lock: Promise<unknown> = Promise.resolve();
  private killing: Promise<ProcInfo[]> | null = null;
  readonly launched: Promise<void>;

  constructor(readonly opts: BrowserOptions) {
    super();
    this.launched = this.launch();
    this.launched.catch(() => undefined);
  }

  get exclusive(): boolean {
    return (this.opts.sessionsPerBrowser ?? 1) <= 1;
  }

  get maxServed(): number {
    return this.exclusive ? 1 : RETIRE_AFTER * (this.opts.sessionsPerBrowser ?? 1);
  }

  /** Can take one more context. */
  get open(): boolean {
    return !this.retired && (this.state === 'launching' || this.state === 'up') && this.served < this.maxServed && this.users.size < (this.opts.sessionsPerBrowser ?? 1);
  }

  private async launch(): Promise<void> {
    this.userDataDir = makeRuntimeDir(this.opts.tmpDir);
    try {
      const ctx = await chromium.launchPersistentContext(this.userDataDir, {
        executablePath: this.opts.chromiumPath,
        headless: true,
        args: this.opts.args,
        env: browserEnv(this.userDataDir),
        ...CONTEXT_OPTIONS,
        handleSIGINT: false,
        handleSIGTERM: false,
        handleSIGHUP: false,
        timeout: this.opts.launchTimeoutMs,
      });
      this.persistent = ctx;
      const proc = findBrowserProc(this.userDataDir);
      this.browserPid = proc?.pid ?? null;
      this.pgid = proc?.pgid ?? null;
      ctx.on('close', () => this.onGone());
      if (this.state !== 'launching') throw new Error('browser killed while launching');
      // the startup page's renderer is not needed when sessions get their own contexts
      if (!this.exclusive) await Promise.all(ctx.pages().map((p) => p.close().catch(() => undefined)));
      this.state = 'up';
    } catch (e) {
      // a kill() that ran before the browser was up could not close it: once more now
      this.killing = null;
      await this.kill();
      throw e;
    }
  }

  private onGone(): void {
    if (this.state === 'dead' || this.state === 'closing') return;
    this.retired = true;
    this.emit('gone');
    // whatever of its tree is left goes now; its users are told by their own close events
    void this.kill();
  }

  private browser(): Browser {
    const b = this.persistent?.browser();
    if (!b || this.state !== 'up') throw new Error(`browser ${this.id} is ${this.state}`);
    return b;
  }

  /**
   * A context for `user`: `make` creates its page and loads it; the renderers that appear
   * meanwhile are the user's (one user at a time per browser).
   */
  async openContext<T>(user: object, make: (ctx: BrowserContext) => Promise<T>): Promise<{ context: BrowserContext; value: T }> {
    await this.launched;
    const run = this.lock.then(async () => {
      const before = new Set(this.renderers().map((p) => p.pid));
      this.opening = { user, before };
      const context = this.exclusive ? this.persistent! : await this.browser().newContext(CONTEXT_OPTIONS);
      try {
        const value = await make(context);
        return { context, value };
      } finally {
        this.opening = null;
        if (this.users.has(user))
          this.owned.set(
          user,
          this.renderers()
            .filter((p) => !before.has(p.pid))
            .map((p) => p.pid),
        );
      }
    });
    this.lock = run.catch(() => undefined);
    return run;
  }

  /** Registers `user` (before openContext, so the browser is not closed under it). */
  addUser(user: object): void {
    this.users.add(user);
    this.served++;
    if (this.served >= this.maxServed) this.retired = true;
  }

  /** Closes the user's context, SIGKILLs its renderers if still alive; closes the browser if it is empty. */
  async closeContext(user: object, context: BrowserContext | null): Promise<ProcInfo[]> {
    if (context && !this.exclusive && this.state === 'up') await withTimeout(context.close(), this.opts.closeTimeoutMs, 'context close').catch(() => undefined);
    const pids = this.owned.get(user) ?? [];
    const left = await this.killPids(pids);
    this.owned.delete(user);
    this.users.delete(user);
    this.warming.delete(user);
    // an empty browser closes at once: a new one costs ~1 s of background work, an idle one
    // ~150 MB; the pool keeps its warm runtimes in a browser, so this is rare while it is busy
    if (this.users.size === 0) return this.kill();
    return left;
  }

  /**
   * SIGKILLs the pids that still name this browser's folder and waits (≤ 1 s) until every one is
   * gone: a process that is exiting has an empty cmdline but is not gone yet, so it is waited
   * for, not signalled (its pid could be reused by then). Returns what is still alive.
   */
  private async killPids(pids: number[]): Promise<ProcInfo[]> {
    const alive = () =>
      pids
        .map((pid) => readProc(pid))
        .filter((p): p is ProcInfo => !!p && p.state !== 'Z' && (p.cmdline === '' || p.cmdline.includes(this.userDataDir)));
    let left = alive();
    for (let i = 0; i < 40 && left.length; i++) {
      for (const p of left) {
        if (!p.cmdline) continue;
        try {
          process.kill(p.pid, 'SIGKILL');
        } catch {
          /* gone */
        }
      }
      await new Promise((r) => setTimeout(r, 25));
      left = alive();
    }
    return left;
  }

  /** `user`'s runtime warms for the pool (true) or serves a session (false); priorities follow. */
  setWarming(user: object, warming: boolean): void {
    if (warming) this.warming.add(user);
    else this.warming.delete(user);
    this.prioritise();
  }

  /**
   * Each process at the priority of what it serves (priority.ts): a user's own renderers at the
   * warm nice while its runtime warms, else at the agent's own; the shared ones (browser, zygotes,
   * GPU, utilities) at the warm nice only while every user of the browser warms. Nothing is
   * lowered when priorities could not be raised back.
   */
  prioritise(procs?: ProcInfo[]): void {
    if ((this.opts.warmNice ?? 0) <= 0 || !this.userDataDir || this.state === 'dead' || !canRestorePriority()) return;
    const base = basePriority();
    // never above the agent's own priority (an agent already run at a high nice value stays there)
    const warmNice = Math.max(this.opts.warmNice ?? 0, base);
    const ownerOf = new Map<number, object>();
    for (const [u, pids] of this.owned) for (const pid of pids) ownerOf.set(pid, u);
    const all = this.processes(procs ?? listProcs());
    const opening = this.opening;
    if (opening) for (const p of all) if (isRenderer(p) && !opening.before.has(p.pid) && !ownerOf.has(p.pid)) ownerOf.set(p.pid, opening.user);
    const anyLive = [...this.users].some((u) => !this.warming.has(u));
    for (const p of all) {
      const u = ownerOf.get(p.pid);
      const nice = u ? (this.warming.has(u) ? warmNice : base) : anyLive ? base : warmNice;
      if (niceOf(p.pid) !== nice) renice(p.pid, nice);
    }
  }

  /** Living renderer processes of this browser. */
  renderers(procs: ProcInfo[] = listProcs()): ProcInfo[] {
    return this.processes(procs).filter(isRenderer);
  }

  /** Every living process of this browser (process group + profile folder). */
  processes(procs: ProcInfo[] = listProcs()): ProcInfo[] {
    return this.userDataDir ? runtimeProcs(this.userDataDir, this.pgid, procs) : [];
  }

  /** The user's own processes (its renderers) and the ones every user shares, of `procs`. */
  share(user: object, procs: ProcInfo[] = listProcs()): { own: ProcInfo[]; shared: ProcInfo[]; sharers: number } {
    const all = this.processes(procs);
    const mine = new Set(this.owned.get(user) ?? []);
    const others = new Set([...this.owned].filter(([u]) => u !== user).flatMap(([, p]) => p));
    if (this.exclusive) return { own: all, shared: [], sharers: 1 };
    return {
      own: all.filter((p) => mine.has(p.pid)),
      shared: all.filter((p) => !mine.has(p.pid) && !others.has(p.pid)),
      sharers: Math.max(1, this.users.size),
    };
  }

  /** Closes the browser and SIGKILLs whatever of its tree remains; removes its profile. */
  kill(): Promise<ProcInfo[]> {
    this.killing ??= (async () => {
      this.state = 'closing';
      this.retired = true;
      if (this.persistent) await withTimeout(this.persistent.close(), this.opts.closeTimeoutMs, 'browser close').catch(() => undefined);
      const leftover = this.userDataDir ? await killRuntimeTree(this.userDataDir, this.pgid) : [];
      if (this.userDataDir) fs.rmSync(this.userDataDir, { recursive: true, force: true, maxRetries: 3 });
      this.state = 'dead';
      this.persistent = null;
      this.emit('dead');
      return leftover;
    })();
    return this.killing;
  }

  /** For process exit paths: no awaiting, just SIGKILL (and remove the profile). */
  killSync(): void {
    if (!this.userDataDir || this.state === 'dead') return;
    killRuntimeTreeSync(this.userDataDir, this.pgid);
    try {
      fs.rmSync(this.userDataDir, { recursive: true, force: true });
    } catch {
      /* a later agent's sweep removes it */
    }
  }
}

/** What every session's context gets (the persistent one too). */
export const CONTEXT_OPTIONS: BrowserContextOptions = {
  viewport: { width: 1280, height: 720 },
  deviceScaleFactor: 1,
  locale: 'ja-JP',
  serviceWorkers: 'block',
  acceptDownloads: false,
};

/** The agent's browsers: hands each new runtime a browser with room, launching one when none has. */
export class BrowserSet {
  private readonly list = new Set<SharedBrowser>();

  constructor(private readonly opts: () => BrowserOptions) {}

  /** A browser for `user` (registered as its user), launching one if no open browser has room. */
  acquire(user: object): SharedBrowser {
    let b = [...this.list].find((x) => x.open);
    if (!b) {
      b = new SharedBrowser(this.opts());
      const nb = b;
      this.list.add(nb);
      nb.on('dead', () => this.list.delete(nb));
    }
    b.addUser(user);
    return b;
  }

  browsers(): SharedBrowser[] {
    return [...this.list];
  }

  /** Kills every browser (pool close); waits for launches in flight first. */
  async closeAll(): Promise<ProcInfo[]> {
    const all = [...this.list];
    await Promise.allSettled(all.map((b) => b.launched));
    return (await Promise.all(all.map((b) => b.kill()))).flat();
  }

  killAllSync(): void {
    for (const b of this.list) b.killSync();
  }
}

/**
 * A fresh runtime folder in `tmpDir` (a browser's profile; a light runtime's session folder),
 * with its owner file: a later agent sweeps it, and every process naming it, if we die unclean.
 */
export function makeRuntimeDir(tmpDir: string): string {
  fs.mkdirSync(tmpDir, { recursive: true });
  const dir = fs.mkdtempSync(path.join(tmpDir, RUNTIME_DIR_PREFIX));
  fs.writeFileSync(path.join(dir, OWNER_FILE), JSON.stringify({ pid: process.pid, at: new Date().toISOString() }));
  return dir;
}

/**
 * Removes browser profiles left in `tmpDir` by an agent that died without cleaning up (SIGKILL,
 * power loss), after SIGKILLing any process still naming them. A profile whose owner agent is
 * alive (another agent on the same machine) is left alone. Returns the folders removed.
 */
export async function sweepStaleRuntimes(tmpDir: string): Promise<string[]> {
  let names: string[];
  try {
    names = fs.readdirSync(tmpDir).filter((n) => n.startsWith(RUNTIME_DIR_PREFIX));
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const dir = path.join(tmpDir, name);
    let owner: number | null = null;
    try {
      owner = Number(JSON.parse(fs.readFileSync(path.join(dir, OWNER_FILE), 'utf8')).pid) || null;
    } catch {
      owner = null;
    }
    if (owner !== null && owner !== process.pid && pidAlive(owner)) continue;
    if (owner === process.pid) continue;
    // no owner file: only when nothing uses it (a profile being created this instant has one)
    if (owner === null && runtimeProcs(dir, null).length > 0) continue;
    await killRuntimeTree(dir, null, 2000);
    fs.rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
    removed.push(dir);
  }
  return removed;
}
