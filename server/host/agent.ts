/**
 * The game-host agent: the api-facing Fastify app (routes/: health, start/stop sessions, in the
 * api's one error envelope), the pages' static origin, the runtime pool, the sessions, and the
 * registry client. `buildHostAgent` builds it without listening; `agent.start()` listens, warms
 * the pool and registers; `agent.shutdown()` reports Shutdown, ends every session with
 * `bye host_shutdown`, kills every browser and closes the servers. server/host/main.ts runs it
 * as a process.
 */
import fs from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { buildRuntime } from '../../runtime/build';
import { envelopeServerOptions } from '../shared/errors';
import { finiteNumbers } from '../shared/finite-numbers';
import { serverTimeoutOptions } from '../shared/http-limits';
import { sentryErrorCapture } from '../shared/sentry';
import { ApiClient } from './api-client';
import type { HostConfig } from './config';
import { NativeHost } from './native/host';
import { NativeStreams } from './native/stream-server';
import { startPageServer, type PageServer } from './page-server';
import { buildPrewarmPlan } from './prewarm';
import { LightHostRuntime } from './light/light-runtime';
import { removeWorkerBundle, sweepStaleBundles } from './light/worker-bundle';
import { LightWorkers, type WorkerSetOptions } from './light/worker-set';
import { RuntimePool } from './pool';
import { Runtime, type RuntimeOptions } from './runtime';
import { canRestorePriority } from './priority';
import { sweepStaleRuntimes } from './runtime';
import { createFleet, type Fleet } from './fleet';
import type { Registry } from './registry';
import type { HostRouteDeps } from './routes/deps';
import hostErrors from './routes/errors';
import healthRoutes from './routes/health';
import hostRateLimit from './routes/rateLimit';
import hostMetrics from './routes/metrics';
import sessionRoutes from './routes/sessions';
import type { AgentState } from './schemas';
import type { SessionRuntime } from './session-runtime';
import { SessionManager } from './sessions';

type Log = (level: 'info' | 'warn' | 'error', msg: string) => void;

/** Shutdown gives sessions this long to save and say bye before every runtime is killed. */
const SHUTDOWN_GRACE_MS = 5000;

export interface HostAgent {
  config: HostConfig;
  app: FastifyInstance;
  pool: RuntimePool<SessionRuntime>;
  sessions: SessionManager;
  registry: Registry | null;
  /** The fleet(s) this host belongs to (fleet/: the api registry, Agones), after start(). */
  fleet: Fleet | null;
  api: ApiClient | null;
  /** The pages' static origin, after start(). */
  pageOrigin(): string;
  /** The api-facing base URL, after start(). */
  url(): string;
  start(): Promise<void>;
  /** Report Shutdown, end every session (bye host_shutdown), kill every browser, close. */
  shutdown(): Promise<void>;
  /** SIGKILLs every browser and every native game now (the process's exit paths: nothing outlives the agent). */
  killAllSync(): void;
  state(): AgentState;
}

export interface BuildHostAgentOptions {
  log?: Log;
  /** Fastify logger (default: off unless LOG_LEVEL=debug; main.ts passes logging.ts's JSON logger). */
  logger?: FastifyServerOptions['logger'];
}

