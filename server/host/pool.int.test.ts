/**
 * The runtime pool against real Debian Chromium: warm runtimes, kill with every process (checked
 * in the process table), recycle, capacity, and the isolation of a runtime's context (network
 * limited to the host's static origin and the session's signalling WebSocket; no shared storage),
 * with a browser per runtime and with runtimes sharing a browser (browsers.int.test.ts has the rest
 * of the shared model).
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { FIXTURES_DIR, GAMES_DIR } from '../../runtime/build';
import { BRIDGE_PATH, HIDDEN_SCREEN_STYLE, RUNTIME_HOST_PAGE, hostPageHtml } from './page-paths';
import { startPageServer, type PageServer } from './page-server';
import { NoCapacityError, RuntimePool } from './pool';
import { buildPrewarmPlan } from './prewarm';
import { basePriority, canRestorePriority, niceOf } from './priority';
import { listProcs, readProc, runtimeProcs } from './procs';
import { sweepStaleRuntimes, type Runtime } from './runtime';
import { spawn, spawnSync } from 'node:child_process';
import { buildTestRuntime, testPool, until } from './testing/harness';
import { WebSocketServer } from 'ws';

jest.setTimeout(120_000);

let pages: PageServer;
let tmpDir: string;
let runtimeDir: string;
/** Another loopback service the runtime must NOT reach (stands for the api, a database, ...). */
let other: http.Server;
let otherUrl: string;
let otherWs: WebSocketServer;
let otherHits = 0;

const pools: RuntimePool[] = [];

function newPool(capacity: number, warm: number, prewarm = false, sessionsPerBrowser = 1, files = false, warmNice = 0, signalUrls: string[] = []): RuntimePool {
  const pool = testPool({
    capacity,
    warm,
    tmpDir,
    pageOrigin: pages.origin,
    prewarm: prewarm ? buildPrewarmPlan(runtimeDir, [GAMES_DIR, FIXTURES_DIR], { files }) : null,
    sessionsPerBrowser,
    warmNice,
    signalUrls,
  });
  pools.push(pool);
  pool.start();
  return pool;
}

/** Every living process whose command line names a folder under our tmpDir. */
function ourProcs() {
  return listProcs().filter((p) => p.state !== 'Z' && p.cmdline.includes(tmpDir));
}

/** Opens each URL from the runtime's page in turn: 'open', 'error', 'closed <code>' or 'timeout'. */
function openWebSockets(rt: Runtime, urls: string[]): Promise<string[]> {
  return rt.livePage.evaluate(async (list) => {
    const open = (u: string) =>
      new Promise<string>((resolve) => {
        const ws = new WebSocket(u);
        ws.onopen = () => {
          ws.close();
          resolve('open');
        };
        ws.onerror = () => resolve('error');
        ws.onclose = (e) => resolve(`closed ${e.code}`);
        setTimeout(() => resolve('timeout'), 5000);
      });
    const out: string[] = [];
    for (const u of list) out.push(await open(u));
    return out;
  }, urls);
}

beforeAll(async () => {
  runtimeDir = await buildTestRuntime();
  tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'yumecast-pool-test-'));
  pages = await startPageServer({ runtimeDir, gamesDirs: [GAMES_DIR, FIXTURES_DIR], port: 0 });
  other = http.createServer((_req, res) => {
    otherHits++;
    res.writeHead(200, { 'content-type': 'application/json', 'access-control-allow-origin': '*' }).end('{"reachable":true}');
  });
  otherWs = new WebSocketServer({ server: other });
  otherWs.on('connection', () => otherHits++);
  await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
  otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const p of pools) await p.close();
  await pages?.close();
  otherWs?.close();
  await new Promise((r) => other?.close(r));
  expect(ourProcs()).toEqual([]);
  fs.rmSync(tmpDir, { recursive: true, force: true });
});

