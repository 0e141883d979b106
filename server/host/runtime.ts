/**
 * One runtime: one Chromium browser process (playwright-core, Debian chromium) with its own
 * fresh user-data-dir and one browser context, whose page has the VN runtime and the bridge
 * already loaded ("warm"). A runtime serves exactly one session and is then killed with its
 * whole process tree (never reused): nothing of one player's session can reach the next.
 *
 * Isolation of the context:
 *   - storage: a fresh user-data-dir per runtime, deleted after; no other context in the browser;
 *   - network: every request that is not for the host's own static origin is aborted
 *     (context.route), every WebSocket that is not the session's signalling URL is closed
 *     (context.routeWebSocket), service workers are blocked;
 *   - environment: the browser gets no secrets in its environment.
 */
import { CHROMIUM_ARGS } from '../shared/chromium';
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import type { YumecastApi } from '../../runtime/src/main';
import {
  ENGINE_EVENT_BINDING,
  HOST_CALL_BINDING,
  type BridgeCounters,
  type BridgeReadyInfo,
  type BridgeSessionConfig,
  type HostCall,
  type PrewarmResult,
} from './bridge-protocol';
import type { PrewarmPlan } from './prewarm';
import type { EngineSummary } from './schemas';
import { findBrowserProc, killRuntimeTree, killRuntimeTreeSync, listProcs, runtimeProcs, type ProcInfo } from './procs';

/**
 * DESIGN §6 plus quiet defaults. (--disable-crashpad-for-testing would keep crashpad's daemon
 * away, but with it this Chromium's network service crashes in a loop: "FD ownership violation".
 * Instead each browser's XDG_CONFIG_HOME lies inside its user-data-dir, so crashpad's
 * --database names that folder and procs.ts finds it.)
 */
export const CHROMIUM_FLAGS = [
  ...CHROMIUM_ARGS,
  '--disable-breakpad',
  '--disable-dev-shm-usage',
  '--disable-default-apps',
  '--disable-extensions',
  '--no-default-browser-check',
  '--metrics-recording-only',
  '--password-store=basic',
];

export type RuntimeState = 'launching' | 'warm' | 'busy' | 'closing' | 'dead';

export interface RuntimeOptions {
  chromiumPath: string;
  tmpDir: string;
  /** The pages' static origin (http://127.0.0.1:<port>). */
  pageOrigin: string;
  launchTimeoutMs: number;
  startTimeoutMs: number;
  closeTimeoutMs: number;
  /** Fonts and game files to load while warming (server/host/prewarm.ts). */
  prewarm?: PrewarmPlan | null;
}

/** What a session plugs into its runtime: the bridge's calls and the engine's events. */
export interface RuntimeHandler {
  onHostCall(call: HostCall): Promise<unknown>;
  onEngineEvent(name: string, payload: unknown): void;
  /** The browser or the page died under the session. */
  onCrash(reason: string): void;
}

export interface KillReport {
  /** ms from kill() to no process left. */
  ms: number;
  /** processes that could not be killed (should be []). */
  leftover: ProcInfo[];
}

let seq = 0;

export const RUNTIME_DIR_PREFIX = 'yumecast-rt-';
const OWNER_FILE = 'yumecast-owner.json';

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes runtime profiles left in `tmpDir` by an agent that died without cleaning up (SIGKILL,
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

const SECRET_ENV = /SECRET|TOKEN|PASSWORD|PASSWD|CREDENTIAL|PRIVATE|_KEY$|^DATABASE_URL$|^PG/i;

/** The browser's environment: no secrets; config (and crashpad's database) inside its own dir. */
function browserEnv(userDataDir: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !SECRET_ENV.test(k)) env[k] = v;
  env.XDG_CONFIG_HOME = path.join(userDataDir, 'xdg-config');
  env.XDG_CACHE_HOME = path.join(userDataDir, 'xdg-cache');
  return env;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    p.finally(() => clearTimeout(timer)),
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms);
    }),
  ]);
}

