/**
 * `npm start` and `npm run cluster` stop every process they started on Ctrl-C, also while the
 * stack is still starting (scripts/stack/run.ts): a real child program (testing/run-fixture.ts)
 * launches a real process, gets SIGINT, and the process must be gone.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';

const TSX = path.resolve(__dirname, '../../node_modules/.bin/tsx');
const FIXTURE = path.join(__dirname, 'testing', 'run-fixture.ts');

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Runs the fixture until it prints `until`, sends SIGINT, and returns the launched pid, the exit code and the output. */
async function interrupt(mode: 'starting' | 'started', until: RegExp) {
  const child = spawn(TSX, [FIXTURE, mode], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const deadline = Date.now() + 20_000;
  while (!until.test(out) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  const pid = Number(/pid (\d+)/.exec(out)?.[1]);
  expect(alive(pid)).toBe(true);
  child.kill('SIGINT');
  const code = await exited;
  return { pid, code, out };
}

describe('runUntilStopped', () => {
  it('stops what a start still under way has launched when Ctrl-C comes', async () => {
    const { pid, code, out } = await interrupt('starting', /pid \d+/);
    expect(out).not.toContain('ready');
    expect(out).toContain('stopped; no process left behind');
    expect(code).toBe(0);
    expect(alive(pid)).toBe(false);
  }, 30_000);

  it('stops a started stack on Ctrl-C', async () => {
    const { pid, code, out } = await interrupt('started', /Press Ctrl-C/);
    expect(out).toContain('ready');
    expect(code).toBe(0);
    expect(alive(pid)).toBe(false);
  }, 30_000);
});