describe('runtime pool', () => {
  let pool: RuntimePool;
  let first: Runtime;

  beforeAll(async () => {
    pool = newPool(2, 1);
    await pool.whenWarm(1, 60_000);
  });

  it('keeps one runtime warm: a browser with the runtime page and the bridge loaded', async () => {
    const st = pool.stats();
    expect(st).toMatchObject({ capacity: 2, warmTarget: 1, warm: 1, busy: 0 });
    first = pool.runtimes()[0];
    expect(first.state).toBe('warm');
    expect(first.browserPid).toBeGreaterThan(1);
    // the process table: the browser leads its group, its children share it, all name the profile
    const procs = first.processes();
    expect(procs.length).toBeGreaterThanOrEqual(3);
    expect(procs.some((p) => p.pid === first.browserPid)).toBe(true);
    expect(readProc(first.browserPid!)?.pgid).toBe(first.browserPid);
    for (const p of procs) expect(p.cmdline).toContain(first.userDataDir);
    expect(first.userDataDir.startsWith(tmpDir)).toBe(true);
    const ready = await first.livePage.evaluate(() => ({
      yumecast: typeof window.yumecast?.start,
      bridge: window.__yumecastHost?.version,
      href: location.href,
      screen: getComputedStyle(document.getElementById('screen')!).display,
    }));
    // one page load: the runtime's host page has the bridge's script in it (page-server.ts), and
    // its canvas is out of the layout (nobody looks at it; HOST_PAINT_SCREEN unset); its sound
    // goes only to the stream (HOST_AUDIO_DEVICE unset)
    expect(ready).toEqual({ yumecast: 'function', bridge: 1, href: `${pages.origin}${RUNTIME_HOST_PAGE}?sink=none`, screen: 'none' });
  });

  it("the runtime's host page has the bridge's script after the engine's, before the last </body> or at the end", () => {
    const page = hostPageHtml('<body><script type="module" src="./engine.js"></script></body>\n');
    expect(page.indexOf(BRIDGE_PATH)).toBeGreaterThan(page.indexOf('engine.js'));
    expect(page.indexOf(BRIDGE_PATH)).toBeLessThan(page.lastIndexOf('</body>'));
    expect(hostPageHtml('<script type="module" src="./engine.js"></script>')).toContain(`<script defer src="${BRIDGE_PATH}"></script>`);
  });

  it("the host page hides the canvas after the page's own styles, unless it is to be painted (HOST_PAINT_SCREEN)", () => {
    const index = '<head><style>#screen{display:block}</style></head><body><canvas id="screen"></canvas></body>';
    const page = hostPageHtml(index);
    expect(page.indexOf(HIDDEN_SCREEN_STYLE)).toBeGreaterThan(page.indexOf('display:block'));
    expect(page.indexOf(HIDDEN_SCREEN_STYLE)).toBeLessThan(page.indexOf('</head>'));
    expect(hostPageHtml(index, { paintScreen: true })).not.toContain(HIDDEN_SCREEN_STYLE);
    // no head: before the bridge's script
    const bare = hostPageHtml('<canvas id="screen"></canvas>');
    expect(bare.indexOf(HIDDEN_SCREEN_STYLE)).toBeGreaterThan(-1);
    expect(bare.indexOf(HIDDEN_SCREEN_STYLE)).toBeLessThan(bare.indexOf(BRIDGE_PATH));
  });

  it('kills a runtime with all its processes, then refills the pool with a new warm one (recycle)', async () => {
    const rt = await pool.acquire(1000);
    expect(rt).toBe(first);
    expect(pool.stats()).toMatchObject({ busy: 1, warm: 0 });
    const pids = rt.processes().map((p) => p.pid);
    expect(pids.length).toBeGreaterThan(0);
    const dir = rt.userDataDir;

    const report = await pool.release(rt);
    expect(report.leftover).toEqual([]);
    expect(rt.state).toBe('dead');
    // nothing of it is alive: neither its pids, nor its process group, nor anything naming its profile
    const alive = pids.map((pid) => readProc(pid)).filter((p) => p && p.state !== 'Z');
    expect(alive).toEqual([]);
    expect(runtimeProcs(dir, rt.pgid)).toEqual([]);
    expect(listProcs().filter((p) => p.state !== 'Z' && p.cmdline.includes(dir))).toEqual([]);
    expect(fs.existsSync(dir)).toBe(false);

    // recycle: a fresh runtime (new browser, new profile) is warm again
    await pool.whenWarm(1, 60_000);
    const next = pool.runtimes()[0];
    expect(next).not.toBe(rt);
    expect(next.userDataDir).not.toBe(dir);
    expect(next.browserPid).not.toBe(rt.browserPid);
    expect(pool.stats()).toMatchObject({ warm: 1, busy: 0, kills: 1 });
  });

  it('refuses more runtimes than its capacity', async () => {
    const a = await pool.acquire(60_000);
    const b = await pool.acquire(60_000); // a cold start: capacity 2
    await expect(pool.acquire(1000)).rejects.toBeInstanceOf(NoCapacityError);
    expect(pool.stats()).toMatchObject({ busy: 2, warm: 0, launching: 0 });
    await Promise.all([pool.release(a), pool.release(b)]);
    expect(a.processes()).toEqual([]);
    expect(b.processes()).toEqual([]);
    await pool.whenWarm(1, 60_000);
  });
});

