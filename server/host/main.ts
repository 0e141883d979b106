/**
 * The game-host agent as a process: `npx tsx server/host/main.ts`.
 * Listens on HOST_AGENT_HOST:HOST_AGENT_PORT (127.0.0.1:8090), keeps HOST_WARM_POOL runtimes
 * warm (of HOST_CAPACITY), registers with the api at API_URL and heartbeats. On SIGTERM/SIGINT:
 * reports Shutdown to the api, ends every session with `bye host_shutdown`, kills every browser
 * (leaving no Chromium process behind) and exits. A second signal, or 10 s, forces it.
 * Logs are pino JSON lines on stdout (logging.ts, the api's redaction); Sentry reports errors when
 * SENTRY_DSN is set (server/shared/sentry.ts). docs/host.md and docs/operations.md describe it.
 */
import { captureServerError, flushSentry, initSentry } from '../shared/sentry';
import { buildHostAgent } from './agent';
import { loadHostConfig } from './config';
import { hostLogging } from './logging';

async function main(): Promise<void> {
  const config = loadHostConfig();
  const logging = hostLogging(config);
  // the SDK's own uncaught-exception handler is off: ours below kills every runtime first
  const sentryOn = await initSentry({ dsn: config.sentryDsn, service: 'host', tags: { hostId: config.hostId }, uncaughtHandler: false });
  const agent = buildHostAgent(config, { log: logging.log, logger: logging.fastify });
  logging.bind(agent.app.log);
  const log = agent.app.log;
  if (sentryOn) log.info('Sentry error reporting on');
  let stopping = false;

  const forceExit = (code: number) => {
    agent.killAllSync();
    process.exit(code);
  };
  let stoppingAt = 0;
  const stop = (sig: string) => {
    if (stopping) {
      // `tsx main.ts` relays the signal its process group also got: the same stop request,
      // a moment apart. A second signal later than that forces.
      if (Date.now() - stoppingAt < 1000) return;
      log.warn(`${sig} again: killing every runtime now`);
      forceExit(1);
      return;
    }
    stopping = true;
    stoppingAt = Date.now();
    log.info({ signal: sig }, `${sig}: shutting down`);
    const timer = setTimeout(() => {
      log.error('shutdown took over 10 s: killing every runtime');
      forceExit(1);
    }, 10_000);
    agent
      .shutdown()
      .then(() => {
        clearTimeout(timer);
        log.info('stopped');
        process.exit(0);
      })
      .catch((e: unknown) => {
        log.error({ err: e }, 'shutdown failed');
        captureServerError(e);
        void flushSentry().finally(() => forceExit(1));
      });
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGHUP', () => stop('SIGHUP'));
  // whatever happens, no browser or native game outlives the agent
  process.on('exit', () => agent.killAllSync());
  process.on('uncaughtException', (e) => {
    log.fatal({ err: e }, 'uncaught exception');
    // no browser outlives the agent, even while the report is sent
    agent.killAllSync();
    captureServerError(e);
    void flushSentry().finally(() => forceExit(1));
  });

  try {
    await agent.start();
  } catch (e) {
    log.error({ err: e }, `failed to start: ${e instanceof Error ? e.message : String(e)}`);
    captureServerError(e);
    await agent.shutdown().catch(() => undefined);
    await flushSentry();
    process.exit(1);
  }
}

void main();
