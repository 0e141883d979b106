/**
 * Runtimes sharing one Chromium (browsers.ts, HOST_SESSIONS_PER_BROWSER > 1) against real Debian
 * Chromium: each runtime is its own context with its own renderer processes; one runtime's
 * renderer crash leaves the others playing; contexts of one browser share no storage; a released
 * runtime's renderers are gone while its browser serves the others; the browser closes with its
 * last runtime; a cold start in a running browser is a context, not a launch; sessionFootprint
 * counts each runtime's renderers plus its share of the browser's processes.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FIXTURES_DIR, GAMES_DIR } from '../../runtime/build';
import { startPageServer, type PageServer } from './page-server';
import type { RuntimePool } from './pool';
import { listProcs, readProc, sessionFootprint } from './procs';
import type { Runtime } from './runtime';
import { buildTestRuntime, testPool, until } from './testing/harness';

jest.setTimeout(120_000);

let pages: PageServer;
let tmpDir: string;
let pool: RuntimePool;

const ourProcs = () => listProcs().filter((p) => p.state !== 'Z' && p.cmdline.includes(tmpDir));
const alive = (pids: number[]) => pids.filter((pid) => {
  const p = readProc(pid);
  return !!p && p.state !== 'Z';
});

beforeAll(async () => {
  const runtimeDir = await buildTestRuntime();
  tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'yumecast-browsers-test-'));
  pages = await startPageServer({ runtimeDir, gamesDirs: [GAMES_DIR, FIXTURES_DIR], port: 0 });
  pool = testPool({ capacity: 3, warm: 1, tmpDir, pageOrigin: pages.origin, sessionsPerBrowser: 5 });
  pool.start();
  await pool.whenWarm(1, 60_000);
});

afterAll(async () => {
  await pool?.close();
  await pages?.close();
  expect(ourProcs()).toEqual([]);
  fs.rmSync(tmpDir, { recursive: true, force: true });
});

describe('runtimes sharing a browser', () => {
  let a: Runtime;
  let b: Runtime;

  it('starts cold in a running browser with a new context, not a launch', async () => {
    a = await pool.acquire(1000);
    const t0 = Date.now();
    b = await pool.acquire(30_000); // nothing warm now: made for us
    const ms = Date.now() - t0;
    expect(b.browser).toBe(a.browser);
    expect(b.browserWaitMs).toBeLessThan(50);
    console.log(`cold start in a running browser: ${ms} ms (context + page + bridge); the first runtime's launch with the browser: ${a.launchMs} ms`);
  });

  it('puts each runtime in its own context with its own renderers; the rest of the browser is shared', async () => {
    await pool.whenWarm(1, 60_000);
    expect(pool.browsers()).toHaveLength(1);
    expect(a.browserPid).toBe(b.browserPid);
    expect(a.context).not.toBe(b.context);
    const rts = pool.runtimes();
    expect(rts).toHaveLength(3);
    const shares = rts.map((r) => r.processShare());
    for (const sh of shares) {
      expect(sh.own.length).toBeGreaterThanOrEqual(1);
      for (const p of sh.own) expect(p.cmdline).toContain('--type=renderer');
      expect(sh.sharers).toBe(3);
      expect(sh.shared.map((p) => p.pid).sort()).toEqual(shares[0].shared.map((p) => p.pid).sort());
    }
    expect(shares[0].shared.some((p) => p.pid === a.browserPid)).toBe(true);
    // no renderer in common; every process of the browser is one runtime's own or shared
    const owned = shares.flatMap((sh) => sh.own.map((p) => p.pid));
    expect(new Set(owned).size).toBe(owned.length);
    const all = a.browser!.processes().map((p) => p.pid).sort();
    expect([...owned, ...shares[0].shared.map((p) => p.pid)].sort()).toEqual(all);

    const fa = sessionFootprint(a);
    expect(fa.own.pss).toBeGreaterThan(0);
    expect(fa.shared.pss).toBeGreaterThan(0);
    expect(fa.shared.sharers).toBe(3);
    expect(Math.abs(fa.pss - (fa.own.pss + fa.shared.pss / 3))).toBeLessThan(1);
    expect(fa.procs).toBeCloseTo(shares[0].own.length + shares[0].shared.length / 3);
  });

  it('shares no storage between contexts of one browser', async () => {
    await a.livePage.evaluate(async () => {
      localStorage.setItem('who', 'other player');
      sessionStorage.setItem('who', 'other player');
      document.cookie = 'who=other; max-age=3600';
      await caches.open('yc').catch(() => null);
      const db = indexedDB.open('yc', 1);
      await new Promise((r) => {
        db.onupgradeneeded = () => db.result.createObjectStore('s');
        db.onsuccess = r;
      });
    });
    const seen = await b.livePage.evaluate(async () => ({
      local: localStorage.getItem('who'),
      session: sessionStorage.getItem('who'),
      cookie: document.cookie,
      dbs: (await indexedDB.databases()).map((d) => d.name),
    }));
    expect(seen).toEqual({ local: null, session: null, cookie: '', dbs: [] });
  });

  it("one runtime's renderer crash does not take the others", async () => {
    const crashes: string[] = [];
    a.on('crash', (r: string) => crashes.push(r));
    const bRenderers = b.processShare().own.map((p) => p.pid);
    const aRenderers = a.processShare().own.map((p) => p.pid);
    await a.livePage.goto('chrome://crash').catch(() => undefined);
    await until(() => crashes.length > 0, 'crash reported', 10_000);
    expect(crashes[0]).toBe('page crashed');
    await until(() => alive(aRenderers).length < aRenderers.length, "a's renderer gone", 10_000);
    // b keeps running: same renderers, its page answers, its game starts
    expect(alive(bRenderers)).toEqual(bRenderers);
    expect(b.browser!.state).toBe('up');
    const info = await b.livePage.evaluate(() => window.yumecast.start({ gameId: 'yumecast-fixture', assetBase: '/games/yumecast-fixture/', storyUrl: '/runtime/games/yumecast-fixture.json' }));
    expect(info.title).toBeTruthy();
  });

  it("frees a released runtime's renderers while its browser serves the others", async () => {
    const own = a.processShare().own.map((p) => p.pid);
    const browserPid = a.browserPid!;
    const report = await pool.release(a);
    expect(report.leftover).toEqual([]);
    expect(alive(own)).toEqual([]);
    expect(a.processes()).toEqual([]);
    expect(readProc(browserPid)?.state).not.toBe('Z');
    expect(await b.livePage.evaluate(() => 1 + 1)).toBe(2);
  });

  it('closes the browser, with every process, when its last runtime goes', async () => {
    await pool.whenWarm(1, 60_000);
    const browsers = pool.browsers();
    await pool.close();
    for (const br of browsers) expect(br.state).toBe('dead');
    expect(b.processes()).toEqual([]);
    expect(ourProcs()).toEqual([]);
    expect(fs.readdirSync(tmpDir).filter((n) => n.startsWith('yumecast-rt-'))).toEqual([]);
  });
});
