/**
 * How a native session's processes are kept apart and ended (docs/renpy.md §6): each session gets
 * its own cgroup (v2), every process of it is started inside (a `sh` that writes itself into
 * cgroup.procs and then execs the command, so even a daemonising child stays in), and the end
 * is one write to `cgroup.kill`: no process-group or /proc-scan guessing. As root, the processes
 * run as an unprivileged uid (setpriv) and the game in a network namespace of its own (unshare -n:
 * only `lo`, down); X and PulseAudio are reached through path sockets, which work across it.
 * Without a writable cgroup hierarchy (an unprivileged container) the fallback is a process group
 * per process, killed whole.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pidAlive } from '../procs';

export interface Isolation {
  /** The command prefix that puts a process in the session's group (and, for `game`, its own network namespace) as the session's user. */
  prefix(o: { netns: boolean }): string[];
  /** Every pid in the session's group now. */
  pids(): number[];
  /** Kills every process of the session; resolves when none is left (or after timeoutMs, with the pids still alive). */
  kill(timeoutMs?: number): Promise<number[]>;
  /** `cgroup` (one group, cgroup.kill) or `pgroup` (the fallback). */
  readonly kind: 'cgroup' | 'pgroup';
  /** SIGKILLs every process now, without waiting (the agent's exit paths). */
  killSync(): void;
}

/** The unprivileged user (nobody) that work not owned by one session runs as: the compile ahead. */
export const NOBODY = 65534;

/** Whether the agent runs as root (then a session's processes run as an unprivileged uid). */
export const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

/** setpriv to the session's user when the agent is root; nothing otherwise (it already is one). */
function userPrefix(uid: number, gid: number): string[] {
  return isRoot ? ['setpriv', `--reuid=${uid}`, `--regid=${gid}`, '--clear-groups'] : [];
}

/** unshare -n as root; as another user a user namespace makes it possible (unshare -rn). */
function netnsPrefix(): string[] {
  return isRoot ? ['unshare', '-n'] : ['unshare', '-rn'];
}

/** The command prefix that runs a process as `uid`:`gid` (as root) and, with `netns`, without network. */
export function unprivilegedPrefix(uid: number, gid: number, o: { netns: boolean }): string[] {
  return [...(o.netns ? netnsPrefix() : []), ...userPrefix(uid, gid)];
}

class CgroupIsolation implements Isolation {
  readonly kind = 'cgroup' as const;
  constructor(
    private readonly dir: string,
    private readonly uid: number,
    private readonly gid: number,
  ) {}

  prefix(o: { netns: boolean }): string[] {
    return ['sh', '-c', `echo $$ > '${this.dir}/cgroup.procs' && exec "$@"`, 'sh', ...unprivilegedPrefix(this.uid, this.gid, o)];
  }

  pids(): number[] {
    try {
      return fs
        .readFileSync(path.join(this.dir, 'cgroup.procs'), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map(Number);
    } catch {
      return [];
    }
  }

  killSync(): void {
    try {
      fs.writeFileSync(path.join(this.dir, 'cgroup.kill'), '1');
    } catch {
      for (const pid of this.pids()) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          /* gone */
        }
      }
    }
  }

  async kill(timeoutMs = 5000): Promise<number[]> {
    const t0 = Date.now();
    const killFile = path.join(this.dir, 'cgroup.kill');
    const hasKill = fs.existsSync(killFile);
    for (;;) {
      const pids = this.pids();
      if (pids.length === 0) break;
      if (Date.now() - t0 > timeoutMs) return pids;
      try {
        if (hasKill) fs.writeFileSync(killFile, '1');
        else for (const pid of pids) process.kill(pid, 'SIGKILL');
      } catch {
        /* gone meanwhile */
      }
      await new Promise((r) => setTimeout(r, 10));
    }
    // the killed tasks leave the group as they are reaped: rmdir answers EBUSY until then
    while (Date.now() - t0 < timeoutMs) {
      try {
        fs.rmdirSync(this.dir);
        break;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') break;
        await new Promise((r) => setTimeout(r, 20));
      }
    }
    return [];
  }
}

