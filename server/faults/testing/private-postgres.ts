/**
 * A PostgreSQL of the fault tests' own: `tsx server/dev/postgres.ts` as a child process on a free
 * port with a fresh cluster in a private temporary folder. The tests pause it (SIGSTOP) and
 * resume it (SIGCONT), so it must not be the server other test files share: pausing that one
 * would stall every suite running beside. Which processes are paused is decided from this
 * cluster's own postmaster.pid (and checked against the process table): the postmaster and its
 * children (backends, checkpointer, walwriter, ...), never a process group, never anything else.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { listProcs, readProc } from '../../host/procs';

const ROOT = path.resolve(__dirname, '../../..');

export interface PrivatePostgres {
  port: number;
  dataDir: string;
  /** URL of a database of this server ("yumecast_test" by default, created at start). */
  url(database?: string): string;
  /** SIGSTOP to the postmaster, then to each of its children. Returns the paused pids. */
  pause(): number[];
  /** SIGCONT to whatever pause() stopped (children first). Idempotent. */
  resume(): void;
  /** Resumes, stops the server and removes its folder. Idempotent. */
  stop(): Promise<void>;
}

/** A TCP port free on 127.0.0.1 right now. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const port = await freePort();
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'yumecast-faults-pg-'));
  // As root the server runs as the `postgres` user, which must be able to reach the data dir.
  fs.chmodSync(parent, 0o711);
  const dataDir = path.join(parent, 'data');
  let out = '';
  const child: ChildProcess = spawn(path.join(ROOT, 'node_modules/.bin/tsx'), [path.join(ROOT, 'server/dev/postgres.ts')], {
    cwd: ROOT,
    env: { ...process.env, PGPORT_LOCAL: String(port), PG_DATA_DIR: dataDir, PG_VERBOSE: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const deadline = Date.now() + 120_000;
  while (!out.includes('postgres: ready on')) {
    if (child.exitCode !== null || child.signalCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      fs.rmSync(parent, { recursive: true, force: true });
      throw new Error(`the private PostgreSQL did not start:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }

  let paused: number[] = [];
  const postmaster = (): number => {
    const pid = Number(fs.readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    const info = Number.isInteger(pid) && pid > 1 ? readProc(pid) : null;
    // the pid file is ours; the process must be a postgres server of this very data dir
    if (!info || !info.cmdline.includes(dataDir) || !/postgres/.test(info.cmdline)) {
      throw new Error(`postmaster.pid of ${dataDir} names pid ${pid}, which is not this cluster's postmaster`);
    }
    return pid;
  };
  const resume = () => {
    for (const pid of [...paused].reverse()) {
      try {
        process.kill(pid, 'SIGCONT');
      } catch {
        /* gone */
      }
    }
    paused = [];
  };
  let stopped: Promise<void> | null = null;
  return {
    port,
    dataDir,
    url: (database = 'yumecast_test') => `postgres://postgres:postgres@127.0.0.1:${port}/${database}`,
    pause() {
      if (paused.length) throw new Error('already paused');
      const main = postmaster();
      process.kill(main, 'SIGSTOP'); // first: a stopped postmaster forks no new backend
      paused.push(main);
      for (const p of listProcs()) {
        if (p.ppid !== main || p.state === 'Z') continue;
        process.kill(p.pid, 'SIGSTOP');
        paused.push(p.pid);
      }
      return [...paused];
    },
    resume,
    stop() {
      stopped ??= (async () => {
        resume();
        if (child.exitCode === null && child.signalCode === null) {
          child.kill('SIGTERM'); // the launcher stops the server cleanly (fast shutdown)
          const done = await Promise.race([exited.then(() => true), new Promise((r) => setTimeout(() => r(false), 30_000))]);
          if (!done) {
            try {
              process.kill(postmaster(), 'SIGQUIT');
            } catch {
              /* gone */
            }
            child.kill('SIGKILL');
          }
        }
        fs.rmSync(parent, { recursive: true, force: true });
      })();
      return stopped;
    },
  };
}
