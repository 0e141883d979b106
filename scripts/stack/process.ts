/**
 * Child processes of the local stack: each runs in its own process group with its output in
 * .run/logs/<name>.log, so stopping the stack kills every descendant (postgres workers,
 * the emulator's java-less node children, Next.js workers) and leaves nothing behind. Every
 * process started here is also remembered until it exits, so a Ctrl-C that comes while a stack is
 * still starting (before anything holds its handle) can stop what was launched
 * (stopEveryProcess, used by run.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export interface Managed {
  name: string;
  child: ChildProcess;
  logFile: string;
  exited: Promise<number | null>;
  /** Set when the process ended on its own (a crash while we wait for health). */
  exitCode(): number | null | undefined;
}

/** Every process startProcess started that has not exited, in start order. */
const running = new Set<Managed>();
/**
 * Set by stopEveryProcess and never cleared: the program is stopping, so a start still under way
 * (an `await` away from launching its next service) launches nothing more, however late it
 * resumes. Clearing it once the processes have exited would let exactly that late start through.
 */
let stoppingAll = false;

/** `append`: keep the log of an earlier run of the same service (a restarted replica). */
export function startProcess(name: string, command: string, args: string[], env: NodeJS.ProcessEnv, logDir: string, cwd: string, append = false): Managed {
  if (stoppingAll) throw new Error(`not starting ${name}: stopping`);
  fs.mkdirSync(logDir, { recursive: true });
  const logFile = path.join(logDir, `${name}.log`);
  const out = fs.openSync(logFile, append ? 'a' : 'w');
  const child = spawn(command, args, { cwd, env, detached: true, stdio: ['ignore', out, out] });
  fs.closeSync(out);
  let code: number | null | undefined;
  const exited = new Promise<number | null>((resolve) => {
    child.on('exit', (c, signal) => {
      code = c ?? (signal ? 128 : null);
      resolve(code);
    });
    child.on('error', () => {
      code = 127;
      resolve(127);
    });
  });
  const m: Managed = { name, child, logFile, exited, exitCode: () => code };
  running.add(m);
  void exited.then(() => running.delete(m));
  return m;
}

/**
 * Stops every process this program started and that still runs, the last started first.
 *
 * A one-way switch, for a program about to exit: from the first call on, startProcess throws for
 * the rest of the program's life (stoppingAll is never cleared). Every caller exits once it
 * returns (scripts/stack/run.ts on Ctrl-C or a failed start, scripts/test.ts on a signal or a
 * cluster that did not start, its last suite). A program that must start processes again
 * afterwards stops what it started through the handles (stopProcess, a stack's stop()) instead.
 */
export async function stopEveryProcess(graceMs = 8000): Promise<void> {
  stoppingAll = true;
  for (const m of [...running].reverse()) await stopProcess(m, graceMs);
}

function killGroup(pid: number, signal: NodeJS.Signals) {
  try {
    process.kill(-pid, signal);
  } catch {
    /* already gone */
  }
}

/** SIGTERM the group, then SIGKILL whatever is left after the grace period. */
export async function stopProcess(m: Managed, graceMs = 8000): Promise<void> {
  const pid = m.child.pid;
  if (!pid) return;
  if (m.exitCode() === undefined) {
    killGroup(pid, 'SIGTERM');
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise((r) => (timer = setTimeout(r, graceMs)));
    await Promise.race([m.exited, grace]);
    // the grace timer would otherwise keep the program alive after a quick exit
    clearTimeout(timer);
  }
  killGroup(pid, 'SIGKILL');
}

export function tail(file: string, lines = 30): string {
  try {
    return fs.readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}
