/**
 * The local Firebase Auth emulator (firebase-tools), offline, on 127.0.0.1.
 *
 * CLI: `npx tsx server/dev/auth-emulator.ts` starts it in the foreground; Ctrl-C stops it.
 * Code: `startAuthEmulator()` resolves once http://127.0.0.1:<port>/ answers; `stop()` ends the
 * whole process group, so no node (or java) child of firebase-tools stays behind.
 *
 * Env: AUTH_EMULATOR_PORT (9099), FIREBASE_PROJECT_ID (demo-yumecast), AUTH_EMULATOR_VERBOSE=1.
 * The port lives in firebase.json; to make it configurable we write a copy of the emulator part
 * with the chosen port into .run/ and pass it with --config.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { OutputLines } from './output-lines';
import { REPO_ROOT, RUN_DIR } from './paths';
import { assertPortFree, waitForHttp } from './ports';

export const DEFAULT_AUTH_EMULATOR_PORT = 9099;
export const DEFAULT_PROJECT_ID = 'demo-yumecast';
const HOST = '127.0.0.1';

export interface AuthEmulatorOptions {
  port?: number;
  projectId?: string;
  /** How long to wait for the first answer. It needs ~12 s of CPU; slower on a busy machine. */
  startTimeoutMs?: number;
  /** Echo the emulator's output (default: only errors). */
  verbose?: boolean;
}

export interface AuthEmulator {
  /** "127.0.0.1:9099": the value of FIREBASE_AUTH_EMULATOR_HOST for clients. */
  host: string;
  port: number;
  /** "http://127.0.0.1:9099" */
  url: string;
  projectId: string;
  /** Resolves when the emulator process exits, for whatever reason. */
  exited: Promise<void>;
  /** The last lines it printed, and how it exited if it did: for "why did it stop?" messages. */
  lastOutput(): string;
  /** Stops the emulator and everything it spawned. Idempotent. */
  stop(): Promise<void>;
}

export function resolveAuthEmulatorOptions(options: AuthEmulatorOptions = {}): Required<AuthEmulatorOptions> {
  const envPort = process.env.AUTH_EMULATOR_PORT?.trim();
  const port = options.port ?? (envPort ? Number(envPort) : DEFAULT_AUTH_EMULATOR_PORT);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`AUTH_EMULATOR_PORT is not a port: "${envPort}"`);
  return {
    port,
    projectId: options.projectId ?? (process.env.FIREBASE_PROJECT_ID?.trim() || DEFAULT_PROJECT_ID),
    startTimeoutMs: options.startTimeoutMs ?? 120_000,
    verbose: options.verbose ?? process.env.AUTH_EMULATOR_VERBOSE === '1',
  };
}

export async function startAuthEmulator(options: AuthEmulatorOptions = {}): Promise<AuthEmulator> {
  const { port, projectId, startTimeoutMs, verbose } = resolveAuthEmulatorOptions(options);
  await assertPortFree(port, 'the Firebase Auth emulator');

  const configPath = writeRuntimeConfig(port);
  const firebaseBin = realpathSync(path.join(REPO_ROOT, 'node_modules', '.bin', 'firebase'));
  const output = new OutputLines(
    '[auth-emulator]',
    // Quiet by default (it shares a terminal with tests); the UI notice is expected, we disable it.
    (line) => verbose || (/error|⚠|exception/i.test(line) && !/Emulator UI is not starting/.test(line)),
  );

  const child = spawn(
    process.execPath,
    [firebaseBin, 'emulators:start', '--only', 'auth', '--project', projectId, '--config', configPath],
    {
      cwd: RUN_DIR, // firebase-debug.log lands here, not in the repository root
      env: emulatorEnv(),
      // Own process group: stop() can end firebase-tools and all its children with one signal,
      // and a terminal Ctrl-C does not hit it before we decide the shutdown order.
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child.stdout?.on('data', (chunk) => output.push(chunk));
  child.stderr?.on('data', (chunk) => output.push(chunk));

  let exitInfo: string | undefined;
  const exited = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      exitInfo = signal ? `signal ${signal}` : `code ${code}`;
      resolve();
    });
    child.once('error', (error) => {
      exitInfo = error.message;
      resolve();
    });
  });
  // Last resort if our process exits without calling stop(): do not leave the group running.
  const killGroupOnExit = () => killGroup(child, 'SIGKILL');
  process.on('exit', killGroupOnExit);

  const stop = async () => {
    process.removeListener('exit', killGroupOnExit);
    if (!child.pid) return;
    // firebase-tools shuts its emulators down on SIGINT; then make sure the group is empty.
    killGroup(child, 'SIGINT');
    if (!(await waitUntil(() => !groupAlive(child), 10_000))) {
      killGroup(child, 'SIGKILL');
      await waitUntil(() => !groupAlive(child), 5_000);
    }
    await Promise.race([exited, delay(1_000)]);
  };

  const url = `http://${HOST}:${port}`;
  try {
    await waitForHttp(`${url}/`, {
      timeoutMs: startTimeoutMs,
      abortIf: () => (exitInfo ? new Error(`firebase-tools exited (${exitInfo})`) : undefined),
    });
  } catch (error) {
    await stop();
    throw new Error(`the Firebase Auth emulator did not start on port ${port}: ${(error as Error).message}\n${output.recent()}`);
  }

  const lastOutput = () => (exitInfo ? `(exited: ${exitInfo})\n` : '') + output.recent();
  return { host: `${HOST}:${port}`, port, url, projectId, exited, lastOutput, stop };
}

