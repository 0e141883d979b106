/**
 * CPU priority of the host's Chromium processes (issue 11, docs/host.md "Warm-ups yield the
 * CPU"). Launching a runtime for the warm pool costs a second or more of CPU (a browser start, a
 * renderer, the runtime page's script and fonts), and the pool starts it 1.5 s after a session
 * took the last warm one: on a 2-core host that lands on the new session's first seconds, whose
 * first inputs then answered in 100–260 ms instead of ~25 ms (play-latency, 2026-11-25). So a
 * runtime warmed for the pool runs its processes at a lower priority (nice WARM_NICE) and gets
 * the agent's own priority back when a session takes it; a cold start (a player waiting) is never
 * lowered.
 *
 * What "a process's priority" is here: `setpriority` on a process id, which on Linux sets its main
 * thread's nice value (and so that of the threads it starts later); the threads Chromium had
 * already started keep theirs (its encoder, compositor and IO threads run at −8, their own
 * choice). A warm page's work (its script, fonts and canvas rasters) runs on the main thread, which
 * is what the warm nice was measured on (docs/performance.md "thirteenth round").
 *
 * Raising a process's priority back needs CAP_SYS_NICE (or RLIMIT_NICE); without it, lowering
 * would leave a session's renderer slow for good, so canRestorePriority() probes once on a child
 * process and the browsers lower nothing when it fails (deploy: the host's container gets
 * SYS_NICE).
 */
import { spawn } from 'node:child_process';
import os from 'node:os';

/** The nice value of a runtime's processes while it warms for the pool (HOST_WARM_NICE's default). */
export const WARM_NICE = 10;

/** The agent's own nice value: what a session's processes run at. */
export const basePriority = (): number => os.getPriority();

let probed: boolean | null = null;

/** Whether this process may put a process's priority back up after lowering it (probed once). */
export function canRestorePriority(): boolean {
  if (probed !== null) return probed;
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 5000)'], { stdio: 'ignore' });
  try {
    if (!child.pid) throw new Error('no child');
    os.setPriority(child.pid, Math.min(19, basePriority() + 1));
    os.setPriority(child.pid, basePriority());
    probed = true;
  } catch {
    probed = false;
  } finally {
    child.kill('SIGKILL');
  }
  return probed;
}

/** A process's nice value (null when it is gone). */
export function niceOf(pid: number): number | null {
  try {
    return os.getPriority(pid);
  } catch {
    return null;
  }
}

/** Sets `nice` on the process; false when it is gone or may not be changed. */
export function renice(pid: number, nice: number): boolean {
  try {
    os.setPriority(pid, nice);
    return true;
  } catch {
    return false;
  }
}
