/**
 * Brings the whole product up locally, in order, waiting for each part to be healthy:
 * PostgreSQL → Firebase Auth emulator → api → game host → web. Used by `npm start` and `npm test`.
 */
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { assertPortFree, waitForHttp } from '../../server/dev/ports';
import { REPO_ROOT, stackEnv, urls, type StackConfig } from './config';
import { startProcess, stopProcess, tail, type Managed } from './process';
import { ensureWebBuild } from './build';

const BIN = path.join(REPO_ROOT, 'node_modules', '.bin');

export interface Stack {
  config: StackConfig;
  urls: ReturnType<typeof urls>;
  env: NodeJS.ProcessEnv;
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

function writeFirebaseConfig(c: StackConfig): string {
  const file = path.join(c.runDir, 'firebase.json');
  fs.mkdirSync(c.runDir, { recursive: true });
  const config = {
    emulators: {
      auth: { port: c.authPort, host: c.host },
      ui: { enabled: false },
      logging: { level: 'WARN' },
      singleProjectMode: true,
    },
  };
  fs.writeFileSync(file, JSON.stringify(config, null, 2));
  return file;
}

function crashed(m: Managed) {
  return () => (m.exitCode() !== undefined ? new Error(`${m.name} exited early:\n${tail(m.logFile)}`) : undefined);
}

export async function startStack(c: StackConfig, log: Log = console.log): Promise<Stack> {
  const env = stackEnv(c);
  const u = urls(c);
  const logDir = path.join(c.runDir, 'logs');
  const started: Managed[] = [];
  const stop = async () => {
    // The host needs longer: it reports shutdown and closes its Chromium runtimes first.
    for (const m of [...started].reverse()) await stopProcess(m, m.name === 'host' ? 20_000 : 8_000);
    started.length = 0;
  };

  try {
    await assertPortFree(c.pgPort, 'PostgreSQL');
    await assertPortFree(c.authPort, 'the Firebase Auth emulator');
    await assertPortFree(c.apiPort, 'the api');
    await assertPortFree(c.webPort, 'the web app');
    await assertPortFree(c.hostPort, 'the game host');
    await assertPortFree(c.hostPagePort, "the game host's page server");

    await ensureWebBuild(c, env, log);

    log(`• PostgreSQL on 127.0.0.1:${c.pgPort} (data in ${path.relative(REPO_ROOT, c.pgDataDir)})`);
    const pgProc = startProcess('postgres', path.join(BIN, 'tsx'), ['server/dev/postgres.ts'], { ...env, PGPORT_LOCAL: String(c.pgPort), PG_DATA_DIR: c.pgDataDir }, logDir, REPO_ROOT);
    started.push(pgProc);

    log(`• Firebase Auth emulator on ${u.auth}`);
    const fbConfig = writeFirebaseConfig(c);
    const authProc = startProcess(
      'auth-emulator',
      path.join(BIN, 'firebase'),
      ['emulators:start', '--only', 'auth', '--project', c.projectId, '--config', fbConfig],
      env,
      logDir,
      REPO_ROOT,
    );
    started.push(authProc);

    await waitForPostgres(u.databaseUrl, pgProc);
    log('  ✓ PostgreSQL ready');

    log(`• api on ${u.api}`);
    const apiProc = startProcess('api', path.join(BIN, 'tsx'), ['server/api/main.ts'], env, logDir, REPO_ROOT);
    started.push(apiProc);

    log(`• game host on ${u.gameHost}`);
    const hostProc = startProcess('host', path.join(BIN, 'tsx'), ['server/host/main.ts'], env, logDir, REPO_ROOT);
    started.push(hostProc);

    log(`• web on ${u.web}`);
    const webProc = startProcess('web', path.join(BIN, 'next'), ['start', '-p', String(c.webPort), '-H', c.host], env, logDir, REPO_ROOT);
    started.push(webProc);

    await waitForHttp(`http://${u.auth}/`, { timeoutMs: 120_000, abortIf: crashed(authProc) });
    log('  ✓ Auth emulator ready');
    await waitForHttp(`${u.api}/health`, { timeoutMs: 60_000, abortIf: crashed(apiProc) });
    log('  ✓ api ready');
    await waitForHttp(`${u.gameHost}/health`, { timeoutMs: 90_000, abortIf: crashed(hostProc) });
    log('  ✓ game host ready');
    await waitForHttp(`http://127.0.0.1:${c.webPort}/`, { timeoutMs: 60_000, abortIf: crashed(webProc) });
    log('  ✓ web ready');
  } catch (e) {
    await stop();
    throw e;
  }
  return { config: c, urls: u, env, stop };
}