export async function stopAuthEmulator(emulator: AuthEmulator): Promise<void> {
  await emulator.stop();
}

/** Deletes every account of the project in the emulator (whole-emulator reset; not for shared runs). */
export async function clearAuthEmulatorAccounts(emulator: Pick<AuthEmulator, 'url' | 'projectId'>): Promise<void> {
  const response = await fetch(`${emulator.url}/emulator/v1/projects/${emulator.projectId}/accounts`, { method: 'DELETE' });
  if (!response.ok) throw new Error(`clearing emulator accounts failed: HTTP ${response.status}`);
}

/**
 * firebase.json's emulator settings with our port. Only the emulator part is copied: the
 * config's folder becomes the project folder for firebase-tools, so other sections (functions
 * source, hosting public dir) would resolve against .run/ and are not needed for auth.
 */
/**
 * The emulator suite's side services (hub, logging, eventarc, tasks) on ports derived from the
 * Auth port (+400…+403), not firebase-tools' fixed defaults (4400, 4500, 9299, 9499): two
 * emulator processes side by side (a dev stack, a test slot, a test run's own services) would
 * otherwise race for those and one of them dies with EADDRINUSE.
 */
export function emulatorSidePorts(authPort: number, host: string = HOST) {
  return {
    hub: { host, port: authPort + 400 },
    logging: { host, port: authPort + 401 },
    eventarc: { host, port: authPort + 402 },
    tasks: { host, port: authPort + 403 },
  };
}

function writeRuntimeConfig(port: number): string {
  const base = JSON.parse(readFileSync(path.join(REPO_ROOT, 'firebase.json'), 'utf8')) as {
    emulators?: Record<string, unknown>;
  };
  const emulators = {
    ...base.emulators,
    ...emulatorSidePorts(port),
    auth: { host: HOST, port },
    ui: { enabled: false },
    singleProjectMode: true,
  };
  mkdirSync(RUN_DIR, { recursive: true });
  const file = path.join(RUN_DIR, `firebase.auth-emulator.${port}.json`);
  writeFileSync(file, `${JSON.stringify({ emulators }, null, 2)}\n`);
  return file;
}

function emulatorEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    // Measured here: without these it prompts, checks for updates and probes the cloud
    // metadata address (which hangs offline).
    CI: 'true',
    METADATA_SERVER_DETECTION: 'none',
    NO_UPDATE_NOTIFIER: '1',
  };
  // A parent's emulator settings (e.g. inside with-services) must not redirect the CLI itself.
  delete env.FIREBASE_AUTH_EMULATOR_HOST;
  return env;
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (!child.pid) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

function groupAlive(child: ChildProcess): boolean {
  if (!child.pid) return false;
  try {
    process.kill(-child.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function waitUntil(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (condition()) return true;
    await delay(100);
  }
  return condition();
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

// CLI: stay in the foreground until SIGINT/SIGTERM, then stop the emulator and its children.
if (require.main === module) {
  void (async () => {
    let emulator: AuthEmulator;
    const started = Date.now();
    try {
      emulator = await startAuthEmulator({ verbose: process.env.AUTH_EMULATOR_VERBOSE !== '0' });
    } catch (error) {
      console.error(`auth-emulator: ${(error as Error).message}`);
      process.exit(1);
    }
    console.log(
      `auth-emulator: ready at ${emulator.url} for project ${emulator.projectId} ` +
        `(${((Date.now() - started) / 1000).toFixed(1)} s)\n` +
        `  FIREBASE_AUTH_EMULATOR_HOST=${emulator.host}\nauth-emulator: Ctrl-C to stop`,
    );
    let stopping = false;
    const shutdown = async () => {
      if (stopping) return;
      stopping = true;
      await emulator.stop();
      console.log('auth-emulator: stopped');
      process.exit(0);
    };
    process.on('SIGINT', shutdown);
    process.on('SIGTERM', shutdown);
    process.on('SIGHUP', shutdown);
    void emulator.exited.then(() => {
      if (stopping) return;
      console.error(`auth-emulator: the emulator exited unexpectedly:\n${emulator.lastOutput()}`);
      process.exit(1);
    });
  })();
}
