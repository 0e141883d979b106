/**
 * The api as a real process for the fault tests: server/api/main.ts under tsx, its config from
 * the environment (the production defaults for heartbeats, sweeps and database timeouts), on a
 * fixed port so a restarted api is found where the host and the player left it. It leads its own
 * process group (spawned detached), so `kill()` takes it down with anything it started, as a
 * crash would (SIGKILL: no graceful close, no Shutdown report).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../../..');

export interface ApiProcess {
  base: string;
  child: ChildProcess;
  output(): string;
  /** SIGKILL to the api's process group; resolves when it exited. */
  kill(): Promise<void>;
}

/** Starts the api and resolves once GET /health answers 200 (migrated, catalogue seeded). */
export async function spawnApi(port: number, env: Record<string, string>, timeoutMs = 90_000): Promise<ApiProcess> {
  let out = '';
  // node with tsx's loader: one process (the tsx command would start a second one)
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'server/api/main.ts')], {
    cwd: ROOT,
    detached: true,
    env: { ...process.env, API_HOST: '127.0.0.1', API_PORT: String(port), LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d: Buffer) => (out = (out + d.toString()).slice(-200_000)));
  child.stderr!.on('data', (d: Buffer) => (out = (out + d.toString()).slice(-200_000)));
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    child.once('exit', () => resolve());
  });
  const base = `http://127.0.0.1:${port}`;
  const kill = async () => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      /* gone */
    }
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))]);
  };
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the api exited while starting:\n${out}`);
    const ok = await fetch(`${base}/health`, { signal: AbortSignal.timeout(2_000) }).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) {
      await kill();
      throw new Error(`the api did not become healthy within ${timeoutMs} ms:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { base, child, output: () => out, kill };
}
