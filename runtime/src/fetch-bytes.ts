/**
 * Big files fetched by a worker (issue 11: memory per session): the music loops and the sound
 * effects' WAVs.
 *
 * The host drives its pages with Playwright, whose DevTools session turns on the Network domain
 * with Chromium's default buffers: the renderer then keeps a copy of every fetch()ed body for
 * Network.getResponseBody, up to 20 MB each and 200 MB in all (Blink's inspector_network_agent).
 * A 10 MB loop left 13 MB resident after the page had let go of it, again for every track, and
 * for every sound effect played (each play fetches its file, ~0.1–1.2 MB), growing over a session
 * (bench/renderer-memory.ts: `partition_alloc/partitions/buffer`). A worker's bodies are kept by
 * its own DevTools session, and go with it: so the bytes are fetched in a dedicated worker,
 * transferred (not copied) to the page, and the worker is terminated once nothing has been asked
 * of it for IDLE_MS, or as soon as it is idle once it has handed over HELD_BYTES in all (a loop's
 * copy goes at once; a reading player's sound effects share a worker for a few plays, so the
 * copies a worker holds stay under HELD_BYTES plus one body). The fetch is the page's own (same
 * origin), seen by the host's network guards as before.
 *
 * Bounded: a worker is started and its fetches continued by the host's Playwright (it attaches to
 * every worker, which waits for it, and routes the worker's requests), so an answer can be late
 * or never come. The page waits at most REPLY_MS for each answer; past that, the worker is
 * terminated and the page fetches the file itself (what it did before this module), and after
 * MAX_STRIKES late answers (or a worker that fails to load) the page fetches everything itself
 * for the rest of the session; a fetch that failed in the worker is tried again by the page. A
 * music track never waits for this (music.ts plays live after FILE_WAIT_MS and hands over), input
 * never does.
 */

/** How long (ms) the page waits for a worker's answer before it fetches the file itself. */
export const REPLY_MS = 4000;
/** A worker idle this long (ms) is terminated, and the bodies its session kept with it. */
export const IDLE_MS = 5000;
/** A worker that has handed over this many bytes (one music loop, or a few sound effects) is terminated as soon as nothing else is asked of it. */
export const HELD_BYTES = 2 * 1024 * 1024;
/** Late answers after which the page stops using workers. */
export const MAX_STRIKES = 2;

const WORKER_SOURCE = `
onmessage = async (e) => {
  const { id, url } = e.data;
  try {
    const res = await fetch(url);
    if (!res.ok) { postMessage({ id }); return; }
    const bytes = await res.arrayBuffer();
    postMessage({ id, bytes }, [bytes]);
  } catch (err) {
    postMessage({ id, error: String(err && err.message || err) });
  }
};
`;

interface Reply {
  id: number;
  /** The body; none with neither `error` nor `fallback`: the server answered with an error status. */
  bytes?: ArrayBuffer;
  error?: string;
  /** No answer from the worker (it failed, was late, or was let go): the page fetches itself. */
  fallback?: boolean;
}

/** What a fetcher did (tests). */
export interface FetchBytesStats {
  /** Answers from the worker (a body, an error status, or its fetch failed). */
  byWorker: number;
  /** Fetches the page made itself (no worker, or its answer was late, missing or a failed fetch). */
  byPage: number;
  /** Answers that did not come within the bound. */
  late: number;
  /** Workers started and terminated. */
  workers: number;
  terminated: number;
  /** Workers are no longer used (failed to load, or MAX_STRIKES late answers). */
  off: boolean;
}

export interface FetchBytesOptions {
  replyMs?: number;
  idleMs?: number;
  heldBytes?: number;
  maxStrikes?: number;
  /** The worker's script (tests: one that never answers). */
  workerSource?: string;
}

export interface BytesFetcher {
  /** The body of `url` (absolute), or null when the server answered with an error status; throws when the fetch itself failed. */
  fetchBytes(url: string): Promise<ArrayBuffer | null>;
  readonly stats: FetchBytesStats;
  /** Terminates the worker now (what it was asked is fetched by the page). */
  letGo(): void;
}

