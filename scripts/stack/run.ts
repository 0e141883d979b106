/**
 * Runs a local stack until Ctrl-C (`npm start`: scripts/start.ts; `npm run cluster`:
 * scripts/cluster/main.ts), one place for what both need: start it, print its addresses, and on
 * SIGINT or SIGTERM stop every process it started, also when the signal comes while it is still
 * starting (a stack's start takes minutes, and before it returns nobody holds its handle: then
 * every process started so far is stopped, process.ts stopEveryProcess). A start that fails, or a
 * `ready` step that throws, stops what was started and exits 1.
 */
import { stopEveryProcess } from './process';

export interface Stoppable {
  stop(): Promise<void>;
}

/**
 * `start()` brings the stack up; `ready(running, beforeStop)` prints its addresses and may start
 * more (a control endpoint), registering with `beforeStop` what must close before the stack stops.
 * Resolves never while the stack runs; the process exits when it is stopped.
 */
export async function runUntilStopped<T extends Stoppable>(start: () => Promise<T>, ready: (running: T, beforeStop: (close: () => Promise<unknown>) => void) => Promise<void> | void): Promise<void> {
  let running: T | null = null;
  const closers: (() => Promise<unknown>)[] = [];
  let stopping = false;
  const stopAll = async () => {
    for (const close of closers.splice(0).reverse()) await close().catch(() => undefined);
    await (running ? running.stop() : stopEveryProcess());
  };
  const shutdown = async (code: number) => {
    if (stopping) return;
    stopping = true;
    console.log('\n• stopping…');
    await stopAll();
    console.log('  ✓ stopped; no process left behind');
    process.exit(code);
  };
  process.on('SIGINT', () => void shutdown(0));
  process.on('SIGTERM', () => void shutdown(0));

  try {
    running = await start();
    if (stopping) return;
    await ready(running, (close) => closers.push(close));
  } catch (e) {
    if (stopping) return;
    stopping = true;
    console.error(`\n✗ could not start: ${e instanceof Error ? e.message : String(e)}`);
    await stopAll();
    process.exit(1);
  }
  if (stopping) return;
  console.log('Press Ctrl-C to stop everything.');
  await new Promise(() => undefined);
}