class ProcessGroupIsolation implements Isolation {
  readonly kind = 'pgroup' as const;
  readonly groups = new Set<number>();
  constructor(
    private readonly uid: number,
    private readonly gid: number,
  ) {}

  prefix(o: { netns: boolean }): string[] {
    return unprivilegedPrefix(this.uid, this.gid, o);
  }

  pids(): number[] {
    return [...this.groups].filter((pid) => alive(pid));
  }

  killSync(): void {
    for (const pgid of this.pids()) {
      try {
        process.kill(-pgid, 'SIGKILL');
      } catch {
        /* gone */
      }
    }
  }

  async kill(timeoutMs = 5000): Promise<number[]> {
    const t0 = Date.now();
    for (;;) {
      const left = this.pids();
      if (left.length === 0) return [];
      if (Date.now() - t0 > timeoutMs) return left;
      for (const pgid of left) {
        try {
          process.kill(-pgid, 'SIGKILL');
        } catch {
          /* gone */
        }
      }
      await new Promise((r) => setTimeout(r, 10));
    }
  }
}

/** Whether a process exists (procs.ts's pidAlive: signal 0; EPERM: it exists, as another user's). */
export const alive = pidAlive;

/**
 * The session's isolation: a fresh cgroup under `cgroupRoot` when it can be made (`name` plus a
 * random suffix: a group of an earlier start of the same session may still be going away), else
 * process groups.
 */
export function isolateSession(cgroupRoot: string, name: string, uid: number, gid: number): Isolation {
  const dir = path.join(cgroupRoot, `${name}-${randomBytes(4).toString('hex')}`);
  try {
    fs.mkdirSync(dir);
    return new CgroupIsolation(dir, uid, gid);
  } catch {
    return new ProcessGroupIsolation(uid, gid);
  }
}

/**
 * Kills and removes the groups under `cgroupRoot` whose names start with `prefix`: those of this
 * host's sessions left by an agent that died (their game, display and sound server would run on
 * with nobody to end them). Returns how many groups were found.
 */
export async function sweepGroups(cgroupRoot: string, prefix: string): Promise<number> {
  let names: string[];
  try {
    names = fs.readdirSync(cgroupRoot).filter((n) => n.startsWith(prefix));
  } catch {
    return 0;
  }
  for (const n of names) await new CgroupIsolation(path.join(cgroupRoot, n), 0, 0).kill(3000);
  return names.length;
}

/**
 * Opens a file the game's process controls, for the agent to read: not through a symbolic link
 * (O_NOFOLLOW), never blocking (O_NONBLOCK: a FIFO does not stall the agent), and only a regular
 * file (checked on the open descriptor, so it cannot be swapped after the check). Null otherwise.
 */
export function openRegularFile(file: string): number | null {
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
  } catch {
    return null;
  }
  try {
    if (fs.fstatSync(fd).isFile()) return fd;
  } catch {
    /* closed below */
  }
  fs.closeSync(fd);
  return null;
}

/** Starts `cmd args` inside the isolation (own process group, output to `logFile`). */
export function spawnIsolated(iso: Isolation, o: { netns: boolean }, cmd: string, args: string[], env: Record<string, string>, logFile: string, stdio: 'pipe' | 'ignore' = 'ignore'): ChildProcess {
  const argv = [...iso.prefix(o), cmd, ...args];
  const log = fs.openSync(logFile, 'a');
  try {
    const child = spawn(argv[0], argv.slice(1), {
      env: env as NodeJS.ProcessEnv,
      detached: true,
      stdio: stdio === 'pipe' ? ['pipe', 'pipe', log] : ['ignore', log, log],
    });
    if (iso instanceof ProcessGroupIsolation && child.pid) iso.groups.add(child.pid);
    return child;
  } finally {
    fs.closeSync(log);
  }
}