/** Width and height from a PNG's IHDR, or null when the bytes are not a PNG. */
export function pngSize(png: Buffer): { width: number; height: number } | null {
  if (png.length < 24 || png.subarray(0, 8).toString('hex') !== '89504e470d0a1a0a' || png.subarray(12, 16).toString('ascii') !== 'IHDR') return null;
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

export class Runtime extends EventEmitter {
  readonly id = `rt-${process.pid}-${++seq}`;
  state: RuntimeState = 'launching';
  userDataDir = '';
  browserPid: number | null = null;
  pgid: number | null = null;
  context: BrowserContext | null = null;
  page: Page | null = null;
  /** ms the launch took (browser + runtime page + bridge + prewarm). */
  launchMs = 0;
  /** What the prewarm loaded (null when there was no plan). */
  prewarmed: PrewarmResult | null = null;
  readonly blocked = { requests: 0, websockets: 0, lastUrl: '' };
  sessionId: string | null = null;
  private handler: RuntimeHandler | null = null;
  /** WebSocket URLs (without query) the page may open: the session's signalling endpoint. */
  private allowedWs = new Set<string>();
  private killing: Promise<KillReport> | null = null;
  private usePrewarm = true;

  constructor(readonly opts: RuntimeOptions) {
    super();
  }

  /**
   * Launches the browser and loads the runtime page and the bridge (and, with `prewarm`, the
   * fonts and game files of the prewarm plan); resolves when warm.
   */
  async launch(prewarm = true): Promise<this> {
    const t0 = Date.now();
    this.usePrewarm = prewarm;
    fs.mkdirSync(this.opts.tmpDir, { recursive: true });
    this.userDataDir = fs.mkdtempSync(path.join(this.opts.tmpDir, RUNTIME_DIR_PREFIX));
    // who owns this profile: a later agent sweeps it (and its processes) if we die unclean
    fs.writeFileSync(path.join(this.userDataDir, OWNER_FILE), JSON.stringify({ pid: process.pid, at: new Date().toISOString() }));
    try {
      await withTimeout(this.doLaunch(), this.opts.launchTimeoutMs, 'runtime launch');
    } catch (e) {
      await this.kill();
      throw e;
    }
    this.launchMs = Date.now() - t0;
    this.state = 'warm';
    return this;
  }

  private async doLaunch(): Promise<void> {
    const origin = this.opts.pageOrigin;
    const ctx = await chromium.launchPersistentContext(this.userDataDir, {
      executablePath: this.opts.chromiumPath,
      headless: true,
      args: CHROMIUM_FLAGS,
      env: browserEnv(this.userDataDir),
      viewport: { width: 1280, height: 720 },
      deviceScaleFactor: 1,
      locale: 'ja-JP',
      serviceWorkers: 'block',
      acceptDownloads: false,
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
      timeout: this.opts.launchTimeoutMs,
    });
    this.context = ctx;
    if (this.state === 'closing' || this.state === 'dead') throw new Error('runtime killed while launching');
    const proc = findBrowserProc(this.userDataDir);
    this.browserPid = proc?.pid ?? null;
    this.pgid = proc?.pgid ?? null;
    ctx.on('close', () => this.onGone('browser closed'));

    // so ICE offers host candidates (DESIGN §6)
    await ctx.grantPermissions(['camera', 'microphone'], { origin });
    // network: the static origin only (and the session's signalling WebSocket, below)
    await ctx.route(new RegExp(`^(?!${escapeRegExp(origin)}/)`), (route) => {
      this.blocked.requests++;
      this.blocked.lastUrl = route.request().url().slice(0, 200);
      return route.abort('blockedbyclient');
    });
    await ctx.routeWebSocket(/.*/, (ws) => {
      const url = ws.url();
      if (this.allowedWs.has(url.split('?')[0])) {
        ws.connectToServer();
      } else {
        this.blocked.websockets++;
        this.blocked.lastUrl = url.slice(0, 200);
        void ws.close({ code: 1008, reason: 'blocked' });
      }
    });
    await ctx.exposeBinding(HOST_CALL_BINDING, async (_source, kind: HostCall['kind'], data: object) => {
      if (!this.handler) return null;
      return this.handler.onHostCall({ ...(data ?? {}), kind } as HostCall);
    });
    await ctx.exposeBinding(ENGINE_EVENT_BINDING, (_source, name: string, payload: unknown) => {
      this.handler?.onEngineEvent(String(name), payload);
    });

    const page = ctx.pages()[0] ?? (await ctx.newPage());
    this.page = page;
    page.on('crash', () => this.onGone('page crashed'));
    page.on('pageerror', (e) => this.emit('log', 'warn', `page error: ${e.message}`));
    const res = await page.goto(`${origin}/runtime/index.html`, { waitUntil: 'load', timeout: this.opts.launchTimeoutMs });
    if (!res?.ok()) throw new Error(`runtime page failed to load: ${res?.status() ?? 'no response'}`);
    await page.addScriptTag({ url: `${origin}/host/bridge.js` });
    await page.waitForFunction(() => !!(window as unknown as { yumecast?: unknown }).yumecast && !!window.__yumecastHost, undefined, {
      timeout: this.opts.launchTimeoutMs,
    });
    const plan = this.opts.prewarm;
    if (plan && this.usePrewarm) this.prewarmed = await page.evaluate((p) => window.__yumecastHost!.prewarm(p), plan);
  }

  private onGone(reason: string): void {
    if (this.state === 'closing' || this.state === 'dead') return;
    const h = this.handler;
    this.emit('crash', reason);
    h?.onCrash(reason);
  }

  /** Hands the warm runtime to a session. */
  attach(sessionId: string, handler: RuntimeHandler, signalUrl: string): void {
    if (this.state !== 'warm') throw new Error(`runtime ${this.id} is ${this.state}, not warm`);
    this.state = 'busy';
    this.sessionId = sessionId;
    this.handler = handler;
    this.allowedWs.add(signalUrl.split('?')[0]);
  }

  /** Starts the game and publishing (bridge.begin). */
  async begin(cfg: BridgeSessionConfig): Promise<BridgeReadyInfo> {
    const page = this.mustPage();
    return withTimeout(
      page.evaluate((c) => window.__yumecastHost!.begin(c), cfg),
      this.opts.startTimeoutMs,
      'game start',
    );
  }

  /** The runtime's canvas at full resolution (1280×720), as PNG bytes. */
  async screenshotPng(): Promise<Buffer> {
    const page = this.mustPage();
    const dataUrl = await withTimeout(
      page.evaluate(() => (window as unknown as { yumecast: YumecastApi }).yumecast.screenshot()),
      10_000,
      'screenshot',
    );
    const prefix = 'data:image/png;base64,';
    if (typeof dataUrl !== 'string' || !dataUrl.startsWith(prefix)) throw new Error('screenshot: not a PNG data URL');
    return Buffer.from(dataUrl.slice(prefix.length), 'base64');
  }

  async counters(): Promise<BridgeCounters | null> {
    if (!this.page || this.state !== 'busy') return null;
    return this.page.evaluate(() => window.__yumecastHost!.counters()).catch(() => null);
  }

  /** What the game shows now (screen, line, choices, quality): for operators and tests. */
  async engineState(): Promise<EngineSummary | null> {
    if (!this.page || this.state !== 'busy') return null;
    return withTimeout(
      this.page.evaluate(() => {
        const st = (window as unknown as { yumecast: { getState(): Record<string, unknown> } }).yumecast.getState();
        const choices = (st.choices as { text: string }[]) ?? [];
        return {
          screen: String(st.screen),
          overlay: (st.overlay as string | null) ?? null,
          scene: (st.scene as string | null) ?? null,
          speakerName: (st.speakerName as string | null) ?? null,
          visibleText: String(st.visibleText ?? '').slice(0, 200),
          choices: choices.map((c) => c.text.slice(0, 80)),
          lineCount: Number(st.lineCount ?? 0),
          ending: (st.ending as string | null) ?? null,
          quality: String(st.quality),
          frame: Number(st.frame ?? 0),
        };
      }),
      2000,
      'engineState',
    ).catch(() => null);
  }

  /** The engine's current play state (to save before the runtime goes), or null. */
  async snapshot(): Promise<string | null> {
    if (!this.page || this.state !== 'busy') return null;
    return withTimeout(
      this.page.evaluate(() => (window as unknown as { yumecast: YumecastApi }).yumecast.snapshot()),
      2000,
      'snapshot',
    ).catch(() => null);
  }

  /** The runtime's page (tests and the bench evaluate in it). */
  get livePage(): Page {
    return this.mustPage();
  }

  /** Says bye to the player (bridge.end) and stops publishing. */
  async bye(reason: string): Promise<void> {
    if (!this.page || this.state !== 'busy') return;
    await withTimeout(
      this.page.evaluate((r) => window.__yumecastHost!.end(r), reason),
      1500,
      'bye',
    ).catch(() => undefined);
  }

  /** This runtime's living processes (process group + user-data-dir). */
  processes(): ProcInfo[] {
    if (!this.userDataDir) return [];
    return runtimeProcs(this.userDataDir, this.pgid, listProcs());
  }

  /** browser.close(), then SIGKILL whatever of its process tree remains; removes its profile. */
  kill(): Promise<KillReport> {
    this.killing ??= (async () => {
      const t0 = Date.now();
      this.state = 'closing';
      this.handler = null;
      if (this.context) await withTimeout(this.context.close(), this.opts.closeTimeoutMs, 'browser close').catch(() => undefined);
      const leftover = this.userDataDir ? await killRuntimeTree(this.userDataDir, this.pgid) : [];
      if (this.userDataDir) fs.rmSync(this.userDataDir, { recursive: true, force: true, maxRetries: 3 });
      this.state = 'dead';
      this.context = null;
      this.page = null;
      this.emit('dead');
      return { ms: Date.now() - t0, leftover };
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

  private mustPage(): Page {
    if (!this.page || this.state === 'dead' || this.state === 'closing') throw new Error(`runtime ${this.id} is ${this.state}`);
    return this.page;
  }
}
