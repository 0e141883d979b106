/**
 * The runtime's worker fetches (runtime/src/fetch-bytes.ts, issue 11: the bodies the host's
 * DevTools session keeps go with the worker) in Debian Chromium with the host's flags, driven by
 * Playwright behind the host's network guards (runtime-guards.ts: every request routed, as the
 * host's are, a worker's too): bodies come from the worker and its error statuses as null; a worker
 * is terminated as soon as it has handed over a big body (or small ones adding up to as much), small
 * ones share one worker until it idles; and the
 * bound: a worker that never answers, or whose fetch the host never lets through, costs at most
 * the reply bound before the page fetches the file itself, and after the strikes the page fetches
 * everything itself; a fetch that failed in the worker is tried again by the page; a page without
 * workers fetches itself.
 */
import http from 'node:http';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { chromium, type Browser, type BrowserContext, type Page, type Worker } from 'playwright-core';
import { CHROMIUM_FLAGS } from '../../server/host/browser-flags';
import { guardNetwork } from '../../server/host/runtime-guards';
import { CHROMIUM_PATH } from '../../server/shared/chromium';
import type { FetchBytesOptions, FetchBytesStats } from '../../runtime/src/fetch-bytes';

jest.setTimeout(120_000);

const BIG = 3 * 1024 * 1024;
const SMALL = 100 * 1024;
/** Byte i of a body is i % 251: a body cut, shifted or copied wrong does not compare equal. */
const body = (n: number) => Buffer.from(Array.from({ length: n }, (_, i) => i % 251));

let server: http.Server;
let origin = '';
let browser: Browser;
let script = '';
/** Requests for /hang* so far: the first is never answered (the worker's, held by the host). */
let hangSeen = 0;

