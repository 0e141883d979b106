/**
 * The agent as a process (server/host/main.ts): SIGTERM with a session running reports Shutdown
 * to the api, says `bye host_shutdown` to the player, kills every browser and exits 0, leaving
 * no Chromium process behind (checked in the process table).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FIXTURES_DIR, GAMES_DIR } from '../../runtime/build';
import { HOST_SECRET_HEADER } from '../shared/host-contract';
import { listProcs } from './procs';
import { FakeApi } from './testing/fake-api';
import { CHROMIUM, TEST_SECRET, buildTestRuntime, launchPlayer, until, type TestPlayer } from './testing/harness';

jest.setTimeout(120_000);

const ROOT = path.resolve(__dirname, '../..');

let api: FakeApi;
let child: ChildProcess | null = null;
let tmpDir: string;
let player: TestPlayer | null = null;
let output = '';

const ours = () => listProcs().filter((p) => p.state !== 'Z' && p.cmdline.includes(tmpDir));

beforeAll(async () => {
  const runtimeDir = await buildTestRuntime();
  api = await new FakeApi({ secret: TEST_SECRET }).listen();
  tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'yumecast-host-sigterm-'));
  child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'server/host/main.ts')], {
    cwd: ROOT,
    env: {
      ...process.env,
      HOST_ID: 'sigterm-host',
      HOST_AGENT_HOST: '127.0.0.1',
      HOST_AGENT_PORT: '0',
      HOST_SHARED_SECRET: TEST_SECRET,
      API_URL: api.url,
      HOST_RUNTIME_DIR: runtimeDir,
      HOST_GAMES_DIRS: `${GAMES_DIR},${FIXTURES_DIR}`,
      HOST_TMP_DIR: tmpDir,
      HOST_CAPACITY: '2',
      HOST_WARM_POOL: '1',
      HOST_HEARTBEAT_MS: '300',
      CHROMIUM_PATH: CHROMIUM,
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
});

afterAll(async () => {
  await player?.close().catch(() => undefined);
  if (child && child.exitCode === null) child.kill('SIGKILL');
  for (const p of ours()) process.kill(p.pid, 'SIGKILL');
  await api?.close();
  fs.rmSync(tmpDir, { recursive: true, force: true });
});

it('SIGTERM (twice, as a process group gets it): reports Shutdown, bye host_shutdown to the player, kills every browser, exits 0, leaves nothing', async () => {
  const url = await until(() => /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1], `the agent to listen; output:\n${output}`, 60_000);
  const req = (method: string, p: string, body?: unknown) =>
    fetch(`${url}${p}`, {
      method,
      headers: { [HOST_SECRET_HEADER]: TEST_SECRET, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
  await until(async () => ((await (await fetch(`${url}/health`)).json()) as { warm: number }).warm === 1, 'a warm runtime', 60_000, 100);
  await until(() => api.callsTo(/register$/).length > 0, 'registration');

  const sid = 'sigterm-session';
  const r = await req('POST', '/sessions', {
    sessionId: sid,
    gameId: 'yumecast-fixture',
    uid: 'u1',
    signalUrl: api.signalUrl,
    signalToken: api.hostToken(sid),
    iceServers: [],
    quality: 'high',
  });
  expect(r.status).toBe(202);
  await until(() => api.states(sid).includes('ready'), 'ready', 30_000);
  player = await launchPlayer(api);
  await player.join(sid);
  await player.waitForMessage('ready', 20_000);
  // a busy runtime and (after the refill) a warm one: one shared browser (two with HOST_SESSIONS_PER_BROWSER=1)
  await until(async () => ((await (await fetch(`${url}/health`)).json()) as { warm: number }).warm === 1, 'refilled', 60_000, 100);
  const before = ours();
  const pgids = new Set(before.map((p) => p.pgid));
  expect(before.length).toBeGreaterThan(4);
  expect(before.some((p) => p.cmdline.includes('--type=renderer'))).toBe(true);

  const exited = new Promise<number | null>((resolve) => child!.on('exit', (code) => resolve(code)));
  child!.kill('SIGTERM');
  // a process manager's group signal plus tsx's relay: the same request twice, a moment apart
  setTimeout(() => child?.kill('SIGTERM'), 50);
  expect(await player.waitForMessage('bye', 15_000)).toEqual({ v: 1, type: 'bye', reason: 'host_shutdown' });
  expect(await exited).toBe(0);
  expect(api.callsTo(/^POST \/internal\/hosts\/sigterm-host\/shutdown$/).length).toBe(1);
  expect(output).toContain('SIGTERM: shutting down');

  // nothing left: no process naming the runtimes' folder, none in their process groups
  const left = listProcs().filter((p) => p.state !== 'Z' && (p.cmdline.includes(tmpDir) || pgids.has(p.pgid)));
  expect(left).toEqual([]);
  expect(fs.readdirSync(tmpDir)).toEqual([]);
});
