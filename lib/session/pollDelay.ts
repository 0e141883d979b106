/**
 * How long the play page waits between status polls of a starting session (the spec's contract:
 * start, poll the status, fetch the token). Its own module, free of the browser's api client, so
 * the play benches (bench/play-stack.ts) replay the page's exact timing.
 *
 * A warm start is ready in a few hundred milliseconds and every poll interval adds half of itself
 * to the click → first frame time on average, so the first 4 s are polled every 100 ms (issue 11:
 * 250 ms cost ~125 ms a start; a cold start, a new runtime in a running browser, is ready in
 * 2–3.5 s; 40 polls stay far below the api's 600 a minute per user), then every 250 ms up to 8 s,
 * a longer start (a browser launched on a busy host) every second, and a queue every 2 s.
 */
export function statusPollDelay(state: string, elapsedMs: number): number {
  if (state === 'queued') return 2000;
  if (elapsedMs < 4000) return 100;
  return elapsedMs < 8000 ? 250 : 1000;
}
