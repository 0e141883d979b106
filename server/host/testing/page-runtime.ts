/**
 * For tests and benches that reach into a page runtime (its page, its browser, its processes):
 * the pool and the sessions hold any kind (session-runtime.ts), so these say "this one is a
 * page" and fail loudly when it is not.
 */
import type { RuntimePool } from '../pool';
import { Runtime } from '../runtime';
import type { SessionRuntime } from '../session-runtime';

/** `rt` as the page runtime it must be. */
export function pageOf(rt: SessionRuntime | null | undefined): Runtime {
  if (!(rt instanceof Runtime)) throw new Error(`not a page runtime: ${rt ? rt.kind : 'none'}`);
  return rt;
}

/** The pool's runtimes, every one a page runtime. */
export function pageRuntimes(pool: RuntimePool<SessionRuntime>): Runtime[] {
  return pool.runtimes().map(pageOf);
}
