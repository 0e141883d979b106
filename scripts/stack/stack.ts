/**
 * Brings the whole product up locally, in order, waiting for each part to be healthy:
 * PostgreSQL → Firebase emulators (Auth + Functions, one process) → api → payments sandbox →
 * game host → web. Used by `npm start` and `npm test`.
 */
import path from 'node:path';
import pg from 'pg';
import { assertPortFree, waitForHttp } from '../../server/dev/ports';
import { REPO_ROOT, stackEnv, stackSecrets, urls, webOrigins, type StackConfig } from './config';
import { startEmulators } from './emulators';
import { startProcess, stopProcess, tail, type Managed } from './process';
import { ensureRuntimeBuild, ensureWebBuild } from './build';

const BIN = path.join(REPO_ROOT, 'node_modules', '.bin');

export interface Stack {
  config: StackConfig;
  urls: ReturnType<typeof urls>;
  env: NodeJS.ProcessEnv;
  /** Process group ids of every process the stack started (each child leads its own group). */
  processGroups: number[];
  stop(): Promise<void>;
}

type Log = (line: string) => void;

async function waitForPostgres(url: string, m: Managed, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (m.exitCode() !== undefined) throw new Error(`PostgreSQL exited early:\n${tail(m.logFile)}`);
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
    try {
      await client.connect();
      await client.query('SELECT 1');
      await client.end();
      return;
    } catch {
      await client.end().catch(() => undefined);
    }
    if (Date.now() > deadline) throw new Error(`PostgreSQL did not become ready:\n${tail(m.logFile)}`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

function crashed(m: Managed) {
  return () => (m.exitCode() !== undefined ? new Error(`${m.name} exited early:\n${tail(m.logFile)}`) : undefined);
}

/** The payments sandbox's own settings on top of the shared ones (docs/payments-processor.md). */
function sandboxEnv(c: StackConfig, env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const u = urls(c);
  return {
    ...env,
    PAYMENTS_SANDBOX_HOST: c.host,
    PAYMENTS_SANDBOX_PORT: String(c.paymentsSandboxPort),
    PAYMENTS_WEBHOOK_URL: `${u.api}/v1/payments/webhook`,
    PAYMENTS_SANDBOX_ALLOWED_ORIGINS: webOrigins(c),
  };
}

export async function startStack(c: StackConfig, log: Log = console.log): Promise<Stack> {
  const env = stackEnv(c, process.env, stackSecrets());
  const u = urls(c);
  const logDir = path.join(c.runDir, 'logs');
  const started: Managed[] = [];
  const processGroups: number[] = [];
  const cleanups: (() => Promise<void>)[] = [];
  const track = (m: Managed) => {
    started.push(m);
    if (m.child.pid) processGroups.push(m.child.pid);
    return m;
  };
  const stop = async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup().catch(() => undefined);
    // The host needs longer: it reports shutdown and closes its Chromium runtimes first.
    for (const m of [...started].reverse()) await stopProcess(m, m.name === 'host' ? 20_000 : 8_000);
    started.length = 0;
  };

  try {
    await assertPortFree(c.pgPort, 'PostgreSQL');
    await assertPortFree(c.authPort, 'the Firebase Auth emulator');
    await assertPortFree(c.functionsPort, 'the Firebase Functions emulator');
    await assertPortFree(c.apiPort, 'the api');
    await assertPortFree(c.paymentsSandboxPort, 'the payments sandbox');
    await assertPortFree(c.webPort, 'the web app');
    await assertPortFree(c.hostPort, 'the game host');
    await assertPortFree(c.hostPagePort, "the game host's page server");

    await ensureWebBuild(c, env, log);
    await ensureRuntimeBuild(log);

    log(`• PostgreSQL on 127.0.0.1:${c.pgPort} (data in ${path.relative(REPO_ROOT, c.pgDataDir)})`);
    const pgProc = track(startProcess('postgres', path.join(BIN, 'tsx'), ['server/dev/postgres.ts'], { ...env, PGPORT_LOCAL: String(c.pgPort), PG_DATA_DIR: c.pgDataDir }, logDir, REPO_ROOT));

    log(`• Firebase emulators: Auth on ${u.auth}, Functions on ${u.functions}`);
    const emulators = await startEmulators(c, env, logDir, log);
    track(emulators.process);
    cleanups.push(emulators.stopWatching);

    await waitForPostgres(u.databaseUrl, pgProc);
    log('  ✓ PostgreSQL ready');

    log(`• api on ${u.api}`);
    const apiProc = track(startProcess('api', path.join(BIN, 'tsx'), ['server/api/main.ts'], env, logDir, REPO_ROOT));

    log(`• payments sandbox on ${u.paymentsSandbox}`);
    const sandboxProc = track(startProcess('payments-sandbox', path.join(BIN, 'tsx'), ['server/payments/sandbox/main.ts'], sandboxEnv(c, env), logDir, REPO_ROOT));

    log(`• game host on ${u.gameHost}`);
    const hostProc = track(startProcess('host', path.join(BIN, 'tsx'), ['server/host/main.ts'], env, logDir, REPO_ROOT));

    log(`• web on ${u.web}`);
    const webProc = track(startProcess('web', path.join(BIN, 'next'), ['start', '-p', String(c.webPort), '-H', c.host], env, logDir, REPO_ROOT));

    await emulators.ready();
    log('  ✓ Auth and Functions emulators ready');
    await waitForHttp(`${u.api}/health`, { timeoutMs: 60_000, abortIf: crashed(apiProc) });
    log('  ✓ api ready');
    await waitForHttp(`${u.paymentsSandbox}/`, { timeoutMs: 60_000, abortIf: crashed(sandboxProc) });
    log('  ✓ payments sandbox ready');
    await waitForHttp(`${u.gameHost}/health`, { timeoutMs: 90_000, abortIf: crashed(hostProc) });
    log('  ✓ game host ready');
    // Home is prerendered by a build that has no api (pages/index.tsx): the first request
    // regenerates it; ready is when it shows the catalogue, not the build's error page.
    await waitForHttp(`http://127.0.0.1:${c.webPort}/`, { timeoutMs: 60_000, abortIf: crashed(webProc), ready: (html) => !html.includes('data-testid="catalog-error"') });
    log('  ✓ web ready');
  } catch (e) {
    await stop();
    throw e;
  }
  return { config: c, urls: u, env, processGroups, stop };
}