beforeAll(async () => {
  const out = await esbuild.build({
    entryPoints: [path.join(__dirname, '../../runtime/src/fetch-bytes.ts')],
    bundle: true,
    write: false,
    format: 'iife',
    globalName: 'fetchBytesModule',
    target: ['chrome110'],
  });
  script = out.outputFiles[0].text;
  server = http.createServer((req, res) => {
    const u = req.url ?? '/';
    if (u === '/') {
      res.setHeader('content-type', 'text/html');
      res.end(`<!doctype html><script src="/fb.js"></script>`);
    } else if (u === '/fb.js') {
      res.setHeader('content-type', 'text/javascript');
      res.end(script);
    } else if (u.startsWith('/big')) {
      res.setHeader('content-type', 'audio/wav');
      res.end(body(BIG));
    } else if (u.startsWith('/small') || u.startsWith('/hang') || u.startsWith('/flaky')) {
      res.setHeader('content-type', 'audio/wav');
      res.end(body(SMALL));
    } else {
      res.statusCode = 404;
      res.end();
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: [...CHROMIUM_FLAGS] });
});

afterAll(async () => {
  await browser?.close();
  await new Promise((r) => server?.close(r));
});

interface Opened {
  ctx: BrowserContext;
  page: Page;
  /** Workers Playwright attached to, and those that ended. */
  workers: Worker[];
  closed: number;
}

/** A page behind the host's guards with the module loaded; `before` runs before it loads (routes, init scripts). */
async function open(before?: (ctx: BrowserContext) => Promise<void>): Promise<Opened> {
  const ctx = await browser.newContext();
  await guardNetwork(ctx, { origin, signalUrls: [], allowedWs: new Set(), blocked: { requests: 0, websockets: 0, lastUrl: '' }, onRelay: () => undefined });
  await before?.(ctx);
  const page = await ctx.newPage();
  const o: Opened = { ctx, page, workers: [], closed: 0 };
  page.on('worker', (w) => {
    o.workers.push(w);
    w.on('close', () => o.closed++);
  });
  await page.goto(`${origin}/`);
  return o;
}

/** In the page: a fetcher with `opts` (window.f), then each url fetched in turn: its length and whether every byte is right, or null, or the error; ms each. */
function fetchAll(page: Page, urls: string[], opts: FetchBytesOptions = {}): Promise<{ results: (string | number | null)[]; ms: number[]; stats: FetchBytesStats }> {
  return page.evaluate(
    async ({ urls, opts }) => {
      type M = typeof import('../../runtime/src/fetch-bytes');
      const w = window as unknown as { fetchBytesModule: M; f?: ReturnType<M['bytesFetcher']> };
      w.f ??= w.fetchBytesModule.bytesFetcher(opts);
      const results: (string | number | null)[] = [];
      const ms: number[] = [];
      for (const u of urls) {
        const t0 = performance.now();
        try {
          const b = await w.f.fetchBytes(new URL(u, location.href).href);
          if (!b) results.push(null);
          else {
            const v = new Uint8Array(b);
            results.push(v.every((x, i) => x === i % 251) ? v.length : `wrong bytes (${v.length})`);
          }
        } catch (e) {
          results.push(`error ${String(e)}`);
        }
        ms.push(Math.round(performance.now() - t0));
      }
      return { results, ms, stats: { ...w.f.stats } };
    },
    { urls, opts },
  );
}

const until = async (fn: () => boolean, what: string, ms = 5000) => {
  const end = Date.now() + ms;
  while (!fn()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
};

describe('fetchBytes: files fetched by a worker', () => {
  it('answers with the bodies from one worker; an error status is null; the worker goes once idle', async () => {
    const o = await open();
    try {
      const r = await fetchAll(o.page, ['/small/1', '/small/2', '/missing'], { idleMs: 400 });
      expect(r.results).toEqual([SMALL, SMALL, null]);
      expect(r.stats).toMatchObject({ byWorker: 3, byPage: 0, late: 0, workers: 1, off: false });
      expect(o.workers).toHaveLength(1);
      // idle for idleMs: terminated
      await until(() => o.closed === 1, 'the idle worker terminated');
      const again = await fetchAll(o.page, ['/small/3']);
      expect(again.results).toEqual([SMALL]);
      expect(again.stats).toMatchObject({ byWorker: 4, workers: 2, terminated: 1 });
    } finally {
      await o.ctx.close();
    }
  });

  it('terminates the worker as soon as it has handed over a big body (a music loop)', async () => {
    const o = await open();
    try {
      const r = await fetchAll(o.page, ['/big/1'], { idleMs: 60_000 });
      expect(r.results).toEqual([BIG]);
      expect(r.stats).toMatchObject({ byWorker: 1, workers: 1, terminated: 1 });
      await until(() => o.closed === 1, 'the worker terminated');
    } finally {
      await o.ctx.close();
    }
  });

  it('small bodies adding up to the limit: the worker goes, the next one starts afresh', async () => {
    const o = await open();
    try {
      // 100 kB each, 250 kB a worker: the third body passes the limit
      const r = await fetchAll(o.page, ['/small/1', '/small/2', '/small/3', '/small/4'], { idleMs: 60_000, heldBytes: 250 * 1024 });
      expect(r.results).toEqual([SMALL, SMALL, SMALL, SMALL]);
      expect(r.stats).toMatchObject({ byWorker: 4, workers: 2, terminated: 1 });
      await until(() => o.closed === 1, 'the first worker terminated');
    } finally {
      await o.ctx.close();
    }
  });
});

describe('fetchBytes: bounded', () => {
  it('a worker that never answers: the page fetches itself after the bound; after the strikes, the page fetches everything itself', async () => {
    const o = await open();
    try {
      const replyMs = 600;
      const r = await fetchAll(o.page, ['/small/1', '/small/2', '/small/3'], { replyMs, maxStrikes: 2, workerSource: 'onmessage = () => {};' });
      expect(r.results).toEqual([SMALL, SMALL, SMALL]);
      // the first two waited for the bound (and no more than a fetch beyond it), the third went straight to the page
      for (const ms of r.ms.slice(0, 2)) {
        expect(ms).toBeGreaterThanOrEqual(replyMs - 20);
        expect(ms).toBeLessThan(replyMs + 1500);
      }
      expect(r.ms[2]).toBeLessThan(replyMs);
      expect(r.stats).toMatchObject({ byWorker: 0, byPage: 3, late: 2, workers: 2, terminated: 2, off: true });
      await until(() => o.closed === o.workers.length, 'every worker terminated');
    } finally {
      await o.ctx.close();
    }
  });

  it("a fetch the host never lets through (the worker's request held in Playwright's route): the page's own fetch answers after the bound", async () => {
    const o = await open(async (ctx) => {
      await ctx.route(/\/hang/, async (route) => {
        // the first request (the worker's) is held for good; the page's own goes on
        if (++hangSeen === 1) return;
        await route.fallback();
      });
    });
    try {
      const replyMs = 800;
      const r = await fetchAll(o.page, ['/hang/1', '/small/after'], { replyMs, maxStrikes: 2 });
      expect(r.results).toEqual([SMALL, SMALL]);
      expect(r.ms[0]).toBeGreaterThanOrEqual(replyMs - 20);
      expect(r.ms[0]).toBeLessThan(replyMs + 1500);
      // one strike: the next file comes from a new worker
      expect(r.stats).toMatchObject({ byWorker: 1, byPage: 1, late: 1, workers: 2, off: false });
      expect(hangSeen).toBe(2);
    } finally {
      await o.ctx.close();
    }
  });

  it("a fetch that fails in the worker (the host's guard refused it) is tried again by the page", async () => {
    let seen = 0;
    const o = await open(async (ctx) => {
      await ctx.route(/\/flaky/, async (route) => {
        // the first request (the worker's) refused, as a guard does; the page's own goes on
        if (++seen === 1) return route.abort('blockedbyclient');
        await route.fallback();
      });
    });
    try {
      const r = await fetchAll(o.page, ['/flaky/1', '/small/after']);
      expect(r.results).toEqual([SMALL, SMALL]);
      // the worker answered both (the first with its failure), the page fetched the first again
      expect(r.stats).toMatchObject({ byWorker: 2, byPage: 1, late: 0, workers: 1, off: false });
      expect(seen).toBe(2);
    } finally {
      await o.ctx.close();
    }
  });

  it('a page where no worker can be made fetches itself', async () => {
    const o = await open(async (ctx) => {
      await ctx.addInitScript(() => {
        (window as unknown as { Worker: unknown }).Worker = function NoWorker() {
          throw new Error('no workers here');
        };
      });
    });
    try {
      const r = await fetchAll(o.page, ['/small/1', '/missing']);
      expect(r.results).toEqual([SMALL, null]);
      expect(r.stats).toMatchObject({ byWorker: 0, byPage: 2, workers: 0, off: true });
    } finally {
      await o.ctx.close();
    }
  });
});
