/**
 * No secret in any log (issue 10): a full play through the real api (buildApp, PostgreSQL, the
 * Auth emulator) and a real host agent, both logging at debug with their production logger
 * options (server/shared/logging.ts, server/host/logging.ts) into captured streams, the
 * process's console captured too. The play: start, ready, get_token, the player joins over the
 * api's signalling relay (the token in the WebSocket URL), input, a screenshot, force_close;
 * plus a refused bearer, the internal route with its token, and /metrics scrapes. Then every
 * captured line is searched for the signalling tokens (the player's and the host's), the Firebase
 * ID token, the host secret, the internal token and the signal secret: none may appear, nor
 * anything shaped like a JWT.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { format } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { FIXTURES_DIR, GAMES_DIR } from '../../runtime/build';
import { buildApp } from '../api/app';
import { request, TEST_HOST_SECRET, TEST_SIGNAL_SECRET, testSessionConfig, TestUsers } from '../api/testing/sessions';
import { createTestSchema, testConfig, type TestSchema } from '../api/testing/test-app';
import { requestLogOptions } from '../shared/logging';
import { buildHostAgent, type HostAgent } from './agent';
import { loadHostConfig } from './config';
import { hostLogging } from './logging';
import { FakeApi } from './testing/fake-api';
import { buildTestRuntime, CHROMIUM, launchPlayer, until, type TestPlayer } from './testing/harness';

jest.setTimeout(240_000);

const GAME = 'hajimari-no-eki';
const INTERNAL_TOKEN = 'internal-token-for-the-log-test-0123456789abcdef';
const JWT_SHAPE = /eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\./;

const lines: string[] = [];
const capture = (source: string) =>
  new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) if (line) lines.push(`${source} ${line}`);
      done();
    },
  });

let schema: TestSchema;
let api: FastifyInstance;
let apiBase = '';
let agent: HostAgent | null = null;
let tmpDir = '';
let screenshotDir = '';
let pages: FakeApi;
let player: TestPlayer | null = null;
const users = new TestUsers();
const consoleSpies: jest.SpyInstance[] = [];

beforeAll(async () => {
  for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
    consoleSpies.push(jest.spyOn(console, method).mockImplementation((...args: unknown[]) => void lines.push(`console ${format(...args)}`)));
  }
  schema = await createTestSchema('logsecrets');
  screenshotDir = fs.mkdtempSync(path.join(os.tmpdir(), 'yc-logsecrets-shots-'));
  process.env.INTERNAL_API_TOKEN = INTERNAL_TOKEN;
  try {
    api = await buildApp({
      config: testConfig(schema.name, { logLevel: 'debug', sessions: testSessionConfig({ screenshotDir, hostHeartbeatTimeoutMs: 10_000 }) }),
      logger: { ...(requestLogOptions('debug') as object), stream: capture('api') },
    });
  } finally {
    delete process.env.INTERNAL_API_TOKEN;
  }
  apiBase = await api.listen({ host: '127.0.0.1', port: 0 });

  tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'yumecast-logsecrets-'));
  const config = loadHostConfig({
    HOST_ID: `logs-host-${process.pid}`,
    HOST_AGENT_PORT: '0',
    HOST_SHARED_SECRET: TEST_HOST_SECRET,
    API_URL: apiBase,
    HOST_RUNTIME_DIR: await buildTestRuntime(),
    HOST_GAMES_DIRS: `${GAMES_DIR},${FIXTURES_DIR}`,
    HOST_HEARTBEAT_MS: '500',
    HOST_CAPACITY: '2',
    HOST_WARM_POOL: '1',
    LOG_LEVEL: 'debug',
    CHROMIUM_PATH: CHROMIUM,
    HOST_TMP_DIR: tmpDir,
  });
  const logging = hostLogging(config, capture('host'));
  agent = buildHostAgent(config, { log: logging.log, logger: logging.fastify });
  logging.bind(agent.app.log);
  await agent.start();
  pages = await new FakeApi({ secret: 'unused' }).listen();
  await agent.pool.whenWarm(1, 120_000);
  await until(() => agent!.registry?.registered, 'registered with the api', 15_000);
});

afterAll(async () => {
  // LOG_TEST_DUMP=<file>: keep the captured lines to look at
  if (process.env.LOG_TEST_DUMP) fs.writeFileSync(process.env.LOG_TEST_DUMP, `${lines.join('\n')}\n`);
  await player?.close().catch(() => undefined);
  await agent?.shutdown();
  await pages?.close();
  await api?.close();
  await users.cleanup();
  await schema?.drop();
  fs.rmSync(tmpDir, { recursive: true, force: true });
  fs.rmSync(screenshotDir, { recursive: true, force: true });
  for (const spy of consoleSpies) spy.mockRestore();
});

it('writes no token or secret to any log during and after a full play', async () => {
  const user = await users.email();
  const get = (url: string, token = user.idToken) => request(apiBase, 'GET', url, { token });

  const started = await get(`/v1/game/${GAME}/start`);
  expect(started.status).toBe(200);
  const sid = started.body.game_session_id as string;
  await until(async () => (await get(`/v1/session/${sid}/status`)).body.session_state === 'ready', 'ready', 30_000, 50);
  const hostToken = agent!.sessions.get(sid)!.req.signalToken;
  const token = await get(`/v1/session/${sid}/get_token`);
  expect(token.status).toBe(200);
  const playerToken = token.body.webrtc_signal_token as string;

  player = await launchPlayer(pages);
  await player.joinWith(token.body.webrtc_signal_url, playerToken);
  await player.waitForMessage('ready', 20_000);
  await until(async () => (await get(`/v1/session/${sid}/status`)).body.session_state === 'playing', 'playing');
  await player.page.evaluate(() => {
    window.player.send({ v: 1, type: 'key', kind: 'down', key: 'Enter' });
    window.player.send({ v: 1, type: 'key', kind: 'up', key: 'Enter' });
  });
  await player.page.evaluate(() => window.player.send({ v: 1, type: 'screenshot', requestId: 'log-1' }));
  await player.waitForMessage('screenshot-saved', 20_000);

  // refusals and the other credentials: a tampered bearer, the signal URL over plain HTTP, the internal route, scrapes
  const tampered = `${user.idToken.slice(0, -4)}AAAA`;
  expect((await get('/v1/session/all', tampered)).status).toBe(401);
  await request(apiBase, 'GET', `/v1/signal?token=${encodeURIComponent(playerToken)}`);
  await request(apiBase, 'PUT', `/internal/v1/users/${user.uid}/payment-expiration-time`, { body: {}, headers: { 'x-internal-token': INTERNAL_TOKEN } });
  expect((await fetch(`${apiBase}/metrics`)).status).toBe(200);
  expect((await fetch(`${agent!.url()}/metrics`)).status).toBe(200);

  expect((await get(`/v1/session/${sid}/force_close`)).status).toBe(200);
  expect(await player.waitForMessage('bye', 15_000)).toMatchObject({ type: 'bye' });
  await until(async () => (await get(`/v1/session/${sid}/status`)).body.session_state === 'closed', 'closed');
  await until(() => agent!.sessions.activeCount === 0, 'the host ended it', 15_000);
  await player.close();
  player = null;
  await agent!.shutdown();

  // the logs were written (both servers, the request with the token in its URL among them)
  expect(lines.filter((l) => l.startsWith('api ')).length).toBeGreaterThan(20);
  expect(lines.filter((l) => l.startsWith('host ')).length).toBeGreaterThan(5);
  expect(lines.some((l) => l.startsWith('api ') && l.includes('/v1/signal?token=***'))).toBe(true);
  expect(lines.some((l) => l.startsWith('host ') && l.includes('"service":"host"') && l.includes(`"sessionId":"${sid}"`))).toBe(true);

  const secrets: Record<string, string> = {
    'player signal token': playerToken,
    'host signal token': hostToken,
    'Firebase ID token': user.idToken,
    'Firebase ID token (header and payload)': user.idToken.split('.').slice(0, 2).join('.'),
    'tampered bearer': tampered,
    'host secret': TEST_HOST_SECRET,
    'internal token': INTERNAL_TOKEN,
    'signal secret': TEST_SIGNAL_SECRET,
  };
  for (const [name, value] of Object.entries(secrets)) {
    expect({ name, lines: lines.filter((l) => l.includes(value)).map((l) => l.slice(0, 300)) }).toEqual({ name, lines: [] });
  }
  expect(lines.filter((l) => JWT_SHAPE.test(l)).map((l) => l.slice(0, 300))).toEqual([]);
});
