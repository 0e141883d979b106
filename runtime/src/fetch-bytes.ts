/**
 * Big files fetched by a short-lived worker (issue 11: memory per session): the music loops and
 * the sound effects' WAVs.
 *
 * The host drives its pages with Playwright, whose DevTools session turns on the Network domain
 * with Chromium's default buffers: the renderer then keeps a copy of every fetch()ed body for
 * Network.getResponseBody, up to 20 MB each and 200 MB in all (Blink's inspector_network_agent).
 * A 10 MB loop left 13 MB resident after the page had let go of it, again for every track, and
 * for every sound effect played (each play fetches its file, ~0.1–1.2 MB), growing over a session
 * (bench/renderer-memory.ts: `partition_alloc/partitions/buffer`). A worker's bodies are kept by
 * its own DevTools session, and go with it: so the bytes are fetched in a dedicated worker,
 * transferred (not copied) to the page, and the worker is terminated once nothing has been asked
 * of it for IDLE_MS. The fetch is the page's own (same origin, same HTTP cache), seen by the
 * host's network guards as before. Where no worker can be made, a plain fetch.
 */

/** A worker idle this long (ms) is terminated, and the bodies its session kept with it. */
const IDLE_MS = 1500;

const WORKER_SOURCE = `
onmessage = async (e) => {
  const { id, url } = e.data;
  try {
    const res = await fetch(url);
    if (!res.ok) { postMessage({ id, status: res.status }); return; }
    const bytes = await res.arrayBuffer();
    postMessage({ id, status: res.status, bytes }, [bytes]);
  } catch (err) {
    postMessage({ id, error: String(err && err.message || err) });
  }
};
`;

interface Reply {
  id: number;
  status?: number;
  bytes?: ArrayBuffer;
  error?: string;
  /** The worker could not run (it failed to load): the page fetches itself. */
  fallback?: boolean;
}

let worker: Worker | null = null;
/** A worker failed to load here: plain fetches from then on. */
let noWorkers = false;
let workerUrl: string | null = null;
let lastId = 0;
let idleTimer: ReturnType<typeof setTimeout> | null = null;
const pending = new Map<number, (r: Reply) => void>();

/** Terminates the worker (its DevTools copies go with it); what was still asked of it is fetched by the page. */
function letGo(): void {
  if (idleTimer) clearTimeout(idleTimer);
  idleTimer = null;
  const w = worker;
  worker = null;
  w?.terminate();
  for (const [id, done] of pending) done({ id, fallback: true });
  pending.clear();
}

function theWorker(): Worker | null {
  if (worker) return worker;
  if (noWorkers || typeof Worker === 'undefined' || typeof Blob === 'undefined') return null;
  try {
    workerUrl ??= URL.createObjectURL(new Blob([WORKER_SOURCE], { type: 'text/javascript' }));
    const w = new Worker(workerUrl);
    w.onmessage = (e: MessageEvent<Reply>) => {
      const done = pending.get(e.data.id);
      pending.delete(e.data.id);
      done?.(e.data);
      if (pending.size === 0 && worker === w) {
        if (idleTimer) clearTimeout(idleTimer);
        idleTimer = setTimeout(letGo, IDLE_MS);
      }
    };
    w.onerror = () => {
      console.warn('[yumecast] the fetch worker failed: files are fetched by the page');
      noWorkers = true;
      letGo();
    };
    worker = w;
    return w;
  } catch {
    return null;
  }
}

/**
 * The body of `url` (absolute), or null when the server answered with an error status; throws
 * when the fetch itself failed.
 */
export async function fetchBytes(url: string): Promise<ArrayBuffer | null> {
  const w = theWorker();
  if (w) {
    if (idleTimer) clearTimeout(idleTimer);
    idleTimer = null;
    const id = ++lastId;
    const reply = await new Promise<Reply>((resolve) => {
      pending.set(id, resolve);
      w.postMessage({ id, url });
    });
    if (reply.error !== undefined) throw new Error(reply.error);
    if (!reply.fallback) return reply.bytes ?? null;
  }
  const res = await fetch(url);
  return res.ok ? res.arrayBuffer() : null;
}
