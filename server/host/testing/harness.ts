/**
 * Test and bench helpers: a private build of the VN runtime (with the engine's fixture game),
 * an agent wired to a FakeApi, and a test player in its own Chromium.
 */
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../shared/chromium';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { FIXTURES_DIR, GAMES_DIR, buildRuntime } from '../../../runtime/build';
import { buildHostAgent, type HostAgent } from '../agent';
import { RuntimePool } from '../pool';
import type { PrewarmPlan } from '../prewarm';
import { loadHostConfig, type HostConfig } from '../config';
import { HOST_SECRET_HEADER, type StartSessionBody } from '../../shared/host-contract';
import { FakeApi } from './fake-api';
export { pageOf, pageRuntimes } from './page-runtime';

export const TEST_SECRET = 'test-host-secret';
export const FIXTURE_GAME = 'yumecast-fixture';
export const CHROMIUM = CHROMIUM_PATH;

/** A runtime pool on the test timings (no refill delay, quiet log), not started. */
export function testPool(o: { capacity: number; warm: number; tmpDir: string; pageOrigin: string; prewarm?: PrewarmPlan | null; sessionsPerBrowser?: number; warmNice?: number; signalUrls?: string[] }): RuntimePool {
  return new RuntimePool({
    capacity: o.capacity,
    warm: o.warm,
    refillDelayMs: 0,
    log: () => undefined,
    runtime: {
      chromiumPath: CHROMIUM,
      tmpDir: o.tmpDir,
      pageOrigin: o.pageOrigin,
      launchTimeoutMs: 30_000,
      startTimeoutMs: 10_000,
      closeTimeoutMs: 3000,
      prewarm: o.prewarm ?? null,
      sessionsPerBrowser: o.sessionsPerBrowser ?? 1,
      warmNice: o.warmNice ?? 0,
      signalUrls: o.signalUrls ?? [],
    },
  });
}

/**
 * Builds runtime/ (+ fixtures) into a private folder once per process, so tests never race
 * other suites rebuilding runtime/dist.
 */
let built: Promise<string> | null = null;
export function buildTestRuntime(): Promise<string> {
  built ??= (async () => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'yumecast-host-runtime-'));
    await buildRuntime({ outDir: out, includeFixtures: true, quiet: true, sourcemap: false });
    process.on('exit', () => fs.rmSync(out, { recursive: true, force: true }));
    return out;
  })();
  return built;
}

export interface TestAgent {
  agent: HostAgent;
  url: string;
  tmpDir: string;
  logs: string[];
  /** Calls the agent's api-facing routes with the secret. */
  request(method: string, p: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; json: Record<string, unknown> }>;
  stop(): Promise<void>;
}

