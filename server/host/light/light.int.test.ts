/**
 * The light runtime as a host runs it (HOST_RUNTIME_KIND=light; docs/light-runtime.md): the
 * agent's pool keeps a warm worker process (the engine in Node, no Chromium), a session starts
 * the game, the GStreamer sender and the signalling, and a real Chromium player (the product's
 * WebRtcSubscriber, through the fake api's signalling relay) plays it: video of the game, the
 * channel's `ready`, the game's text, input reaching the engine, ping → pong, a malformed message
 * refused with one notice, quality, a screenshot uploaded at full size, the progress saved at the
 * end, `bye`, and no process or file left. A worker that dies fails its session and is replaced.
 * A native title on a light host plays in a page runtime launched for it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FIXTURES_DIR, GAMES_DIR } from '../../../runtime/build';
import { launchPlayer, startTestHost, until, type TestHost, type TestPlayer } from '../testing/harness';
import { pngSize } from '../runtime';
import type { SessionInfo } from '../schemas';
import { LightHostRuntime } from './light-runtime';

jest.setTimeout(180_000);

let host: TestHost;
let p: TestPlayer;

beforeAll(async () => {
  host = await startTestHost({ HOST_RUNTIME_KIND: 'light', HOST_CAPACITY: '2', HOST_WARM_POOL: '1', HOST_SCREENSHOT_INTERVAL_MS: '0', HOST_NOTICE_MS: '60000' });
  p = await launchPlayer(host.api);
});

afterAll(async () => {
  await p?.close().catch(() => undefined);
  await host?.stop();
});

const info = async (sid: string): Promise<SessionInfo> => (await host.request('GET', `/sessions/${sid}`)).json.session as SessionInfo;

it('keeps a warm light runtime: a worker process, no Chromium', async () => {
  await host.agent.pool.whenWarm(1, 60_000);
  const rt = host.agent.pool.runtimes().find((r) => r.state === 'warm')!;
  expect(rt).toBeInstanceOf(LightHostRuntime);
  const procs = rt.processes();
  expect(procs.length).toBe(1);
  expect(procs[0].cmdline).toMatch(/(^|\/)node .*yumecast-light-worker-\d+\.cjs /);
  expect(procs.some((x) => /chrom/i.test(x.cmdline))).toBe(false);
});

it('plays a session: video, ready, text, input, pong, a refused message, quality, a screenshot; ends with nothing left', async () => {
  const sid = 's-light';
  expect((await host.startSession(sid)).status).toBe(202);
  await until(() => host.api.states(sid).includes('ready'), 'ready', 30_000);
  const rt = host.agent.sessions.get(sid)!.runtime as LightHostRuntime;
  expect(rt.kind).toBe('light');
  // the worker and its sender, both naming the session's folder
  expect(rt.processes().map((x) => x.cmdline).join('\n')).toMatch(/sender\.py/);
  await p.join(sid);
  await p.waitForMessage('ready', 20_000);
  await until(() => host.api.states(sid).includes('playing'), 'playing', 10_000);
  expect(host.api.states(sid)).toEqual(['starting', 'ready', 'playing']);
  await until(async () => {
    const v = await p.page.evaluate(() => window.player.video());
    return v.width === 1280 && v.height === 720 && v.frames > 0;
  }, 'video frames of the game', 20_000);

  // input: Enter on the title starts the story; its first line reaches the player as text
  expect((await info(sid)).engine?.screen).toBe('title');
  for (const kind of ['down', 'up'] as const) await p.page.evaluate((k) => window.player.send({ v: 1, type: 'key', kind: k, key: 'Enter' }), kind);
  await until(async () => (await info(sid)).engine?.screen === 'story', 'the story', 10_000);
  await p.waitForMessage('line', 10_000);

  // ping → pong; a malformed message is refused with one notice and changes nothing
  await p.page.evaluate(() => window.player.send({ v: 1, type: 'ping', t: 42 }));
  await p.waitForMessage('pong', 5000, (m) => m.t === 42);
  const before = (await info(sid)).engine!;
  await p.page.evaluate(() => window.player.sendRaw('{"v":1,"type":"key","kind":"down","key":"rm -rf"}'));
  await p.page.evaluate(() => window.player.sendRaw('not json'));
  await p.waitForMessage('error', 5000, (m) => m.code === 'bad_message');
  await until(async () => (await info(sid)).counters?.malformed === 2, 'two malformed', 5000);
  expect((await info(sid)).engine).toMatchObject({ screen: before.screen, lineCount: before.lineCount });
  expect((await p.messages()).filter((m) => m.type === 'error')).toHaveLength(1);

  // quality
  await p.page.evaluate(() => window.player.send({ v: 1, type: 'quality', level: 'low' }));
  await until(async () => (await info(sid)).engine?.quality === 'low', 'quality low', 5000);

  // a screenshot: the picture at full size, uploaded to the api
  await p.page.evaluate(() => window.player.send({ v: 1, type: 'screenshot', requestId: 'shot-1' }));
  const saved = await p.waitForMessage('screenshot-saved', 10_000, (m) => m.requestId === 'shot-1');
  const png = host.api.screenshots.get(String(saved.screenshotId))!;
  expect(pngSize(png)).toEqual({ width: 1280, height: 720 });

  // the end: progress saved (slot auto), bye, the runtime's processes and folder gone
  const dir = rt.dir;
  expect(fs.existsSync(dir)).toBe(true);
  expect((await host.request('DELETE', `/sessions/${sid}?reason=user`)).status).toBeLessThan(300);
  await p.waitForMessage('bye', 10_000);
  await until(() => host.agent.sessions.activeCount === 0, 'session ended', 15_000);
  expect(host.api.saves(sid).some((s) => s.slot === 'auto')).toBe(true);
  expect(rt.state).toBe('dead');
  expect(rt.processes()).toEqual([]);
  expect(fs.existsSync(dir)).toBe(false);
  p.page.evaluate(() => window.player.leave()).catch(() => undefined);
});

it('fails a session whose worker dies, and warms another', async () => {
  const sid = 's-light-crash';
  await host.agent.pool.whenWarm(1, 60_000);
  expect((await host.startSession(sid)).status).toBe(202);
  await until(() => host.api.states(sid).includes('ready'), 'ready', 30_000);
  const rt = host.agent.sessions.get(sid)!.runtime as LightHostRuntime;
  process.kill(-rt.worker!.pgid!, 'SIGKILL');
  await until(() => host.api.states(sid).includes('failed:runtime_crashed'), 'failed report', 15_000);
  await until(() => rt.state === 'dead', 'runtime dead', 10_000);
  expect(rt.processes()).toEqual([]);
  await host.agent.pool.whenWarm(1, 60_000);
});

// A native title on a light host: its stream plays in a page, so the pool launches a page runtime
// for it, cold, beside its warm light runtimes (pool.ts acquire's `kind`).
const RENPY_BASE = '/usr/share/games/renpy/the_question';
const renpy = fs.existsSync(RENPY_BASE) && fs.existsSync('/usr/bin/Xvfb') && fs.existsSync('/usr/games/renpy');
(renpy ? describe : describe.skip)('a native title on a light host', () => {
  let nhost: TestHost;
  let gamesDir = '';

  beforeAll(async () => {
    gamesDir = fs.mkdtempSync(path.join(os.tmpdir(), 'yumecast-light-native-'));
    fs.chmodSync(gamesDir, 0o711);
    fs.mkdirSync(path.join(gamesDir, 'renpy-probe'));
    fs.writeFileSync(path.join(gamesDir, 'renpy-probe', 'meta.json'), JSON.stringify({ id: 'renpy-probe', title: 'The Question', runtime: { kind: 'renpy', baseDir: RENPY_BASE, language: 'japanese' } }));
    nhost = await startTestHost({
      HOST_RUNTIME_KIND: 'light',
      HOST_GAMES_DIRS: `${GAMES_DIR},${FIXTURES_DIR},${gamesDir}`,
      HOST_CAPACITY: '2',
      HOST_WARM_POOL: '1',
      HOST_NATIVE_DISPLAY_BASE: '190',
      HOST_NATIVE_DISPLAYS: '4',
      HOST_NATIVE_RUN_DIR: path.join(gamesDir, 'run'),
    });
  });

  afterAll(async () => {
    await nhost?.stop();
    fs.rmSync(gamesDir, { recursive: true, force: true });
  });

  it('starts it in a page runtime while the warm ones stay light', async () => {
    await nhost.agent.pool.whenWarm(1, 60_000);
    expect((await nhost.startSession('s-native', { gameId: 'renpy-probe' })).status).toBe(202);
    await until(() => nhost.api.states('s-native').includes('ready'), 'ready', 60_000);
    const rt = nhost.agent.sessions.get('s-native')!.runtime!;
    expect(rt.kind).toBe('page');
    expect(nhost.agent.pool.runtimes().filter((r) => r.state === 'warm').map((r) => r.kind)).toEqual(['light']);
    expect((await nhost.request('DELETE', '/sessions/s-native?reason=user')).status).toBeLessThan(300);
    await until(() => nhost.agent.sessions.activeCount === 0, 'session ended', 20_000);
    expect(rt.state).toBe('dead');
    expect(rt.processes()).toEqual([]);
  });
});
