/**
 * A host lost mid-session (docs/sessions.md §4.1, Unhealthy): the real api (buildApp on
 * PostgreSQL, a short heartbeat timeout), host A as a separate process (`tsx server/host/main.ts`,
 * capacity 1) and host B in this process, both registered; a real player plays a session on A.
 * Then A's whole process group gets SIGKILL and its browsers are killed too (a machine gone):
 * the session fails with `host_lost` within a few seconds (the status call the play page makes),
 * the player's signalling is closed (`closed host_lost`, code 1000, no reconnect), nothing stays
 * allocated on A (Unhealthy, no live session holds its slot), and the same user's next start is
 * placed on B and plays. No Chromium process of the test is left (process table).
 *
 * Run with the services: npx tsx server/dev/with-services.ts -- npx jest server/host/hostkill --selectProjects integration
 */
import fs from 'node:fs';
import { startSessionApp, TEST_HOST_SECRET, TestUsers, request, type SessionTestApp } from '../api/testing/sessions';
import { createTestSchema, type TestSchema } from '../api/testing/test-app';
import { listProcs, type ProcInfo } from './procs';
import { FakeApi } from './testing/fake-api';
import { sleep, startAgent, until, type TestAgent } from './testing/harness';
import { spawnHostAgent, type HostProcess } from './testing/host-process';
import { inboundVideo, launchPlayerBrowser, signalLog, type PlayerBrowser, type ProbedPlayer } from './testing/player-probe';

jest.setTimeout(240_000);

const GAME = 'hajimari-no-eki';
const HEARTBEAT_TIMEOUT_MS = 3000;
/** The api notices within the heartbeat timeout plus a sweep; "a few seconds" with room for a loaded machine. */
const LOST_WITHIN_MS = HEARTBEAT_TIMEOUT_MS + 5000;
const HOLDING = ['allocating', 'starting', 'ready', 'playing', 'closing'];

const tag = Math.random().toString(36).slice(2, 8);
// allocation ties break on the host id: A sorts first, so the first session goes to A
const A_ID = `hk-a-${tag}`;
const B_ID = `hk-b-${tag}`;

let schema: TestSchema;
let api: SessionTestApp;
let hostA: HostProcess | null = null;
let hostB: TestAgent | null = null;
let pages: FakeApi;
let players: PlayerBrowser | null = null;
const users = new TestUsers();
let markers: string[] = [];

const get = (url: string, token: string) => request(api.base, 'GET', url, { token });
const hostRow = async (id: string) => (await schema.pool.query('SELECT * FROM hosts WHERE id = $1', [id])).rows[0];
/** Every living process of this test's browsers: host A's and B's runtimes and the player. */
const ours = (): ProcInfo[] => listProcs().filter((p) => p.state !== 'Z' && p.state !== 'X' && markers.some((m) => p.cmdline.includes(m)));

async function video(p: ProbedPlayer): Promise<{ width: number; frames: number }> {
  return (await p.page.evaluate('window.player.video()')) as { width: number; frames: number };
}

async function play(p: ProbedPlayer, token: { webrtc_signal_url: string; webrtc_signal_token: string }): Promise<void> {
  await p.joinWith(token.webrtc_signal_url, token.webrtc_signal_token);
  await p.waitForMessage('ready', 30_000);
  await until(async () => {
    const v = await video(p);
    return v.width === 1280 && v.frames > 0;
  }, 'decoded full-size video', 30_000, 50);
  const a = await inboundVideo(p.page);
  // frames keep coming: with HOST_FRAME_MODE=change a still screen sends only its refresh frames
  await until(async () => (await inboundVideo(p.page))!.decoded > a!.decoded, 'frames keep coming', 10_000, 100);
}

async function cleanup(): Promise<void> {
  await players?.close().catch(() => undefined);
  await hostA?.cleanup().catch(() => undefined);
  await hostB?.stop().catch(() => undefined);
}

beforeAll(async () => {
  schema = await createTestSchema('hostkill');
  api = await startSessionApp(schema.name, { hostHeartbeatTimeoutMs: HEARTBEAT_TIMEOUT_MS });
  pages = await new FakeApi({ secret: 'unused' }).listen();
  const env = { HOST_CAPACITY: '1', HOST_WARM_POOL: '1', HOST_HEARTBEAT_MS: '300' };
  [hostA, hostB] = await Promise.all([
    spawnHostAgent({ hostId: A_ID, apiUrl: api.base, secret: TEST_HOST_SECRET, env }),
    startAgent(api.base, TEST_HOST_SECRET, { ...env, HOST_ID: B_ID }),
  ]);
  markers = [hostA.tmpDir, hostB.tmpDir];
  players = await launchPlayerBrowser(pages);
  markers.push(players.dir);
  // both registered, healthy and warm (the scheduler prefers a host that reported a warm runtime)
  await until(
    async () => {
      const { rows } = await schema.pool.query(`SELECT id FROM hosts WHERE id = ANY($1::text[]) AND state = 'Ready' AND reported_warm >= 1`, [[A_ID, B_ID]]);
      return rows.length === 2;
    },
    'both hosts Ready with a warm runtime',
    120_000,
    100,
  );
});

afterAll(async () => {
  await cleanup();
  await pages?.close();
  await api?.close();
  await users.cleanup();
  await schema?.drop();
});

