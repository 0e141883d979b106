/**
 * @jest-environment node
 *
 * process.ts with real processes: stopEveryProcess ends each started process's whole group (a
 * grandchild too), and it is a one-way switch for a program about to exit: a start still under
 * way that resumes after it launches nothing (its comment says so; run.ts and test.ts exit after
 * calling it). Jest gives this file its own module registry, so the switch stays in this file.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startProcess, stopEveryProcess } from './process';

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return !/\) Z /.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
};

const logDir = fs.mkdtempSync(path.join(os.tmpdir(), 'yumecast-process-test-'));
afterAll(() => fs.rmSync(logDir, { recursive: true, force: true }));

/** The pid the shell printed into its log (its background child). */
async function grandchildPid(logFile: string): Promise<number> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const pid = Number(/^(\d+)$/m.exec(fs.readFileSync(logFile, 'utf8'))?.[1]);
    if (pid) return pid;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the shell did not print its child');
}

describe('stopEveryProcess', () => {
  it('stops every started process with its descendants, the program then starts nothing more', async () => {
    const first = startProcess('sleeper', 'sleep', ['300'], process.env, logDir, logDir);
    const second = startProcess('shell', 'sh', ['-c', 'sleep 300 & echo $!; wait'], process.env, logDir, logDir);
    const grandchild = await grandchildPid(second.logFile);
    expect([first.child.pid!, second.child.pid!, grandchild].map(alive)).toEqual([true, true, true]);

    // A start under way: it is an await away from launching its next service when the stop comes.
    let resume!: () => void;
    const startUnderWay = new Promise<void>((r) => (resume = r)).then(() => startProcess('late', 'sleep', ['300'], process.env, logDir, logDir));

    await stopEveryProcess(2000);
    expect([first.child.pid!, second.child.pid!, grandchild].map(alive)).toEqual([false, false, false]);

    // Every process has exited, and the switch stays on: the late start launches nothing.
    resume();
    await expect(startUnderWay).rejects.toThrow('not starting late: stopping');
    expect(fs.existsSync(path.join(logDir, 'late.log'))).toBe(false);
    expect(() => startProcess('later', 'sleep', ['300'], process.env, logDir, logDir)).toThrow('not starting later: stopping');
  }, 30_000);
});