// 1: a browser per runtime (a persistent context in a fresh profile); 5: a context in a shared browser
describe.each([1, 5])('isolation of a runtime context (%i runtimes per browser)', (perBrowser) => {
  let pool: RuntimePool;
  let rt: Runtime;

  beforeAll(async () => {
    pool = newPool(1, 1, false, perBrowser);
    await pool.whenWarm(1, 60_000);
    rt = await pool.acquire(1000);
  });

  afterAll(async () => {
    await pool.close();
  });

  it('reaches its own static origin', async () => {
    const r = await rt.livePage.evaluate(async () => (await fetch('/runtime/index.html')).status);
    expect(r).toBe(200);
  });

  it('cannot fetch another loopback port (or anything else)', async () => {
    const before = otherHits;
    const results = await rt.livePage.evaluate(async (urls) => {
      const out: string[] = [];
      for (const u of urls) {
        try {
          const res = await fetch(u, { mode: 'no-cors' });
          out.push(`ok ${res.type}`);
        } catch (e) {
          out.push(`failed ${(e as Error).name}`);
        }
      }
      return out;
    }, [`${otherUrl}/secret`, 'http://127.0.0.1:8080/v1/me', 'http://example.com/', 'http://169.254.169.254/latest/meta-data/']);
    expect(results).toEqual(['failed TypeError', 'failed TypeError', 'failed TypeError', 'failed TypeError']);
    // an image, a beacon and a worker's fetch cannot get out either
    await rt.livePage.evaluate(async (u) => {
      navigator.sendBeacon(`${u}/beacon`, 'x');
      await new Promise<void>((resolve) => {
        const img = new Image();
        img.onload = img.onerror = () => resolve();
        img.src = `${u}/img.png`;
      });
      const w = new Worker(URL.createObjectURL(new Blob([`fetch(${JSON.stringify(u)} + '/worker').then(() => postMessage('ok'), () => postMessage('failed'))`], { type: 'text/javascript' })));
      await new Promise<void>((resolve) => {
        w.onmessage = () => resolve();
        setTimeout(resolve, 3000);
      });
    }, otherUrl);
    await new Promise((r) => setTimeout(r, 300));
    expect(otherHits).toBe(before);
    expect(rt.blocked.requests).toBeGreaterThanOrEqual(4);
  });

  it('opens only the signalling WebSocket it was given', async () => {
    const before = otherHits;
    const signalUrl = `${otherUrl.replace('http', 'ws')}/v1/signal`;
    // this runtime was acquired without a session: attach one whose signal URL is allowed
    rt.attach('iso-session', { onHostCall: async () => null, onEngineEvent: () => undefined, onCrash: () => undefined }, signalUrl);
    const states = await openWebSockets(rt, [`${signalUrl}?token=x`, `${otherUrl.replace('http', 'ws')}/elsewhere`]);
    expect(states[0]).toBe('open');
    expect(states[1]).not.toBe('open');
    expect(otherHits).toBe(before + 1);
    expect(rt.blocked.websockets).toBe(1);
    // not one of the runtime's signalling endpoints: relayed through the agent
    expect(rt.relayedWs).toBe(1);
  });

  it('shares no storage with the next runtime', async () => {
    await rt.livePage.evaluate(async () => {
      localStorage.setItem('who', 'previous player');
      document.cookie = 'who=previous; max-age=3600';
      const db = indexedDB.open('yc', 1);
      await new Promise((r) => {
        db.onupgradeneeded = () => db.result.createObjectStore('s');
        db.onsuccess = r;
      });
    });
    const dir = rt.userDataDir;
    await pool.release(rt);
    expect(fs.existsSync(dir)).toBe(false);
    await pool.whenWarm(1, 60_000);
    const next = await pool.acquire(1000);
    const seen = await next.livePage.evaluate(async () => ({
      local: localStorage.getItem('who'),
      cookie: document.cookie,
      dbs: (await indexedDB.databases()).map((d) => d.name),
    }));
    expect(seen).toEqual({ local: null, cookie: '', dbs: [] });
    rt = next;
  });
});

