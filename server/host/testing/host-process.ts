/**
 * A host agent as a separate process (`node_modules/.bin/tsx server/host/main.ts`), for tests
 * that kill a host the hard way. The agent leads its own process group (spawned detached), so
 * `killGroup('SIGKILL')` takes tsx and the agent down together, as a lost machine would; its
 * browsers lead groups of their own (playwright spawns them detached) and live on until
 * `killBrowsers()` finds them in the process table (every process naming the host's private
 * HOST_TMP_DIR, see procs.ts) and SIGKILLs them.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FIXTURES_DIR, GAMES_DIR } from '../../../runtime/build';
import { CHROMIUM_PATH } from '../../shared/chromium';
import { HOST_SECRET_HEADER } from '../../shared/host-contract';
import { findBrowserProc, killRuntimeTree, listProcs, type ProcInfo } from '../procs';
import { buildTestRuntime, until } from './harness';

const ROOT = path.resolve(__dirname, '../../..');

export interface HostProcess {
  child: ChildProcess;
  hostId: string;
  /** The agent's api-facing URL, once it listens. */
  url: string;
  /** Its private HOST_TMP_DIR (every runtime profile lives here). */
  tmpDir: string;
  output(): string;
  health(): Promise<{ warm: number; activeSessions: number; registered: boolean; [k: string]: unknown }>;
  /** Living processes of this host: the agent's process group and every process naming tmpDir. */
  procs(): ProcInfo[];
  /** SIGKILL to the agent's whole process group (tsx + the agent). Resolves when the child exited. */
  killGroup(): Promise<void>;
  /** SIGKILLs every browser of this host (each runtime's tree, then anything naming tmpDir). */
  killBrowsers(): Promise<ProcInfo[]>;
  /** Kills everything of this host and removes tmpDir. Idempotent. */
  cleanup(): Promise<void>;
}

export async function spawnHostAgent(opts: { hostId: string; apiUrl: string; secret: string; env?: Record<string, string> }): Promise<HostProcess> {
  const runtimeDir = await buildTestRuntime();
  const tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), `yumecast-hostproc-${opts.hostId}-`));
  let out = '';
  const child = spawn(path.join(ROOT, 'node_modules/.bin/tsx'), [path.join(ROOT, 'server/host/main.ts')], {
    cwd: ROOT,
    detached: true,
    env: {
      ...process.env,
      HOST_ID: opts.hostId,
      HOST_AGENT_HOST: '127.0.0.1',
      HOST_AGENT_PORT: '0',
      HOST_SHARED_SECRET: opts.secret,
      API_URL: opts.apiUrl,
      HOST_RUNTIME_DIR: runtimeDir,
      HOST_GAMES_DIRS: `${GAMES_DIR},${FIXTURES_DIR}`,
      HOST_TMP_DIR: tmpDir,
      CHROMIUM_PATH,
      LOG_LEVEL: 'info',
      ...opts.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const pgid = child.pid!;
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    child.once('exit', () => resolve());
  });

  const procs = () => listProcs().filter((p) => p.state !== 'Z' && (p.pgid === pgid || p.cmdline.includes(tmpDir)));
  const killGroup = async () => {
    try {
      process.kill(-pgid, 'SIGKILL');
    } catch {
      /* gone */
    }
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([exited, new Promise((r) => (timer = setTimeout(r, 5000)))]);
    clearTimeout(timer);
  };
  const killBrowsers = async () => {
    const left: ProcInfo[] = [];
    for (const name of fs.existsSync(tmpDir) ? fs.readdirSync(tmpDir) : []) {
      const dir = path.join(tmpDir, name);
      left.push(...(await killRuntimeTree(dir, findBrowserProc(dir)?.pgid ?? null)));
    }
    // anything else naming the folder (a browser between launch and its profile's marker)
    for (let i = 0; i < 40; i++) {
      const rest = listProcs().filter((p) => p.state !== 'Z' && p.cmdline.includes(tmpDir));
      if (rest.length === 0) return [];
      for (const p of rest) {
        try {
          process.kill(p.pid, 'SIGKILL');
        } catch {
          /* gone */
        }
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    return left.concat(listProcs().filter((p) => p.state !== 'Z' && p.cmdline.includes(tmpDir)));
  };

  const url = await until(() => /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1], `host ${opts.hostId} to listen`, 90_000, 50).catch(async (e: Error) => {
    await killGroup();
    await killBrowsers();
    throw new Error(`${e.message}; output:\n${out}`);
  });
  let cleaned: Promise<void> | null = null;
  return {
    child,
    hostId: opts.hostId,
    url,
    tmpDir,
    output: () => out,
    async health() {
      const r = await fetch(`${url}/health`, { headers: { [HOST_SECRET_HEADER]: opts.secret } });
      return (await r.json()) as { warm: number; activeSessions: number; registered: boolean };
    },
    procs,
    killGroup,
    killBrowsers,
    cleanup() {
      cleaned ??= (async () => {
        await killGroup();
        await killBrowsers();
        fs.rmSync(tmpDir, { recursive: true, force: true });
      })();
      return cleaned;
    },
  };
}
