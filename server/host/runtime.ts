/**
 * One runtime: one browser context with one page that has the VN runtime and the bridge already
 * loaded ("warm"), inside a Chromium shared with up to HOST_SESSIONS_PER_BROWSER − 1 other
 * runtimes (browsers.ts; with 1, a whole browser per runtime as before issue 11). A runtime
 * serves exactly one session and is then closed, its renderer processes SIGKILLed if still alive
 * (and its browser with its whole process tree when no other runtime uses it): never reused, so
 * nothing of one player's session can reach the next.
 *
 * Isolation of the context (docs/host.md "Isolation", "Runtime model"):
 *   - storage: its own incognito-like context (browser.newContext: in-memory cookies, storage,
 *     HTTP cache, never shared with another context); with one runtime per browser, a fresh
 *     profile folder, deleted after;
 *   - processes: Chromium never puts two contexts' pages in one renderer, so one session's
 *     renderer crash does not reach the others;
 *   - network (runtime-guards.ts): every request that is not for the host's own static origin is
 *     aborted (context.route), every WebSocket but the signalling's is closed
 *     (context.routeWebSocket), service workers are blocked;
 *   - environment: the browser gets no secrets in its environment.
 */
import { EventEmitter } from 'node:events';
import type { BrowserContext, Page } from 'playwright-core';
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
import { BrowserSet, withTimeout, type BrowserOptions, type SharedBrowser } from './browsers';
import type { FrameMode } from './config';
import type { PrewarmPlan } from './prewarm';
import type { EngineSummary } from './schemas';
import { CHROMIUM_FLAGS, ZERO_PLAYOUT_DELAY_FLAG } from './browser-flags';
import { listProcs, type ProcInfo } from './procs';
import { NATIVE_STREAM_PATH, RUNTIME_HOST_PAGE } from './page-paths';
import { guardNetwork } from './runtime-guards';
import { engineSummary, type KillReport, type RuntimeHandler, type RuntimeState, type SessionRuntime } from './session-runtime';

export { RUNTIME_DIR_PREFIX, sweepStaleRuntimes } from './browsers';

export type { KillReport, RuntimeHandler, RuntimeState };

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
  /** How many runtimes share one Chromium (HOST_SESSIONS_PER_BROWSER); default 1: a browser each. */
  sessionsPerBrowser?: number;
  /**
   * HOST_FRAME_MODE: with `change` the page loads as `host.html?frames=change`, so a warm page
   * waiting for its session draws nothing (runtime/src/frames.ts); default `steady`.
   */
  frameMode?: FrameMode;
  /** HOST_ART_BUDGET_MB: the page loads with `?artMb=<n>` (runtime/src/art.ts); null = the runtime's budget. */
  artBudgetMb?: number | null;
  /** HOST_MUSIC_LOOPS: `pcm` loads the page with `?loops=pcm` (runtime/src/audio/loops.ts); default buffer. */
  musicLoops?: 'pcm' | 'buffer';
  /** HOST_START_FONTS: `all` loads the page with `?fonts=all` (runtime/src/main.ts); default first. */
  startFonts?: 'first' | 'all';
  /** HOST_CAPTURE: `canvas` loads the page with `?capture=canvas` (runtime/src/frames.ts); default written VideoFrames. */
  capture?: 'frame' | 'canvas';
  /** HOST_AUDIO_DEVICE: true loads the page without `?sink=none` (its AudioContext plays to the output device too; runtime/src/audio/engine.ts). */
  audioDevice?: boolean;
  /** HOST_AUDIO_SENDS: `eager` loads the page with `?sends=eager` (runtime/src/audio/chain.ts); default lazy. */
  audioSends?: 'lazy' | 'eager';
  /** HOST_SFX_FILES: false loads the page with `?sfx=live` (runtime/src/audio/sfx-player.ts); default the build's files. */
  sfxFiles?: boolean;
  /** HOST_ZERO_PLAYOUT_DELAY: the browsers run with ZERO_PLAYOUT_DELAY_FLAG; default off (tests' runtimes). */
  zeroPlayoutDelay?: boolean;
  /** HOST_WARM_NICE: a runtime warmed for the pool runs at this nice value until a session takes it (priority.ts); default 0 (not lowered). */
  warmNice?: number;
  /**
   * HOST_SIGNAL_URLS: the signalling endpoints (ws URLs without query) a runtime's page opens
   * natively; any other WebSocket is blocked, but a session's own signal URL when it is not one of
   * these, which is relayed through playwright (slower). Default none (tests' runtimes).
   */
  signalUrls?: string[];
}

/** How often a warming runtime's new processes are put at its priority (browsers.ts prioritise). */
const PRIORITY_POLL_MS = 100;