// 5: the runtime is an incognito-like context, whose HTTP cache (in memory) is its own
describe.each([
  [1, false],
  [5, false],
  [5, true],
])('prewarm (%i runtimes per browser, every title\'s files: %s)', (perBrowser, files) => {
  it('loads the fonts (and with HOST_PREWARM_FILES the game files) while warming, so a title it did not prepare starts fast', async () => {
    const pool = newPool(1, 1, true, perBrowser, files);
    await pool.whenWarm(1, 60_000);
    const rt = await pool.acquire(1000);
    expect(rt.prewarmed).toMatchObject({ fontsOk: true, failed: 0 });
    if (files) expect(rt.prewarmed!.loaded).toBeGreaterThan(5);
    else expect(rt.prewarmed!.loaded).toBe(0);
    expect(rt.prewarmed!.prepared.map((p) => p.gameId)).not.toContain('yumecast-fixture');
    const t0 = Date.now();
    const info = await rt.livePage.evaluate(() => window.yumecast.start({ gameId: 'yumecast-fixture', assetBase: '/games/yumecast-fixture/', storyUrl: '/runtime/games/yumecast-fixture.json' }));
    const ms = Date.now() - t0;
    expect(info.title).toBeTruthy();
    expect(ms).toBeLessThan(1000);
    const state = await rt.livePage.evaluate(() => window.yumecast.getState());
    expect(state).toMatchObject({ ready: true, screen: 'title', fontsReady: true });
    await pool.close();
    await until(() => rt.processes().length === 0, 'runtime gone', 5000);
  });
});

// HOST_SIGNAL_URLS: the signalling endpoint opened natively, everything else still blocked
describe('a configured signalling endpoint', () => {
  it('opens natively (not relayed through the agent); another path or port is still blocked', async () => {
    const signalUrl = `${otherUrl.replace('http', 'ws')}/v1/signal`;
    const pool = newPool(1, 1, false, 5, false, 0, [signalUrl]);
    await pool.whenWarm(1, 60_000);
    const rt = await pool.acquire(1000);
    rt.attach('native-session', { onHostCall: async () => null, onEngineEvent: () => undefined, onCrash: () => undefined }, signalUrl);
    const before = otherHits;
    const states = await openWebSockets(rt, [`${signalUrl}?token=x`, `${signalUrl}x`, `${otherUrl.replace('http', 'ws')}/elsewhere`]);
    expect(states[0]).toBe('open');
    expect(states.slice(1)).not.toContain('open');
    expect(otherHits).toBe(before + 1);
    expect(rt.relayedWs).toBe(0);
    expect(rt.blocked.websockets).toBe(2);
    await pool.close();
  });
});

