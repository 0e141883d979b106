/**
 * The Firebase emulators of the local stack, in ONE firebase-tools process (it costs ~12 s of CPU
 * to start; a second one would double that): Auth, and Functions serving functions/ (the
 * callable payment-invokePaymentRequest, docs/functions.md). Offline: CI=true and
 * METADATA_SERVER_DETECTION=none (stackEnv), UI off, functions discovered through a manifest
 * file instead of a random port, workers on unix sockets. The functions run on this machine's
 * Node and get the stack's environment (API_INTERNAL_URL, INTERNAL_API_TOKEN).
 */
import fs from 'node:fs';
import path from 'node:path';
import { buildFunctions, FUNCTIONS_DIR, watchFunctions } from '../../server/dev/functions-build';
import { emulatorSidePorts } from '../../server/dev/auth-emulator';
import { waitForHttp } from '../../server/dev/ports';
import { REPO_ROOT, urls, type StackConfig } from './config';
import { startProcess, tail, type Managed } from './process';

const BIN = path.join(REPO_ROOT, 'node_modules', '.bin');

/** The callable the stack waits for before it calls the Functions emulator ready. */
export const READY_FUNCTION = 'payment-invokePaymentRequest';

/**
 * firebase.json's functions and emulator parts with this stack's ports, in the run folder (the
 * config's folder is firebase-tools' project folder, so the functions source is made relative).
 * The runtime follows this machine's Node major version so the emulator does not warn that it
 * runs another one; firebase.json names the production runtime.
 */
export function writeFirebaseConfig(c: StackConfig): string {
  fs.mkdirSync(c.runDir, { recursive: true });
  const base = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'firebase.json'), 'utf8')) as { functions?: Record<string, unknown>[] };
  const functions = (base.functions ?? [{ source: 'functions', codebase: 'default' }]).map((f) => ({
    ...f,
    source: path.relative(c.runDir, path.join(REPO_ROOT, String(f.source ?? 'functions'))),
    runtime: `nodejs${process.versions.node.split('.')[0]}`,
    predeploy: undefined,
  }));
  const config = {
    functions,
    emulators: {
      ...emulatorSidePorts(c.authPort, c.host),
      auth: { port: c.authPort, host: c.host },
      functions: { port: c.functionsPort, host: c.host },
      ui: { enabled: false },
      singleProjectMode: true,
    },
  };
  const file = path.join(c.runDir, 'firebase.json');
  fs.writeFileSync(file, `${JSON.stringify(config, null, 2)}\n`);
  return file;
}

export interface Emulators {
  process: Managed;
  /** Resolves when the Auth emulator answers and the Functions emulator serves READY_FUNCTION. */
  ready(): Promise<void>;
  /** Stops the dev stack's source watcher (the process itself is stopped with the stack). */
  stopWatching(): Promise<void>;
}

export async function startEmulators(c: StackConfig, env: NodeJS.ProcessEnv, logDir: string, log: (line: string) => void): Promise<Emulators> {
  const u = urls(c);
  if (await buildFunctions()) log('  ✓ functions built (functions/lib/index.js)');
  // The dev stack rebuilds on source changes; the emulator then reloads the functions.
  const stopWatching = c.mode === 'dev' ? await watchFunctions(log) : async () => undefined;
  const discovery = path.join(c.runDir, 'functions-discovery');
  fs.mkdirSync(discovery, { recursive: true });
  const firebaseEnv = {
    ...env,
    NO_UPDATE_NOTIFIER: '1',
    // Discovery writes functions.yaml here rather than serving it on a random port in 8000-9000
    // (where the stack's own ports live); a busy 2-core machine may need more than the default 10 s.
    FIREBASE_FUNCTIONS_DISCOVERY_OUTPUT_PATH: discovery,
    FUNCTIONS_DISCOVERY_TIMEOUT: '60',
  };
  const proc = startProcess(
    'firebase-emulators',
    path.join(BIN, 'firebase'),
    ['emulators:start', '--only', 'auth,functions', '--project', c.projectId, '--config', writeFirebaseConfig(c)],
    firebaseEnv,
    logDir,
    c.runDir, // firebase-debug.log, if any, lands in the run folder
  );
  const crashed = () => (proc.exitCode() !== undefined ? new Error(`the Firebase emulators exited early:\n${tail(proc.logFile)}`) : undefined);
  const ready = async () => {
    await waitForHttp(`http://${u.auth}/`, { timeoutMs: 120_000, abortIf: crashed });
    const deadline = Date.now() + 120_000;
    for (;;) {
      const failed = crashed();
      if (failed) throw failed;
      try {
        const res = await fetch(`http://${u.functions}/backends`, { signal: AbortSignal.timeout(2_000) });
        const body = (await res.json()) as { backends?: { functionTriggers?: { name?: string }[] }[] };
        if (body.backends?.some((b) => b.functionTriggers?.some((t) => t.name === READY_FUNCTION))) return;
      } catch {
        // not up yet
      }
      if (Date.now() > deadline) {
        throw new Error(`the Functions emulator did not load ${READY_FUNCTION} within 120 s (source: ${path.relative(REPO_ROOT, FUNCTIONS_DIR)}):\n${tail(proc.logFile)}`);
      }
      await new Promise((r) => setTimeout(r, 300));
    }
  };
  return { process: proc, ready, stopWatching };
}
