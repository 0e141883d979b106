/**
 * Brings the whole product up locally, in order, waiting for each part to be healthy:
 * PostgreSQL → Firebase emulators (Auth + Functions, one process) → api → payments sandbox →
 * game host → web. Used by `npm start` and `npm test`.
 * Its parts (the process set, the shared services, each service's command) are exported so the
 * multi-node stack (scripts/cluster/) starts replicas of the same services the same way.
 */
import path from 'node:path';
import pg from 'pg';
import { assertPortFree, waitForHttp, type WaitForHttpOptions } from '../../server/dev/ports';
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

export type Log = (line: string) => void;

/** How to start one service process (the same spec starts it again after a restart). */
export interface ServiceSpec {
  name: string;
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  /** Working folder (the repository unless set). */
  cwd?: string;
  /** SIGTERM → SIGKILL grace when stopping (8 s unless set). */
  stopGraceMs?: number;
}

/**
 * The processes of one stack: started in order, stopped in reverse, every process group
 * remembered (for the leftover check) even after the process was stopped or replaced.
 */
export class ProcessSet {
  private readonly started: { spec: ServiceSpec; m: Managed }[] = [];
  /** Every spec ever started, by name (a stopped service can be started again from it). */
  private readonly specs = new Map<string, ServiceSpec>();
  readonly processGroups: number[] = [];
  private readonly cleanups: (() => Promise<void>)[] = [];

  constructor(readonly logDir: string) {}

  /** Starts a service; a name already running is refused (stop it first). */
  start(spec: ServiceSpec): Managed {
    if (this.get(spec.name)) throw new Error(`${spec.name} is already running`);
    // A restarted service appends to its log rather than replacing the first run's.
    const m = startProcess(spec.name, spec.command, spec.args, spec.env, this.logDir, spec.cwd ?? REPO_ROOT, this.specs.has(spec.name));
    this.specs.set(spec.name, spec);
    this.started.push({ spec, m });
    if (m.child.pid) this.processGroups.push(m.child.pid);
    return m;
  }

  /** Tracks a process started elsewhere (the emulators). */
  adopt(m: Managed, spec: ServiceSpec): Managed {
    this.specs.set(spec.name, spec);
    this.started.push({ spec, m });
    if (m.child.pid) this.processGroups.push(m.child.pid);
    return m;
  }

  onStop(cleanup: () => Promise<void>): void {
    this.cleanups.push(cleanup);
  }

  /** The running process of that name (undefined when stopped, killed or never started). */
  get(name: string): Managed | undefined {
    return this.started.find((p) => p.spec.name === name && p.m.exitCode() === undefined)?.m;
  }

  spec(name: string): ServiceSpec | undefined {
    return this.specs.get(name);
  }

  /** Sends a signal to the whole process group (SIGKILL: a crash, nothing cleaned up). */
  signal(name: string, signal: NodeJS.Signals): boolean {
    const pid = this.get(name)?.child.pid;
    if (!pid) return false;
    try {
      process.kill(-pid, signal);
      return true;
    } catch {
      return false;
    }
  }

  /** Stops one service (SIGTERM, then SIGKILL after its grace) and forgets it. */
  async stopOne(name: string): Promise<void> {
    for (const p of this.started.filter((x) => x.spec.name === name)) await stopProcess(p.m, p.spec.stopGraceMs ?? 8_000);
    this.forget(name);
  }

  /** Forgets a service's stopped processes (their groups stay listed for the leftover check). */
  forget(name: string): void {
    for (let i = this.started.length - 1; i >= 0; i--) if (this.started[i].spec.name === name && this.started[i].m.exitCode() !== undefined) this.started.splice(i, 1);
  }

  /** Stops everything in the reverse of the first start's order (a restarted replica keeps its place). */
  async stop(): Promise<void> {
    for (const cleanup of this.cleanups.splice(0)) await cleanup().catch(() => undefined);
    const order = [...this.specs.keys()];
    const rank = (p: { spec: ServiceSpec }) => order.indexOf(p.spec.name);
    for (const p of [...this.started].sort((a, b) => rank(b) - rank(a))) await stopProcess(p.m, p.spec.stopGraceMs ?? 8_000);
    this.started.length = 0;
  }
}

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

export function crashed(m: Managed) {
  return () => (m.exitCode() !== undefined ? new Error(`${m.name} exited early:\n${tail(m.logFile)}`) : undefined);
}

/** Waits until the process answers `url`, failing at once if it dies meanwhile. */
export function waitUntilServing(m: Managed, url: string, timeoutMs: number, ready?: WaitForHttpOptions['ready']): Promise<void> {
  return waitForHttp(url, { timeoutMs, abortIf: crashed(m), ...(ready ? { ready } : {}) });
}

/** The payments sandbox's own settings on top of the shared ones (docs/payments-processor.md). */
function sandboxEnv(c: StackConfig, env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const u = urls(c);
  return {
    ...env,
    PAYMENTS_SANDBOX_HOST: c.host,
    PAYMENTS_SANDBOX_PORT: String(c.paymentsSandboxPort),
    PAYMENTS_WEBHOOK_URL: `${u.api}/v1/payments/webhook`,
    PAYMENTS_SANDBOX_ALLOWED_ORIGINS: webOrigins(c, env),
  };
}