/** An agent (private runtime build, private profile folder) reporting to `apiUrl`. */
export async function startAgent(apiUrl: string, secret: string, env: Record<string, string> = {}, overrides: Partial<HostConfig> = {}): Promise<TestAgent> {
  const runtimeDir = await buildTestRuntime();
  // a private folder for this host's runtime profiles: the process table can tell them apart
  const tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'yumecast-host-test-'));
  const config: HostConfig = {
    ...loadHostConfig({
      HOST_ID: `test-host-${process.pid}-${Math.random().toString(36).slice(2, 7)}`,
      HOST_AGENT_PORT: '0',
      HOST_SHARED_SECRET: secret,
      API_URL: apiUrl,
      HOST_RUNTIME_DIR: runtimeDir,
      HOST_GAMES_DIRS: `${GAMES_DIR},${FIXTURES_DIR}`,
      HOST_HEARTBEAT_MS: '200',
      LOG_LEVEL: 'silent',
      CHROMIUM_PATH: CHROMIUM,
      HOST_TMP_DIR: tmpDir,
      ...env,
    }),
    ...overrides,
  };
  const logs: string[] = [];
  const agent = buildHostAgent(config, {
    log: (level, m) => {
      logs.push(`${level} ${m}`);
      if (level === 'error' && process.env.HOST_TEST_VERBOSE) console.error(m);
      else if (process.env.HOST_TEST_VERBOSE) console.log(`[${level}] ${m}`);
    },
  });
  await agent.start();
  const url = agent.url();
  const request = async (method: string, p: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${url}${p}`, {
      method,
      headers: { [HOST_SECRET_HEADER]: secret, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    return { status: res.status, json: (text ? JSON.parse(text) : {}) as Record<string, unknown> };
  };
  return {
    agent,
    url,
    tmpDir,
    logs,
    request,
    async stop() {
      await agent.shutdown();
      fs.rmSync(tmpDir, { recursive: true, force: true });
    },
  };
}

/** The api's POST /sessions body for a session signalling through this FakeApi (the fixture game unless `extra` says otherwise). */
export function startSessionBody(api: FakeApi, sid: string, extra: Partial<StartSessionBody> = {}): StartSessionBody {
  return {
    sessionId: sid,
    gameId: FIXTURE_GAME,
    uid: 'uid-1',
    signalUrl: api.signalUrl,
    signalToken: api.hostToken(sid),
    iceServers: [],
    quality: 'high',
    provider: 'webrtc',
    resumeState: null,
    ...extra,
  };
}

export interface TestHost extends TestAgent {
  api: FakeApi;
  startSession(sid: string, extra?: Partial<StartSessionBody>): Promise<{ status: number; json: Record<string, unknown> }>;
}

/** An agent reporting to a FakeApi (which also relays its signalling). */
export async function startTestHost(env: Record<string, string> = {}, overrides: Partial<HostConfig> = {}): Promise<TestHost> {
  const api = await new FakeApi({ secret: TEST_SECRET }).listen();
  const a = await startAgent(api.url, TEST_SECRET, env, overrides);
  return {
    ...a,
    api,
    startSession: (sid, extra = {}) => a.request('POST', '/sessions', startSessionBody(api, sid, extra)),
    async stop() {
      await a.stop();
      await api.close();
    },
  };
}

export const PLAYER_ARGS = [...CHROMIUM_ARGS];

export interface TestPlayer {
  browser: Browser;
  page: Page;
  join(sid: string): Promise<void>;
  /** Joins with a real signal URL and token (from the api's get_token). */
  joinWith(signalUrl: string, token: string): Promise<void>;
  messages(): Promise<{ type: string; [k: string]: unknown }[]>;
  waitForMessage(type: string, ms?: number, pred?: (m: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

export async function launchPlayer(api: FakeApi): Promise<TestPlayer> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: PLAYER_ARGS, handleSIGTERM: false, handleSIGINT: false });
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  await context.grantPermissions(['camera', 'microphone'], { origin: api.url });
  const page = await context.newPage();
  await page.goto(`${api.url}/player.html`);
  await page.waitForFunction(() => !!window.player);
  const messages = () => page.evaluate(() => window.player.messages as unknown as { type: string; [k: string]: unknown }[]);
  return {
    browser,
    page,
    join: (sid) => page.evaluate(([u, t]) => window.player.join(u, t), [api.signalUrl, api.playerToken(sid)] as const),
    joinWith: (signalUrl, token) => page.evaluate(([u, t]) => window.player.join(u, t), [signalUrl, token] as const),
    messages,
    async waitForMessage(type, ms = 10_000, pred = () => true) {
      const end = Date.now() + ms;
      for (;;) {
        const m = (await messages()).find((x) => x.type === type && pred(x));
        if (m) return m;
        if (Date.now() > end) {
          const { states, events } = await page.evaluate(() => ({ states: window.player.states, events: window.player.events }));
          throw new Error(`player: no ${type} message within ${ms} ms; got ${JSON.stringify(await messages()).slice(0, 500)}; states ${states.join(',')}; events ${events.slice(-30).join(' | ')}`);
        }
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    close: () => browser.close(),
  };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function until<T>(fn: () => Promise<T | null | undefined | false> | T | null | undefined | false, what: string, ms = 15_000, step = 25): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await sleep(step);
  }
}
