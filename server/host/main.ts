/**
 * The game-host agent as a process: `npx tsx server/host/main.ts`.
 * Listens on HOST_AGENT_HOST:HOST_AGENT_PORT (127.0.0.1:8090), keeps HOST_WARM_POOL runtimes
 * warm (of HOST_CAPACITY), registers with the api at API_URL and heartbeats. On SIGTERM/SIGINT:
 * reports Shutdown to the api, ends every session with `bye host_shutdown`, kills every browser
 * (leaving no Chromium process behind) and exits. A second signal, or 10 s, forces it.
 * docs/host.md describes it.
 */
import { buildHostAgent } from './agent';
import { loadHostConfig } from './config';

async function main(): Promise<void> {
  const config = loadHostConfig();
  const agent = buildHostAgent(config);
  let stopping = false;

  const forceExit = (code: number) => {
    agent.pool.killAllSync();
    process.exit(code);
  };
  let stoppingAt = 0;
  const stop = (sig: string) => {
    if (stopping) {
      // `tsx main.ts` relays the signal its process group also got: the same stop request,
      // a moment apart. A second signal later than that forces.
      if (Date.now() - stoppingAt < 1000) return;
      console.warn(`[host] ${sig} again: killing every runtime now`);
      forceExit(1);
      return;
    }
    stopping = true;
    stoppingAt = Date.now();
    console.log(`[host] ${sig}: shutting down`);
    const timer = setTimeout(() => {
      console.error('[host] shutdown took over 10 s: killing every runtime');
      forceExit(1);
    }, 10_000);
    agent
      .shutdown()
      .then(() => {
        clearTimeout(timer);
        console.log('[host] stopped');
        process.exit(0);
      })
      .catch((e: unknown) => {
        console.error('[host] shutdown failed', e);
        forceExit(1);
      });
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGHUP', () => stop('SIGHUP'));
  // whatever happens, no browser outlives the agent
  process.on('exit', () => agent.pool.killAllSync());
  process.on('uncaughtException', (e) => {
    console.error('[host] uncaught exception', e);
    forceExit(1);
  });

  try {
    await agent.start();
  } catch (e) {
    console.error('[host] failed to start:', e instanceof Error ? e.message : e);
    await agent.shutdown().catch(() => undefined);
    process.exit(1);
  }
}

void main();
