/**
 * A stack for scripts/stack/run.test.ts: `starting` launches a process (sleep) through
 * process.ts and never finishes starting, as a stack still waiting on its services does when
 * Ctrl-C comes; `started` starts and stays up. Each prints the launched process's pid.
 */
import os from 'node:os';
import path from 'node:path';
import { startProcess, stopProcess } from '../process';
import { runUntilStopped } from '../run';

const mode = process.argv[2];
const logDir = path.join(os.tmpdir(), `yumecast-run-fixture-${process.pid}`);

void runUntilStopped(
  async () => {
    const m = startProcess('sleeper', 'sleep', ['300'], process.env, logDir, os.tmpdir());
    console.log(`pid ${m.child.pid}`);
    if (mode === 'starting') await new Promise(() => undefined);
    return { stop: () => stopProcess(m, 2000) };
  },
  () => console.log('ready'),
);