// HOST_WARM_NICE (server/host/priority.ts): warming yields the CPU to the sessions being played
describe('priorities', () => {
  const noHandler = { onHostCall: async () => null, onEngineEvent: () => undefined, onCrash: () => undefined };
  const nices = (ps: { pid: number }[]) => [...new Set(ps.map((p) => niceOf(p.pid)).filter((n) => n !== null))].sort();

  it('a runtime warming for the pool runs at the warm nice; taken by a session, at the agent\'s; its replacement beside it warms low', async () => {
    const base = basePriority();
    const pool = newPool(2, 1, false, 5, false, 10);
    await pool.whenWarm(1, 60_000);
    const rt = await pool.acquire(1000);
    const alone = rt.processShare();
    expect(alone.own.length).toBeGreaterThan(0);
    expect(alone.shared.length).toBeGreaterThan(0);
    if (!canRestorePriority()) {
      // without CAP_SYS_NICE nothing is lowered (it could not be raised back)
      expect(nices([...alone.own, ...alone.shared])).toEqual([base]);
      return;
    }
    // warm and alone in its browser: every process of the browser warms low
    expect(nices([...alone.own, ...alone.shared])).toEqual([10]);
    rt.attach('prio-session', noHandler, 'ws://127.0.0.1:1/signal');
    const live = rt.processShare();
    expect(nices([...live.own, ...live.shared])).toEqual([base]);
    // the replacement (no refill delay in tests) warms in the same browser: its renderers low, the shared ones stay up
    await pool.whenWarm(1, 60_000);
    const next = pool.runtimes().find((r) => r !== rt && r.state === 'warm')!;
    expect(next.browserPid).toBe(rt.browserPid);
    const beside = next.processShare();
    expect(nices(beside.own)).toEqual([10]);
    expect(nices(beside.shared)).toEqual([base]);
    expect(nices(rt.processShare().own)).toEqual([base]);
    await pool.release(rt);
    await pool.close();
  });

  it('a cold start (a session waiting) is never lowered', async () => {
    const base = basePriority();
    const pool = newPool(1, 0, false, 5, false, 10);
    const rt = await pool.acquire(60_000);
    const { own, shared } = rt.processShare();
    expect(nices([...own, ...shared])).toEqual([base]);
    await pool.close();
  });
});

describe('sweeping what a dead agent left', () => {
  it('kills the processes of profiles whose owner died and removes them; leaves live owners alone', async () => {
    const dead = spawnSync('true').pid!;
    const stale = fs.mkdtempSync(path.join(tmpDir, 'yumecast-rt-'));
    fs.writeFileSync(path.join(stale, 'yumecast-owner.json'), JSON.stringify({ pid: dead }));
    // an orphan that names the stale profile (as a Chromium of a SIGKILLed agent would)
    const orphan = spawn('sh', ['-c', 'sleep 60; true', stale], { detached: true, stdio: 'ignore' });
    const live = fs.mkdtempSync(path.join(tmpDir, 'yumecast-rt-'));
    fs.writeFileSync(path.join(live, 'yumecast-owner.json'), JSON.stringify({ pid: process.ppid }));
    await until(() => listProcs().some((p) => p.pid === orphan.pid && p.cmdline.includes(stale)), 'orphan running', 5000);

    const removed = await sweepStaleRuntimes(tmpDir);
    expect(removed).toContain(stale);
    expect(removed).not.toContain(live);
    expect(fs.existsSync(stale)).toBe(false);
    expect(fs.existsSync(live)).toBe(true);
    await until(() => {
      const p = readProc(orphan.pid!);
      return !p || p.state === 'Z';
    }, 'orphan killed', 5000);
    fs.rmSync(live, { recursive: true, force: true });
  });
});