it('host A killed mid-session: the session fails host_lost, the player is told, A holds nothing, the next start plays on B', async () => {
  const user = await users.email();
  const started = await get(`/v1/game/${GAME}/start`, user.idToken);
  expect(started.status).toBe(200);
  const sid = started.body.game_session_id as string;
  await until(async () => (await get(`/v1/session/${sid}/status`, user.idToken)).body.session_state === 'ready', 'ready', 60_000, 50);
  expect((await schema.pool.query('SELECT host_id FROM sessions WHERE id = $1', [sid])).rows[0].host_id).toBe(A_ID);

  const token = await get(`/v1/session/${sid}/get_token`, user.idToken);
  expect(token.status).toBe(200);
  const player = await players!.newPlayer();
  await play(player, token.body);
  await until(async () => (await get(`/v1/session/${sid}/status`, user.idToken)).body.session_state === 'playing', 'playing');
  const before = hostA!.procs();
  expect(before.some((p) => p.cmdline.includes('--type=renderer') && p.cmdline.includes(hostA!.tmpDir))).toBe(true);

  // the machine goes: the agent's process group, then its browsers (their own groups)
  const t0 = Date.now();
  await hostA!.killGroup();
  expect(hostA!.child.signalCode).toBe('SIGKILL');
  expect(await hostA!.killBrowsers()).toEqual([]);
  expect(hostA!.procs()).toEqual([]);

  // the player's status call says failed, host_lost, within a few seconds
  const failed = await until(
    async () => {
      const s = await get(`/v1/session/${sid}/status`, user.idToken);
      return s.body.session_state === 'failed' ? s.body : null;
    },
    'failed',
    LOST_WITHIN_MS + 10_000,
    100,
  );
  const lostMs = Date.now() - t0;
  expect(failed).toEqual({ status: 'ok', session_state: 'failed', failure_reason: 'host_lost' });
  expect(lostMs).toBeLessThan(LOST_WITHIN_MS);
  if (process.env.HOST_TEST_VERBOSE) console.log(`host killed → status failed host_lost: ${lostMs} ms (heartbeat timeout ${HEARTBEAT_TIMEOUT_MS} ms)`);

  // its signalling was closed by the api: `closed host_lost`, then code 1000, and no reconnect
  const log = await until(
    async () => {
      const l = await signalLog(player.page);
      return l.length && l[l.length - 1].close ? l : null;
    },
    'the player signalling closed',
    10_000,
    50,
  );
  const last = log[log.length - 1];
  const frames = last.frames.filter((f) => !f.endsWith('…(cut)')).map((f) => JSON.parse(f) as { type: string });
  expect(frames.at(-1)).toEqual({ type: 'closed', reason: 'host_lost' });
  expect(frames.map((f) => f.type)).toContain('peer-left'); // the host's runtime went first
  expect(last.close).toMatchObject({ code: 1000 });
  expect(await player.states()).toContain('closed');
  await sleep(1500);
  expect((await signalLog(player.page)).length).toBe(log.length);

  // nothing stays allocated for A
  expect((await hostRow(A_ID)).state).toBe('Unhealthy');
  const holding = await schema.pool.query('SELECT id, state FROM sessions WHERE host_id = $1 AND state = ANY($2::text[])', [A_ID, HOLDING]);
  expect(holding.rows).toEqual([]);
  const events = await schema.pool.query('SELECT to_state, reason FROM session_events WHERE session_id = $1 ORDER BY id', [sid]);
  expect(events.rows.at(-1)).toEqual({ to_state: 'failed', reason: 'host_lost' });
  expect((await get('/v1/session/all', user.idToken)).body.game_sessions).toEqual([]);
  await player.close();

  // the same user starts again: placed on B, and plays
  const again = await get(`/v1/game/${GAME}/start`, user.idToken);
  expect(again.status).toBe(200);
  const sid2 = again.body.game_session_id as string;
  expect(sid2).not.toBe(sid);
  await until(async () => (await get(`/v1/session/${sid2}/status`, user.idToken)).body.session_state === 'ready', 'ready on B', 60_000, 50);
  expect((await schema.pool.query('SELECT host_id FROM sessions WHERE id = $1', [sid2])).rows[0].host_id).toBe(B_ID);
  expect(hostB!.agent.sessions.get(sid2)).toMatchObject({ state: 'ready' });
  const token2 = await get(`/v1/session/${sid2}/get_token`, user.idToken);
  const player2 = await players!.newPlayer();
  await play(player2, token2.body);
  await until(async () => (await get(`/v1/session/${sid2}/status`, user.idToken)).body.session_state === 'playing', 'playing on B');

  // end it the ordinary way
  const rt = hostB!.agent.sessions.get(sid2)!.runtime!;
  expect((await get(`/v1/session/${sid2}/force_close`, user.idToken)).status).toBe(200);
  await player2.waitForMessage('bye', 15_000);
  await until(() => rt.state === 'dead', 'B runtime killed', 15_000);
  await until(async () => (await get(`/v1/session/${sid2}/status`, user.idToken)).body.session_state === 'closed', 'closed');
  expect((await hostRow(A_ID)).state).toBe('Unhealthy');
});

it('leaves no Chromium process of the test behind', async () => {
  expect(ours().length).toBeGreaterThan(0); // host B's warm runtime and the player are still up
  await cleanup();
  expect(ours()).toEqual([]);
  expect(fs.existsSync(hostA!.tmpDir)).toBe(false);
  expect(fs.existsSync(players!.dir)).toBe(false);
});