export function bytesFetcher(opts: FetchBytesOptions = {}): BytesFetcher {
  const replyMs = opts.replyMs ?? REPLY_MS;
  const idleMs = opts.idleMs ?? IDLE_MS;
  const heldBytes = opts.heldBytes ?? HELD_BYTES;
  const maxStrikes = opts.maxStrikes ?? MAX_STRIKES;
  const stats: FetchBytesStats = { byWorker: 0, byPage: 0, late: 0, workers: 0, terminated: 0, off: false };
  let worker: Worker | null = null;
  let workerUrl: string | null = null;
  let lastId = 0;
  let idleTimer: ReturnType<typeof setTimeout> | null = null;
  /** Bytes the current worker has handed over (its DevTools session's copies): past heldBytes it goes as soon as it is idle. */
  let held = 0;
  const pending = new Map<number, { done: (r: Reply) => void; timer: ReturnType<typeof setTimeout> }>();

  function settle(id: number, r: Reply): void {
    const p = pending.get(id);
    if (!p) return; // late: already answered by the page
    pending.delete(id);
    clearTimeout(p.timer);
    p.done(r);
  }

  function letGo(): void {
    if (idleTimer) clearTimeout(idleTimer);
    idleTimer = null;
    held = 0;
    const w = worker;
    worker = null;
    if (w) {
      w.onmessage = null;
      w.onerror = null;
      w.terminate();
      stats.terminated++;
    }
    for (const id of [...pending.keys()]) settle(id, { id, fallback: true });
  }

  /** Nothing more asked of `w`: terminated now once it has handed over heldBytes, else after idleMs. */
  function whenIdle(w: Worker): void {
    if (pending.size > 0 || worker !== w) return;
    if (held >= heldBytes) return letGo();
    if (idleTimer) clearTimeout(idleTimer);
    idleTimer = setTimeout(letGo, idleMs);
  }

  function theWorker(): Worker | null {
    if (worker) return worker;
    if (stats.off || typeof Worker === 'undefined' || typeof Blob === 'undefined') return null;
    try {
      workerUrl ??= URL.createObjectURL(new Blob([opts.workerSource ?? WORKER_SOURCE], { type: 'text/javascript' }));
      const w = new Worker(workerUrl);
      stats.workers++;
      w.onmessage = (e: MessageEvent<Reply>) => {
        held += e.data.bytes?.byteLength ?? 0;
        if (pending.has(e.data.id)) stats.byWorker++;
        settle(e.data.id, e.data);
        whenIdle(w);
      };
      w.onerror = () => {
        console.warn('[yumecast] the fetch worker failed: files are fetched by the page');
        stats.off = true;
        letGo();
      };
      worker = w;
      return w;
    } catch {
      stats.off = true;
      return null;
    }
  }

  async function fetchBytes(url: string): Promise<ArrayBuffer | null> {
    const w = theWorker();
    if (w) {
      if (idleTimer) clearTimeout(idleTimer);
      idleTimer = null;
      const id = ++lastId;
      const reply = await new Promise<Reply>((resolve) => {
        const timer = setTimeout(() => {
          // no answer within the bound: this worker is let go (its other fetches go to the page too)
          stats.late++;
          if (stats.late >= maxStrikes && !stats.off) {
            stats.off = true;
            console.warn(`[yumecast] the fetch worker answered late ${stats.late} times: files are fetched by the page`);
          }
          settle(id, { id, fallback: true });
          if (worker === w) letGo();
        }, replyMs);
        pending.set(id, { done: resolve, timer });
        try {
          w.postMessage({ id, url });
        } catch {
          settle(id, { id, fallback: true });
        }
      });
      // an answer: the body or an error status; a fetch that failed in the worker is tried by the page
      if (reply.error === undefined && !reply.fallback) return reply.bytes ?? null;
    }
    stats.byPage++;
    const res = await fetch(url);
    return res.ok ? res.arrayBuffer() : null;
  }

  return { fetchBytes, stats, letGo };
}

/** The page's fetcher (one per page: a session's runtime page). */
const shared = bytesFetcher();

/** The body of `url` (absolute) fetched by the page's worker (bounded: see above), or null on an error status. */
export function fetchBytes(url: string): Promise<ArrayBuffer | null> {
  return shared.fetchBytes(url);
}