/** The command of each service; `env` carries its ports (API_PORT, HOST_AGENT_PORT, …). */
export const services = {
  api: (name: string, env: NodeJS.ProcessEnv): ServiceSpec => ({ name, command: path.join(BIN, 'tsx'), args: ['server/api/main.ts'], env }),
  sandbox: (c: StackConfig, env: NodeJS.ProcessEnv): ServiceSpec => ({ name: 'payments-sandbox', command: path.join(BIN, 'tsx'), args: ['server/payments/sandbox/main.ts'], env: sandboxEnv(c, env) }),
  // The host needs longer to stop: it reports shutdown and closes its Chromium runtimes first.
  host: (name: string, env: NodeJS.ProcessEnv): ServiceSpec => ({ name, command: path.join(BIN, 'tsx'), args: ['server/host/main.ts'], env, stopGraceMs: 20_000 }),
  web: (name: string, c: StackConfig, port: number, env: NodeJS.ProcessEnv): ServiceSpec => ({ name, command: path.join(BIN, 'next'), args: ['start', '-p', String(port), '-H', c.host], env }),
};

/** Home is prerendered by a build that has no api (pages/index.tsx): ready is when it shows the catalogue. */
export const webReady = (html: string) => !html.includes('data-testid="catalog-error"');

/** Fails at once, naming the port and the service, when any of these ports is taken. */
export async function assertPortsFree(ports: [number, string][]): Promise<void> {
  for (const [port, name] of ports) await assertPortFree(port, name);
}

/** The ports every stack needs for its shared services (PostgreSQL, emulators, sandbox). */
export function sharedServicePorts(c: StackConfig): [number, string][] {
  return [
    [c.pgPort, 'PostgreSQL'],
    [c.authPort, 'the Firebase Auth emulator'],
    [c.functionsPort, 'the Firebase Functions emulator'],
    [c.paymentsSandboxPort, 'the payments sandbox'],
  ];
}

/**
 * PostgreSQL and the Firebase emulators, started into `procs`; resolves once PostgreSQL answers.
 * `emulatorsReady` resolves once the emulators serve (awaited later: they take the longest).
 */
export async function startSharedServices(c: StackConfig, env: NodeJS.ProcessEnv, procs: ProcessSet, log: Log): Promise<{ emulatorsReady: () => Promise<void> }> {
  const u = urls(c);
  log(`• PostgreSQL on 127.0.0.1:${c.pgPort} (data in ${path.relative(REPO_ROOT, c.pgDataDir)})`);
  const pgProc = procs.start({ name: 'postgres', command: path.join(BIN, 'tsx'), args: ['server/dev/postgres.ts'], env: { ...env, PGPORT_LOCAL: String(c.pgPort), PG_DATA_DIR: c.pgDataDir } });

  log(`• Firebase emulators: Auth on ${u.auth}, Functions on ${u.functions}`);
  const emulators = await startEmulators(c, env, procs.logDir, log);
  procs.adopt(emulators.process, { name: 'firebase-emulators', command: '', args: [], env });
  procs.onStop(emulators.stopWatching);

  await waitForPostgres(u.databaseUrl, pgProc);
  log('  ✓ PostgreSQL ready');
  return { emulatorsReady: emulators.ready };
}

export async function startStack(c: StackConfig, log: Log = console.log): Promise<Stack> {
  const env = stackEnv(c, process.env, stackSecrets());
  const u = urls(c);
  const procs = new ProcessSet(path.join(c.runDir, 'logs'));

  try {
    await assertPortsFree([
      ...sharedServicePorts(c),
      [c.apiPort, 'the api'],
      [c.webPort, 'the web app'],
      [c.hostPort, 'the game host'],
      [c.hostPagePort, "the game host's page server"],
    ]);

    await ensureWebBuild(c, env, log);
    await ensureRuntimeBuild(log);

    const shared = await startSharedServices(c, env, procs, log);

    log(`• api on ${u.api}`);
    const apiProc = procs.start(services.api('api', env));

    log(`• payments sandbox on ${u.paymentsSandbox}`);
    const sandboxProc = procs.start(services.sandbox(c, env));

    log(`• game host on ${u.gameHost}`);
    const hostProc = procs.start(services.host('host', env));

    log(`• web on ${u.web}`);
    const webProc = procs.start(services.web('web', c, c.webPort, env));

    await shared.emulatorsReady();
    log('  ✓ Auth and Functions emulators ready');
    await waitUntilServing(apiProc, `${u.api}/health`, 60_000);
    log('  ✓ api ready');
    await waitUntilServing(sandboxProc, `${u.paymentsSandbox}/`, 60_000);
    log('  ✓ payments sandbox ready');
    await waitUntilServing(hostProc, `${u.gameHost}/health`, 90_000);
    log('  ✓ game host ready');
    await waitUntilServing(webProc, `http://127.0.0.1:${c.webPort}/`, 60_000, webReady);
    log('  ✓ web ready');
  } catch (e) {
    await procs.stop();
    throw e;
  }
  return { config: c, urls: u, env, processGroups: procs.processGroups, stop: () => procs.stop() };
}
