/**
 * The host agent with the real api (server/api buildApp, PostgreSQL, the Auth emulator): the
 * agent registers, the api's scheduler starts a session on it, the api's signalling relay pairs
 * the runtime with a real player (a token from get_token), input reaches the game, a screenshot
 * taken on the host is listed by the api for its owner, force_close ends the session and kills
 * the runtime, the final autosave resumes the next session, and shutdown is reported.
 *
 * Run with the services: npx tsx server/dev/with-services.ts -- npx jest server/host --selectProjects integration
 */
import { startSessionApp, TEST_HOST_SECRET, TestUsers, request, type SessionTestApp } from '../api/testing/sessions';
import { createTestSchema, type TestSchema } from '../api/testing/test-app';
import { listProcs } from './procs';
import { pngSize } from './runtime';
import { FakeApi } from './testing/fake-api';
import { launchPlayer, startAgent, until, type TestAgent, type TestPlayer } from './testing/harness';
import type { EngineState } from '../../runtime/src/types';
import { pageOf, pageRuntimes } from './testing/page-runtime';

jest.setTimeout(180_000);

const GAME = 'hajimari-no-eki';

let schema: TestSchema;
let api: SessionTestApp;
let host: TestAgent;
let pages: FakeApi; // only serves the test player's page
let player: TestPlayer | null = null;
const users = new TestUsers();

const get = (url: string, token: string) => request(api.base, 'GET', url, { token });
const engineState = (sid: string): Promise<EngineState> => pageOf(host.agent.sessions.get(sid)!.runtime).livePage.evaluate(() => window.yumecast.getState());

beforeAll(async () => {
  schema = await createTestSchema('hostapi');
  api = await startSessionApp(schema.name, { hostHeartbeatTimeoutMs: 10_000 });
  host = await startAgent(api.base, TEST_HOST_SECRET, { HOST_CAPACITY: '2', HOST_WARM_POOL: '1', HOST_HEARTBEAT_MS: '500' });
  pages = await new FakeApi({ secret: 'unused' }).listen();
  await host.agent.pool.whenWarm(1, 90_000);
  await until(() => host.agent.registry?.registered, 'registered with the api', 15_000);
});

afterAll(async () => {
  await player?.close().catch(() => undefined);
  await host?.stop();
  await pages?.close();
  await api?.close();
  await users.cleanup();
  await schema?.drop();
  expect(listProcs().filter((p) => p.state !== 'Z' && host && p.cmdline.includes(host.tmpDir))).toEqual([]);
});

it('registers: the api lists the host as Ready with its capacity', async () => {
  const { rows } = await schema.pool.query('SELECT * FROM hosts WHERE id = $1', [host.agent.config.hostId]);
  expect(rows).toHaveLength(1);
  expect(rows[0]).toMatchObject({ capacity: 2 });
  expect(JSON.stringify(rows[0])).toContain(host.url);
});

