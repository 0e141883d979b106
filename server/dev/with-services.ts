/**
 * Runs a command with the local PostgreSQL and Firebase Auth emulator up, then stops both:
 *
 *   npx tsx server/dev/with-services.ts [--database yumecast_test] -- npx jest --selectProjects integration
 *
 * The command gets DATABASE_URL (database "yumecast_test" unless --database says otherwise),
 * FIREBASE_AUTH_EMULATOR_HOST, FIREBASE_PROJECT_ID and GCLOUD_PROJECT; its exit code becomes
 * ours. Ports and the data dir follow PGPORT_LOCAL, PG_DATA_DIR and AUTH_EMULATOR_PORT, so a
 * test run can sit beside a running dev stack:
 *   PGPORT_LOCAL=54330 PG_DATA_DIR=.data/postgres-test AUTH_EMULATOR_PORT=9199 npx tsx ...
 *
 * Orchestrators can use startServices()/withServices() instead of the CLI.
 */
import { spawn } from 'node:child_process';
import { startAuthEmulator, type AuthEmulator, type AuthEmulatorOptions } from './auth-emulator';
import { startPostgres, type LocalPostgres, type LocalPostgresOptions } from './postgres';

export interface ServicesOptions {
  /** Database named in DATABASE_URL (default "yumecast_test"). */
  database?: string;
  postgres?: LocalPostgresOptions;
  auth?: AuthEmulatorOptions;
}

export interface Services {
  postgres: LocalPostgres;
  auth: AuthEmulator;
  /** Variables that point a process at these services. */
  env: Record<string, string>;
  /** Stops both (the emulator first: it takes longer). Idempotent. */
  stop(): Promise<void>;
}

export async function startServices(options: ServicesOptions = {}): Promise<Services> {
  // In parallel: the emulator needs ~12 s of CPU, PostgreSQL ~1 s (a few more on first init).
  const [pgResult, authResult] = await Promise.allSettled([startPostgres(options.postgres), startAuthEmulator(options.auth)]);
  if (pgResult.status === 'rejected' || authResult.status === 'rejected') {
    if (pgResult.status === 'fulfilled') await pgResult.value.stop();
    if (authResult.status === 'fulfilled') await authResult.value.stop();
    const reasons = [pgResult, authResult]
      .filter((result): result is PromiseRejectedResult => result.status === 'rejected')
      .map((result) => (result.reason instanceof Error ? result.reason.message : String(result.reason)));
    throw new Error(reasons.join('\n'));
  }
  const postgres = pgResult.value;
  const auth = authResult.value;
  let stopped: Promise<void> | undefined;
  return {
    postgres,
    auth,
    env: {
      DATABASE_URL: postgres.url(options.database ?? 'yumecast_test'),
      FIREBASE_AUTH_EMULATOR_HOST: auth.host,
      FIREBASE_PROJECT_ID: auth.projectId,
      GCLOUD_PROJECT: auth.projectId,
      PGPORT_LOCAL: String(postgres.port),
      AUTH_EMULATOR_PORT: String(auth.port),
    },
    stop: () => {
      stopped ??= (async () => {
        await Promise.allSettled([auth.stop(), postgres.stop()]);
      })();
      return stopped;
    },
  };
}

/** Starts the services, runs `fn` with their env, and stops them whatever `fn` does. */
export async function withServices<T>(fn: (env: Record<string, string>) => Promise<T>, options?: ServicesOptions): Promise<T> {
  const services = await startServices(options);
  try {
    return await fn(services.env);
  } finally {
    await services.stop();
  }
}

function parseArgs(argv: string[]): { database?: string; command: string[] } {
  let database: string | undefined;
  let index = 0;
  for (; index < argv.length; index++) {
    const arg = argv[index];
    if (arg === '--') {
      index++;
      break;
    }
    if (arg === '--database') {
      database = argv[++index];
      continue;
    }
    if (arg.startsWith('--database=')) {
      database = arg.slice('--database='.length);
      continue;
    }
    break; // first word of the command
  }
  return { database, command: argv.slice(index) };
}

if (require.main === module) {
  void (async () => {
    const { database, command } = parseArgs(process.argv.slice(2));
    if (command.length === 0 || (!database && process.argv.includes('--database'))) {
      console.error('usage: npx tsx server/dev/with-services.ts [--database NAME] -- <command> [args...]');
      process.exit(2);
    }

    let services: Services;
    try {
      services = await startServices({ database });
    } catch (error) {
      console.error(`with-services: ${(error as Error).message}`);
      process.exit(1);
    }
    console.error(
      `with-services: PostgreSQL on ${services.postgres.port}, Auth emulator on ${services.auth.port}; running: ${command.join(' ')}`,
    );

    let finished = false;
    // A service dying under the command would only show up as puzzling test failures: say so.
    const watch = (name: string, exited: Promise<void>, lastOutput: () => string) =>
      void exited.then(() => {
        if (!finished) console.error(`with-services: ${name} exited while the command was running:\n${lastOutput()}`);
      });
    watch('PostgreSQL', services.postgres.exited, services.postgres.lastOutput);
    watch('the Auth emulator', services.auth.exited, services.auth.lastOutput);

    const child = spawn(command[0], command.slice(1), { stdio: 'inherit', env: { ...process.env, ...services.env } });
    const forward = (signal: NodeJS.Signals) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      if (signal === 'SIGINT') {
        // A terminal Ctrl-C already reached the command (same process group); forward only if
        // the signal was sent to us alone and the command is still running.
        setTimeout(() => child.exitCode === null && child.signalCode === null && child.kill('SIGINT'), 2_000).unref();
      } else {
        child.kill(signal);
      }
    };
    process.on('SIGINT', forward);
    process.on('SIGTERM', forward);
    process.on('SIGHUP', forward);

    const exitCode = await new Promise<number>((resolve) => {
      child.once('error', (error) => {
        console.error(`with-services: cannot run ${command[0]}: ${error.message}`);
        resolve(127);
      });
      child.once('exit', (code, signal) => {
        const signalNumber = signal ? ({ SIGHUP: 1, SIGINT: 2, SIGTERM: 15, SIGKILL: 9 } as Record<string, number>)[signal] ?? 1 : 0;
        resolve(code ?? 128 + signalNumber);
      });
    });
    finished = true;
    await services.stop();
    process.exit(exitCode);
  })();
}