/** Where a Runtime's browser comes from when it is made alone (tests): its own exclusive set. */
export function browserOptions(opts: RuntimeOptions): BrowserOptions {
  return {
    chromiumPath: opts.chromiumPath,
    tmpDir: opts.tmpDir,
    launchTimeoutMs: opts.launchTimeoutMs,
    closeTimeoutMs: opts.closeTimeoutMs,
    sessionsPerBrowser: opts.sessionsPerBrowser ?? 1,
    args: opts.zeroPlayoutDelay ? [...CHROMIUM_FLAGS, ZERO_PLAYOUT_DELAY_FLAG] : CHROMIUM_FLAGS,
    warmNice: opts.warmNice ?? 0,
  };
}

let seq = 0;

/** Width and height from a PNG's IHDR, or null when the bytes are not a PNG. */
export function pngSize(png: Buffer): { width: number; height: number } | null {
  if (png.length < 24 || png.subarray(0, 8).toString('hex') !== '89504e470d0a1a0a' || png.subarray(12, 16).toString('ascii') !== 'IHDR') return null;
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

export class Runtime extends EventEmitter implements SessionRuntime {
  readonly id = `rt-${process.pid}-${++seq}`;
  readonly kind = 'page' as const;
  state: RuntimeState = 'launching';
  /** The Chromium this runtime's context lives in (shared with other runtimes unless exclusive). */
  browser: SharedBrowser | null = null;
  context: BrowserContext | null = null;
  page: Page | null = null;
  /** ms the launch took (browser if one was needed + context + runtime page + bridge + prewarm). */
  launchMs = 0;
  /** ms of the launch spent waiting for a browser to come up (0 when one was running). */
  browserWaitMs = 0;
  /** What the prewarm loaded (null when there was no plan). */
  prewarmed: PrewarmResult | null = null;
  readonly blocked = { requests: 0, websockets: 0, lastUrl: '' };
  /** WebSockets relayed through playwright (a session's signal URL that is not one of `signalUrls`). */
  relayedWs = 0;
  sessionId: string | null = null;
  private handler: RuntimeHandler | null = null;
  /** WebSocket URLs (without query) the page may open: the session's signalling endpoint. */
  private allowedWs = new Set<string>();
  private killing: Promise<KillReport> | null = null;
  private usePrewarm = true;
  private gone = false;
  private readonly browsers: BrowserSet;

  constructor(
    readonly opts: RuntimeOptions,
    browsers?: BrowserSet,
  ) {
    super();
    this.browsers = browsers ?? new BrowserSet(() => browserOptions(opts));
  }

  /** The browser's profile folder (every process of the browser names it). */
  get userDataDir(): string {
    return this.browser?.userDataDir ?? '';
  }

  /** The browser's main process and process group. */
  get browserPid(): number | null {
    return this.browser?.browserPid ?? null;
  }

  get pgid(): number | null {
    return this.browser?.pgid ?? null;
  }

  /**
   * Makes the context in a browser with room (launching one if needed) and loads the runtime page
   * and the bridge (and, with `prewarm`, the fonts and game files of the prewarm plan); resolves
   * when warm.
   */
  async launch(prewarm = true): Promise<this> {
    const t0 = Date.now();
    this.usePrewarm = prewarm;
    const browser = this.browsers.acquire(this);
    this.browser = browser;
    browser.once('gone', this.onBrowserGone);
    // warming for the pool (not a cold start, which a player waits for): at the warm priority
    // until a session takes it (attach), the processes that appear meanwhile included
    if (prewarm) browser.setWarming(this, true);
    const poll = prewarm && (this.opts.warmNice ?? 0) > 0 ? setInterval(() => browser.prioritise(), PRIORITY_POLL_MS) : null;
    try {
      await withTimeout(
        (async () => {
          await browser.launched;
          this.browserWaitMs = Date.now() - t0;
          if (this.state !== 'launching') throw new Error('runtime killed while launching');
          const { context } = await browser.openContext(this, (ctx) => this.setUp(ctx));
          this.context = context;
          if (this.state !== 'launching') throw new Error('runtime killed while launching');
          await this.warmUp();
        })(),
        this.opts.launchTimeoutMs,
        'runtime launch',
      );
    } catch (e) {
      await this.kill();
      throw e;
    } finally {
      if (poll) clearInterval(poll);
    }
    browser.prioritise();
    this.launchMs = Date.now() - t0;
    this.state = 'warm';
    return this;
  }

  /** The context's guards and bindings, its page, and the runtime page loaded (renderers made here are this runtime's). */
  private async setUp(ctx: BrowserContext): Promise<void> {
    const origin = this.opts.pageOrigin;
    this.context = ctx;
    ctx.on('close', () => this.onGone('browser closed'));
    // so ICE offers host candidates (DESIGN §6)
    await ctx.grantPermissions(['camera', 'microphone'], { origin });
    // network: the static origin and the signalling only (runtime-guards.ts)
    await guardNetwork(ctx, {
      origin,
      // the signalling, and a native title's stream on the pages' origin (keyed per session)
      signalUrls: [...(this.opts.signalUrls ?? []), `${origin.replace(/^http/, 'ws')}${NATIVE_STREAM_PATH}`],
      allowedWs: this.allowedWs,
      blocked: this.blocked,
      onRelay: () => this.relayedWs++,
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
    const q = new URLSearchParams();
    if (this.opts.frameMode === 'change') q.set('frames', 'change');
    if (this.opts.artBudgetMb != null) q.set('artMb', String(this.opts.artBudgetMb));
    if (this.opts.musicLoops === 'pcm') q.set('loops', 'pcm');
    if (this.opts.startFonts === 'all') q.set('fonts', 'all');
    if (this.opts.sfxFiles === false) q.set('sfx', 'live');
    if (!this.opts.audioDevice) q.set('sink', 'none');
    if (this.opts.audioSends === 'eager') q.set('sends', 'eager');
    if (this.opts.capture === 'canvas') q.set('capture', 'canvas');
    const query = q.size ? `?${q}` : '';
    const res = await page.goto(`${origin}${RUNTIME_HOST_PAGE}${query}`, { waitUntil: 'load', timeout: this.opts.launchTimeoutMs });
    if (!res?.ok()) throw new Error(`runtime page failed to load: ${res?.status() ?? 'no response'}`);
  }

  /** The bridge's readiness and the prewarm (outside the browser's one-context-at-a-time section). */
  private async warmUp(): Promise<void> {
    const page = this.mustPage();
    // the bridge's script is in the runtime's host page (page-server.ts): both have run at load
    await page.waitForFunction(() => !!(window as unknown as { yumecast?: unknown }).yumecast && !!window.__yumecastHost, undefined, {
      timeout: this.opts.launchTimeoutMs,
    });
    const plan = this.opts.prewarm;
    if (plan && this.usePrewarm) this.prewarmed = await page.evaluate((p) => window.__yumecastHost!.prewarm(p), plan);
  }

  private readonly onBrowserGone = () => this.onGone('browser closed');

  private onGone(reason: string): void {
    // the page's crash, its context's close and its browser's end may each report one death
    if (this.state === 'closing' || this.state === 'dead' || this.gone) return;
    this.gone = true;
    const h = this.handler;
    this.emit('crash', reason);
    h?.onCrash(reason);
  }

  /** Hands the warm runtime to a session. */
  attach(sessionId: string, handler: RuntimeHandler, signalUrl: string): void {
    if (this.state !== 'warm') throw new Error(`runtime ${this.id} is ${this.state}, not warm`);
    this.state = 'busy';
    this.browser?.setWarming(this, false);
    this.sessionId = sessionId;
    this.handler = handler;
    this.allowedWs.add(signalUrl.split('?')[0]);
  }

  /** Starts the game and publishing (bridge.begin); a native game's boot may take longer than the start timeout (`timeoutMs`). */
  async begin(cfg: BridgeSessionConfig, timeoutMs = this.opts.startTimeoutMs): Promise<BridgeReadyInfo> {
    const page = this.mustPage();
    return withTimeout(
      page.evaluate((c) => window.__yumecastHost!.begin(c), cfg),
      timeoutMs,
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
      this.page.evaluate(() => (window as unknown as { yumecast: { getState(): Record<string, unknown> } }).yumecast.getState()).then(engineSummary),
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

  /**
   * The processes this runtime uses: its own renderers and its browser's shared processes
   * (browser, zygotes, GPU, network, storage, audio, crashpad) while it lives; after kill(),
   * whatever of its own is still alive (normally nothing), and its browser's if that was closed.
   */
  processes(): ProcInfo[] {
    const b = this.browser;
    if (!b) return [];
    const { own, shared } = b.share(this, listProcs());
    if (this.state !== 'dead' && this.state !== 'closing') return [...own, ...shared];
    return b.state === 'dead' || b.exclusive ? [...own, ...shared] : own;
  }

  /** Own and shared processes and how many runtimes share the latter (procs.ts sessionFootprint). */
  processShare(procs: ProcInfo[] = listProcs()): { own: ProcInfo[]; shared: ProcInfo[]; sharers: number } {
    return this.browser ? this.browser.share(this, procs) : { own: [], shared: [], sharers: 1 };
  }

  /**
   * Closes the context and SIGKILLs its renderers if still alive; when no other runtime uses its
   * browser, closes the browser and SIGKILLs whatever of its tree remains, removing its profile.
   */
  kill(): Promise<KillReport> {
    this.killing ??= (async () => {
      const t0 = Date.now();
      this.state = 'closing';
      this.handler = null;
      this.browser?.off('gone', this.onBrowserGone);
      const leftover = this.browser ? await this.browser.closeContext(this, this.context) : [];
      this.state = 'dead';
      this.context = null;
      this.page = null;
      this.emit('dead');
      return { ms: Date.now() - t0, leftover };
    })();
    return this.killing;
  }

  /** For process exit paths: no awaiting, just SIGKILL its browser (and remove the profile). */
  killSync(): void {
    if (this.state === 'dead') return;
    this.browser?.killSync();
  }

  private mustPage(): Page {
    if (!this.page || this.state === 'dead' || this.state === 'closing') throw new Error(`runtime ${this.id} is ${this.state}`);
    return this.page;
  }
}
