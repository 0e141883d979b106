/**
 * The process table (Linux /proc): finds a browser's Chromium processes, kills them, and says
 * what a session costs (sessionFootprint).
 *
 * Each browser (browsers.ts) is one Chromium launched by playwright-core with its own fresh
 * user-data-dir. playwright spawns it detached, so the browser leads a new process group that its
 * zygotes, GPU, network, storage, audio and renderer processes join; and every one of them carries
 * `--user-data-dir=<dir>` on its command line. Crashpad's handler daemonises out of the group, but
 * the agent gives each browser an XDG_CONFIG_HOME inside its user-data-dir, so the handler's
 * `--database=<dir>/xdg-config/chromium/Crash Reports` names it too. So "this browser's
 * processes" = members of its process group ∪ processes naming its user-data-dir; of those, a
 * runtime's own are its context's renderers (browsers.ts), the rest shared by its runtimes.
 * Zombies (state Z) hold nothing and cannot be killed; their parent (or init) reaps them, so they
 * are not counted as alive.
 */
import fs from 'node:fs';

export interface ProcInfo {
  pid: number;
  ppid: number;
  pgid: number;
  /** One-letter state from /proc/<pid>/stat: R, S, D, Z, T, ... */
  state: string;
  /** Resident set size in bytes. */
  rss: number;
  /** CPU time used so far (user + system), in clock ticks (usually 100 a second). */
  cpuTicks: number;
  cmdline: string;
}

const PAGE_SIZE = 4096;

/** One process, or null if it is gone (or not readable). */
export function readProc(pid: number): ProcInfo | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // the command name is in parentheses and may itself hold spaces or parentheses
    const close = stat.lastIndexOf(')');
    const rest = stat.slice(close + 2).split(' ');
    const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
    return {
      pid,
      state: rest[0],
      ppid: Number(rest[1]),
      pgid: Number(rest[2]),
      rss: Number(rest[21]) * PAGE_SIZE,
      cpuTicks: Number(rest[11]) + Number(rest[12]),
      cmdline,
    };
  } catch {
    return null;
  }
}

/** Every process we can read. */
export function listProcs(): ProcInfo[] {
  const out: ProcInfo[] = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const p = readProc(Number(name));
    if (p) out.push(p);
  }
  return out;
}

const alive = (p: ProcInfo) => p.state !== 'Z' && p.state !== 'X';

/** A browser's living processes: its process group and anything naming its user-data-dir. */
export function runtimeProcs(userDataDir: string, pgid?: number | null, procs: ProcInfo[] = listProcs()): ProcInfo[] {
  // the dir is a unique mkdtemp path: naming it (as --user-data-dir=… or inside crashpad's
  // --database=…) is enough
  return procs.filter((p) => alive(p) && ((pgid && p.pgid === pgid) || p.cmdline.includes(userDataDir)));
}

/** Every living Chromium process on the machine (for leak checks in tests and at shutdown). */
export function chromiumProcs(procs: ProcInfo[] = listProcs()): ProcInfo[] {
  return procs.filter((p) => alive(p) && /(^|\/)(chromium|chrome|chrome_crashpad_handler|headless_shell)( |$)/.test(p.cmdline));
}

/** The browser's main process (the one without --type=) for a user-data-dir. */
export function findBrowserProc(userDataDir: string, procs: ProcInfo[] = listProcs()): ProcInfo | null {
  const marker = `--user-data-dir=${userDataDir}`;
  return procs.find((p) => alive(p) && p.cmdline.includes(marker) && !p.cmdline.includes('--type=')) ?? null;
}

/** Total resident memory of a set of processes, in bytes (shared pages are counted per process). */
export function totalRss(procs: ProcInfo[]): number {
  return procs.reduce((s, p) => s + p.rss, 0);
}

/** Whether a process exists (signal 0; EPERM: it exists, as another user's). */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    /* already gone */
  }
}

/**
 * SIGKILLs a runtime's process tree and waits until none of it is alive (or `waitMs` passed).
 * Returns the processes still alive at the end (normally none).
 */
export async function killRuntimeTree(userDataDir: string, pgid: number | null, waitMs = 3000): Promise<ProcInfo[]> {
  const end = Date.now() + waitMs;
  let left = runtimeProcs(userDataDir, pgid);
  while (left.length > 0) {
    // the group first (one syscall reaches every member, even ones forked a moment ago)
    if (pgid && left.some((p) => p.pgid === pgid)) signal(-pgid, 'SIGKILL');
    for (const p of left) signal(p.pid, 'SIGKILL');
    if (Date.now() > end) break;
    await new Promise((r) => setTimeout(r, 25));
    left = runtimeProcs(userDataDir, pgid);
  }
  return left;
}

/** Synchronous best effort for process exit paths: SIGKILL the group and the marked processes. */
export function killRuntimeTreeSync(userDataDir: string, pgid: number | null): void {
  if (pgid) signal(-pgid, 'SIGKILL');
  for (const p of runtimeProcs(userDataDir, pgid)) signal(p.pid, 'SIGKILL');
}

/** Proportional set size (smaps_rollup) of one process in bytes; 0 when gone or unreadable. */
export function pssBytes(pid: number): number {
  try {
    const m = /^Pss:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** A runtime as sessionFootprint sees it (server/host/runtime.ts's Runtime). */
export interface FootprintSource {
  /** Its own processes (its renderers), the ones its browser's runtimes share, and how many share them. */
  processShare(procs?: ProcInfo[]): { own: ProcInfo[]; shared: ProcInfo[]; sharers: number };
}

export interface SessionFootprint {
  /** Own PSS + shared PSS / sharers, in bytes. */
  pss: number;
  /** Own CPU ticks + shared CPU ticks / sharers, cumulative since each process started (diff two calls for a rate). */
  cpuTicks: number;
  /** Own processes + shared processes / sharers (a fraction when the browser is shared). */
  procs: number;
  own: { pids: number[]; pss: number; cpuTicks: number };
  shared: { pids: number[]; pss: number; cpuTicks: number; sharers: number };
}

/**
 * What one session's runtime costs: its renderers' PSS and CPU plus its share (1/n, n = the
 * runtimes in that browser now) of the browser's shared processes (browser, zygotes, GPU,
 * network, storage, audio, crashpad). With one runtime per browser, all of the browser's.
 */
export function sessionFootprint(rt: FootprintSource, procs: ProcInfo[] = listProcs()): SessionFootprint {
  const { own, shared, sharers } = rt.processShare(procs);
  const sum = (ps: ProcInfo[]) => ({ pids: ps.map((p) => p.pid), pss: ps.reduce((s, p) => s + pssBytes(p.pid), 0), cpuTicks: ps.reduce((s, p) => s + p.cpuTicks, 0) });
  const o = sum(own);
  const sh = { ...sum(shared), sharers };
  return {
    pss: o.pss + sh.pss / sharers,
    cpuTicks: o.cpuTicks + sh.cpuTicks / sharers,
    procs: own.length + shared.length / sharers,
    own: o,
    shared: sh,
  };
}

/** A session's footprint as GET /sessions/:id shows it: its own pids, PSS in MB, processes (shares counted as fractions), sharers. */
export function footprintSummary(rt: FootprintSource): { ownPids: number[]; pssMb: number; processes: number; sharers: number } {
  const f = sessionFootprint(rt);
  return {
    ownPids: f.own.pids,
    pssMb: Math.round(f.pss / 1e5) / 10,
    processes: Math.round(f.procs * 100) / 100,
    sharers: f.shared.sharers,
  };
}