export function buildHostAgent(config: HostConfig, options: BuildHostAgentOptions = {}): HostAgent {
  const log: Log =
    options.log ??
    ((level, m) => {
      if (level === 'info' && config.logLevel === 'silent') return;
      (level === 'error' ? console.error : level === 'warn' ? console.warn : console.log)(`[host ${config.hostId}] ${m}`);
    });
  let pageServer: PageServer | null = null;
  let state: AgentState = 'starting';
  let baseUrl = '';

  // the light runtimes' worker processes (light/worker-set.ts), several runtimes each, on the
  // pool's own runtime options (its tmpDir, the pages' origin, its timeouts)
  const lightWorkers: LightWorkers = new LightWorkers((): WorkerSetOptions => {
    const o: RuntimeOptions = pool.runtimeOptions;
    return { tmpDir: o.tmpDir, pageOrigin: o.pageOrigin, perWorker: config.light.perWorker, launchTimeoutMs: o.launchTimeoutMs, closeTimeoutMs: o.closeTimeoutMs };
  });
  lightWorkers.onLog = log;
  const pool = new RuntimePool<SessionRuntime>({
    capacity: config.capacity,
    kind: config.runtimeKind,
    // HOST_RUNTIME_KIND=light: the web engine's titles in Node processes (light/light-runtime.ts)
    createRuntime: (opts, browsers, kind) =>
      kind === 'light'
        ? new LightHostRuntime(
            { launchTimeoutMs: opts.launchTimeoutMs, startTimeoutMs: opts.startTimeoutMs, closeTimeoutMs: opts.closeTimeoutMs, python: config.light.python, cpuUsed: config.light.cpuUsed },
            lightWorkers,
          )
        : new Runtime(opts, browsers),
    warm: config.warm,
    refillDelayMs: config.timings.refillDelayMs,
    log,
    runtime: {
      chromiumPath: config.chromiumPath,
      tmpDir: config.tmpDir,
      get pageOrigin() {
        if (!pageServer) throw new Error('the page server is not started');
        return pageServer.origin;
      },
      launchTimeoutMs: config.timings.launchTimeoutMs,
      startTimeoutMs: config.timings.startTimeoutMs,
      closeTimeoutMs: config.timings.closeTimeoutMs,
      prewarm: null,
      sessionsPerBrowser: config.sessionsPerBrowser,
      frameMode: config.frameMode,
      artBudgetMb: config.artBudgetMb,
      musicLoops: config.musicLoops,
      startFonts: config.startFonts,
      audioDevice: config.audioDevice,
      audioSends: config.audioSends,
      capture: config.capture,
      sfxFiles: config.sfxFiles,
      zeroPlayoutDelay: config.zeroPlayoutDelay,
      warmNice: config.warmNice,
      signalUrls: config.signalUrls,
    },
  });
  const api = config.register ? new ApiClient(config.apiUrl, config.sharedSecret, config.hostId) : null;
  // with registration off (HOST_REGISTER=0: the bench, agent-only runs) nothing is reported
  // native titles (a Ren'Py game under Xvfb, issue 15): their streams on the pages' origin
  const nativeStreams = new NativeStreams();
  const nativeHost = new NativeHost(
    config.native,
    config.hostId,
    config.gamesDirs,
    nativeStreams,
    () => {
      if (!pageServer) throw new Error('the page server is not started');
      return pageServer.origin;
    },
    api,
    log,
  );
  const sessions = new SessionManager(pool, api, config, log, nativeHost);
  let registry: Registry | null = null;
  let fleet: Fleet | null = null;

  const app = Fastify({
    logger: options.logger ?? config.logLevel === 'debug',
    bodyLimit: 2 * 1024 * 1024,
    // unknown fields where a schema says additionalProperties:false are refused, not dropped;
    // no type coercion; every number finite (server/shared/finite-numbers.ts)
    ajv: { customOptions: { removeAdditional: false, coerceTypes: false, allErrors: false }, plugins: [finiteNumbers] },
    // errors raised before routing answer with the error envelope too (server/shared/errors.ts)
    ...envelopeServerOptions,
    // slow senders are cut off (HOST_HEADERS/REQUEST_TIMEOUT_MS; server/shared/http-limits.ts)
    ...serverTimeoutOptions(config.httpTimeouts),
  });

  const deps: HostRouteDeps = { config, pool, sessions, agentState: () => state, registry: () => registry };
  void app.register(hostErrors, { log });
  // per-address rate limits on every route (HOST_HTTP_RATE_LIMIT_*; routes/rateLimit.ts)
  void app.register(hostRateLimit, { limits: config.httpRateLimit });
  // observability (docs/operations.md): 5xx to Sentry when it is on; request histogram + GET /metrics
  void app.register(sentryErrorCapture);
  void app.register(hostMetrics, { ...deps, token: config.metricsToken });
  void app.register(healthRoutes, deps);
  void app.register(sessionRoutes, deps);

  let shuttingDown: Promise<void> | null = null;

  const agent: HostAgent = {
    config,
    app,
    pool,
    sessions,
    get registry() {
      return registry;
    },
    get fleet() {
      return fleet;
    },
    api,
    pageOrigin: () => {
      if (!pageServer) throw new Error('not started');
      return pageServer.origin;
    },
    url: () => baseUrl,
    killAllSync: () => {
      nativeHost.killAllSync();
      pool.killAllSync();
    },
    state: () => state,
    async start() {
      if (!fs.existsSync(path.join(config.runtimeDir, 'index.html'))) {
        log('info', `the VN runtime is not built in ${config.runtimeDir}: building it`);
        await buildRuntime({ outDir: config.runtimeDir, quiet: true });
      }
      const swept = await sweepStaleRuntimes(config.tmpDir);
      sweepStaleBundles(config.tmpDir);
      if (swept.length) log('warn', `removed ${swept.length} runtime profiles (and their processes) left by an agent that died`);
      const sweptGames = await nativeHost.sweep();
      if (sweptGames) log('warn', `ended ${sweptGames} native games left by an agent of this host that died`);
      if (config.warmNice > 0 && !canRestorePriority()) log('warn', `HOST_WARM_NICE ${config.warmNice}: this agent may not raise a process's priority back (no CAP_SYS_NICE), so warm runtimes run at normal priority`);
      pageServer = await startPageServer({ runtimeDir: config.runtimeDir, gamesDirs: config.gamesDirs, port: config.pagePort, paintScreen: config.paintScreen, native: nativeStreams });
      if (config.prewarm) pool.runtimeOptions.prewarm = buildPrewarmPlan(config.runtimeDir, config.gamesDirs, { prepare: config.prepareGames ?? undefined, files: config.prewarmFiles });
      await app.listen({ host: config.host, port: config.port });
      const address = app.server.address();
      const port = typeof address === 'object' && address ? address.port : config.port;
      baseUrl = config.publicUrl ?? `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
      pool.start();
      state = 'running';
      // the native titles' games compiled ahead (native/compiled.ts), in the background
      void nativeHost.compileAhead();
      // the api registry (HOST_REGISTER) and/or Agones (HOST_FLEET=agones): fleet/index.ts
      fleet = createFleet(config, {
        api,
        source: {
          url: baseUrl,
          capacity: config.capacity,
          warm: () => pool.stats().warm,
          sessionIds: () => sessions.ids(),
          reconcile: (live) => sessions.reconcile(live),
        },
        whenWarm: () => pool.whenWarm(undefined, 10 * 60_000),
        onShutdown: () => void agent.shutdown(),
        log,
      });
      registry = fleet?.registry ?? null;
      fleet?.start();
      log('info', `listening on ${baseUrl} (pages ${pageServer.origin}); capacity ${config.capacity}, warm ${config.warm}`);
    },
    shutdown() {
      shuttingDown ??= (async () => {
        state = 'shutting_down';
        sessions.stopAccepting();
        // tell the api (no new sessions come) and end the sessions (save, bye, kill) meanwhile;
        // whatever is not done after SHUTDOWN_GRACE_MS (an api that hangs) is killed anyway
        let sessionsEnded = (): void => undefined;
        const told = fleet?.shutdown(new Promise<void>((r) => (sessionsEnded = r)));
        const ended = sessions.endAll('host_shutdown', 'host_shutdown').finally(sessionsEnded);
        await Promise.race([
          Promise.all([told, ended]),
          new Promise((r) => setTimeout(r, SHUTDOWN_GRACE_MS).unref()),
        ]);
        fleet?.stop();
        // games of sessions that did not end within the grace (their saves went up as written)
        nativeHost.killAllSync();
        nativeHost.compiled.close();
        await pool.close();
        removeWorkerBundle(config.tmpDir);
        await app.close().catch(() => undefined);
        await pageServer?.close().catch(() => undefined);
        state = 'stopped';
      })();
      return shuttingDown;
    },
  };
  return agent;
}