it('plays a session end to end through the api and the signalling relay', async () => {
  const user = await users.email();
  const t0 = Date.now();
  const started = await get(`/v1/game/${GAME}/start`, user.idToken);
  expect(started.status).toBe(200);
  const sid = started.body.game_session_id as string;
  await until(async () => (await get(`/v1/session/${sid}/status`, user.idToken)).body.session_state === 'ready', 'ready', 30_000, 50);
  const readyMs = Date.now() - t0;
  expect(host.agent.sessions.get(sid)).toMatchObject({ gameId: GAME, uid: user.uid, state: 'ready' });
  expect(readyMs).toBeLessThan(10_000);

  const token = await get(`/v1/session/${sid}/get_token`, user.idToken);
  expect(token.status).toBe(200);
  player = await launchPlayer(pages);
  await player.joinWith(token.body.webrtc_signal_url, token.body.webrtc_signal_token);
  await player.waitForMessage('ready', 20_000);
  await until(async () => (await get(`/v1/session/${sid}/status`, user.idToken)).body.session_state === 'playing', 'playing');
  await until(async () => (await player!.page.evaluate(() => window.player.video())).width === 1280, 'video', 20_000);

  // input reaches the game: Enter on the title starts the story
  await player.page.evaluate(() => {
    window.player.send({ v: 1, type: 'key', kind: 'down', key: 'Enter' });
    window.player.send({ v: 1, type: 'key', kind: 'up', key: 'Enter' });
  });
  await until(async () => {
    const s = await engineState(sid);
    return s.screen === 'story' && s.text.length > 0;
  }, 'story text', 15_000);

  // a screenshot taken on the host, at full resolution, listed by the api for its owner
  await player.page.evaluate(() => window.player.send({ v: 1, type: 'screenshot', requestId: 'r1' }));
  const saved = await player.waitForMessage('screenshot-saved', 15_000);
  const list = await get('/v1/screenshots', user.idToken);
  expect(list.status).toBe(200);
  const shot = (list.body.screenshots as { id: string; width: number; height: number; session_id: string }[]).find((x) => x.id === saved.screenshotId);
  expect(shot).toMatchObject({ width: 1280, height: 720, session_id: sid });
  const image = await request(api.base, 'GET', `/v1/screenshots/${shot!.id}/image`, { token: user.idToken });
  expect(image.status).toBe(200);
  expect(pngSize(image.raw)).toEqual({ width: 1280, height: 720 });
  const other = await users.email();
  expect((await request(api.base, 'GET', `/v1/screenshots/${shot!.id}/image`, { token: other.idToken })).status).toBe(404);

  // force_close: the api asks the host to stop; bye, final save, the runtime and its processes gone
  const rt = pageOf(host.agent.sessions.get(sid)!.runtime);
  expect((await get(`/v1/session/${sid}/force_close`, user.idToken)).status).toBe(200);
  expect(await player.waitForMessage('bye', 15_000)).toMatchObject({ type: 'bye' });
  await until(() => rt.state === 'dead', 'runtime killed', 15_000);
  // its own processes (the context's renderers) are gone; the shared browser may serve the warm one
  expect(rt.processes()).toEqual([]);
  await until(async () => (await get(`/v1/session/${sid}/status`, user.idToken)).body.session_state === 'closed', 'closed');
  await player.close();
  player = null;

  // the final autosave is stored, and the next session resumes from it in the story
  const saves = await until(async () => {
    const r = await schema.pool.query('SELECT slot, state FROM saves WHERE uid = $1 AND game_id = $2', [user.uid, GAME]);
    return r.rows.some((x: { slot: string }) => x.slot === 'auto') ? r.rows : null;
  }, 'autosave row');
  expect(saves.find((x: { slot: string }) => x.slot === 'auto').state).toMatchObject({ format: 'yumecast-vn-save', gameId: GAME });
  await host.agent.pool.whenWarm(1, 90_000);
  const again = await get(`/v1/game/${GAME}/start`, user.idToken);
  expect(again.status).toBe(200);
  const sid2 = again.body.game_session_id as string;
  await until(async () => (await get(`/v1/session/${sid2}/status`, user.idToken)).body.session_state === 'ready', 'ready again', 30_000, 50);
  const resumed = await engineState(sid2);
  expect(resumed.screen).toBe('story');
  expect(resumed.text.length).toBeGreaterThan(0);
  expect((await get(`/v1/session/${sid2}/force_close`, user.idToken)).status).toBe(200);
  await until(() => host.agent.sessions.activeCount === 0, 'second session ended', 15_000);
});

it('reports Shutdown: the api marks the host and takes no new sessions there', async () => {
  await host.agent.shutdown();
  const { rows } = await schema.pool.query('SELECT * FROM hosts WHERE id = $1', [host.agent.config.hostId]);
  expect(JSON.stringify(rows[0])).toContain('Shutdown');
  expect(pageRuntimes(host.agent.pool)).toEqual([]);
  expect(listProcs().filter((p) => p.state !== 'Z' && p.cmdline.includes(host.tmpDir))).toEqual([]);
});
