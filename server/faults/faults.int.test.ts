/**
 * Faults survived (docs/reliability.md), against real parts: a PostgreSQL of this file's own
 * (testing/private-postgres.ts: pausing the shared one would stall the suites running beside),
 * the api as a process with the production timings (testing/api-process.ts: heartbeats every 2 s,
 * host lost after 6 s, database timeouts of config.ts), a game host process with Chromium
 * runtimes (server/host/testing/host-process.ts) and a WebRTC player (player-probe.ts). One
 * session plays through both faults:
 *
 * (a) PostgreSQL paused for 10 s (SIGSTOP on its postmaster, then its backends), then resumed:
 *     requests during the stall answer 503 service_unavailable within a few seconds, the video
 *     keeps coming, and afterwards the session is still `playing` (no host_lost), its host
 *     healthy, and a bookmark written before is still there.
 * (b) The api killed (SIGKILL on its process group) and started again: the video keeps coming
 *     while it is down, the player's and the host's signalling reconnect by themselves, and the
 *     session is still `playing` past the new process's heartbeat grace.
 *
 * Prints the recovery figures docs/reliability.md reports ("faults: …").
 *
 * Run: npx tsx server/dev/with-services.ts -- npx jest server/faults --selectProjects integration
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { TestUsers } from '../api/testing/sessions';
import type { EmulatorUser } from '../api/testing/emulator-users';
import { FakeApi } from '../host/testing/fake-api';
import { sleep, until } from '../host/testing/harness';
import { spawnHostAgent, type HostProcess } from '../host/testing/host-process';
import { launchPlayerBrowser, signalLog, type PlayerBrowser, type ProbedPlayer } from '../host/testing/player-probe';
import { spawnApi, type ApiProcess } from './testing/api-process';
import { freePort, startPrivatePostgres, type PrivatePostgres } from './testing/private-postgres';

jest.setTimeout(240_000);

const GAME = 'hajimari-no-eki';
const SECRET = 'faults-host-secret-7c2e';
const STALL_MS = 10_000;
/** The api's defaults (config.ts): a query gives up after 5 s, a connection after 3 s; room for a loaded machine. */
const ANSWER_503_WITHIN_MS = 7_500;
/** Hosts are judged only after a full heartbeat timeout (6 s) of contact; watch past that and one more heartbeat. */
const WATCH_AFTER_MS = 9_000;
const HOST_ID = `faults-${Math.random().toString(36).slice(2, 8)}`;

let postgres: PrivatePostgres;
let db: pg.Pool;
let api: ApiProcess | null = null;
let apiPort: number;
let apiEnv: Record<string, string>;
let host: HostProcess | null = null;
let pages: FakeApi;
let players: PlayerBrowser | null = null;
let player: ProbedPlayer;
let user: EmulatorUser;
let sid: string;
let shotsDir: string;
const users = new TestUsers();
const figures: string[] = [];

interface Timed {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  ms: number;
}

/** One api call with the user's token, timed; a call that gets no answer within 15 s is status 0. */
async function call(method: string, url: string): Promise<Timed> {
  const t0 = Date.now();
  try {
    const res = await fetch(`${api!.base}${url}`, {
      method,
      headers: { authorization: `Bearer ${user.idToken}` },
      signal: AbortSignal.timeout(15_000),
    });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      /* not JSON */
    }
    return { status: res.status, body, ms: Date.now() - t0 };
  } catch (error) {
    return { status: 0, body: String(error), ms: Date.now() - t0 };
  }
}

const sessionState = async (): Promise<string | null> => {
  const r = await call('GET', `/v1/session/${sid}/status`);
  return r.status === 200 ? (r.body.session_state as string) : null;
};

const frames = async (): Promise<number> => ((await player.page.evaluate('window.player.video()')) as { frames: number }).frames;

/** The video keeps coming: the frame count grows between two looks (a new peer connection may restart it). */
async function expectFramesFlow(): Promise<void> {
  let previous = await frames();
  await until(
    async () => {
      const now = await frames();
      const grew = now > previous;
      previous = now;
      return grew;
    },
    'video frames to keep coming',
    5_000,
    250,
  );
}

/** Asks for the status every 500 ms for `ms`: always `playing`. */
async function expectPlayingFor(ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    expect(await sessionState()).toBe('playing');
    await sleep(500);
  }
}

async function expectNothingLost(): Promise<void> {
  const { rows: events } = await db.query('SELECT to_state, reason FROM session_events WHERE session_id = $1 ORDER BY id', [sid]);
  expect(events.map((e: { to_state: string }) => e.to_state)).not.toContain('failed');
  expect((await db.query('SELECT state FROM hosts WHERE id = $1', [HOST_ID])).rows[0].state).toBe('Allocated');
  const bookmarks = await call('GET', '/v1/mylist/bookmarks');
  expect(bookmarks.status).toBe(200);
  expect(bookmarks.body.bookmarks.map((b: { game_id: string }) => b.game_id)).toEqual([GAME]);
}

function report(line: string): void {
  figures.push(line);
  console.log(`faults: ${line}`);
}

beforeAll(async () => {
  apiPort = await freePort();
  shotsDir = mkdtempSync(path.join(os.tmpdir(), 'yumecast-faults-shots-'));
  pages = await new FakeApi({ secret: 'unused' }).listen();
  // In parallel: the database, the host (it registers once the api is up), the player's browser
  // and the user. Everything is assigned as it comes, so afterAll cleans up whatever started.
  const started = await Promise.allSettled([
    startPrivatePostgres().then(async (p) => {
      postgres = p;
      db = new pg.Pool({ connectionString: p.url(), max: 2 });
      apiEnv = {
        DATABASE_URL: p.url(),
        HOST_SHARED_SECRET: SECRET,
        SIGNAL_SECRET: 'faults-signal-secret-0123456789abcdef',
        SCREENSHOT_DIR: shotsDir,
      };
      api = await spawnApi(apiPort, apiEnv);
    }),
    spawnHostAgent({ hostId: HOST_ID, apiUrl: `http://127.0.0.1:${apiPort}`, secret: SECRET, env: { HOST_CAPACITY: '1', HOST_WARM_POOL: '1' } }).then(
      (h) => (host = h),
    ),
    launchPlayerBrowser(pages).then((b) => (players = b)),
    users.email().then((u) => (user = u)),
  ]);
  const failed = started.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
  await until(
    async () => (await db.query(`SELECT 1 FROM hosts WHERE id = $1 AND state = 'Ready' AND reported_warm >= 1`, [HOST_ID])).rows.length === 1,
    'the host Ready with a warm runtime',
    120_000,
    200,
  );

  const start = await call('GET', `/v1/game/${GAME}/start`);
  expect(start.status).toBe(200);
  sid = start.body.game_session_id as string;
  await until(async () => (await sessionState()) === 'ready', 'ready', 60_000, 100);
  const token = await call('GET', `/v1/session/${sid}/get_token`);
  expect(token.status).toBe(200);
  player = await players!.newPlayer();
  await player.joinWith(token.body.webrtc_signal_url, token.body.webrtc_signal_token);
  await player.waitForMessage('ready', 30_000);
  await until(async () => (await frames()) > 0, 'decoded video', 30_000, 100);
  await until(async () => (await sessionState()) === 'playing', 'playing', 15_000, 100);
});

afterAll(async () => {
  postgres?.resume();
  await players?.close().catch(() => undefined);
  await host?.cleanup().catch(() => undefined);
  await api?.kill().catch(() => undefined);
  await pages?.close().catch(() => undefined);
  await db?.end().catch(() => undefined);
  await postgres?.stop().catch(() => undefined);
  await users.cleanup();
  if (shotsDir) rmSync(shotsDir, { recursive: true, force: true });
  if (figures.length) console.log(`faults: recovery figures\n  ${figures.join('\n  ')}`);
});

it('PostgreSQL paused 10 s mid-session: 503 within seconds meanwhile, the game goes on, still playing after, nothing lost', async () => {
  expect((await call('PUT', `/v1/mylist/bookmarks/${GAME}`)).status).toBe(200);

  const pausedPids = postgres.pause();
  const t0 = Date.now();
  let resumedAt = 0;
  try {
    expect(pausedPids.length).toBeGreaterThan(3); // the postmaster, its helpers and the api's backends
    // Requests during the stall: the connections in the pool (a query that gets no answer) …
    const first = await Promise.all([call('GET', `/v1/session/${sid}/status`), call('GET', '/v1/mylist/bookmarks'), call('GET', '/health')]);
    // … and, later in the stall, new connections (the timed-out ones were closed).
    await sleep(Math.max(0, t0 + 5_500 - Date.now()));
    const second = await Promise.all([call('GET', `/v1/session/${sid}/status`), call('GET', '/v1/mylist/bookmarks')]);
    for (const r of [...first, ...second]) {
      expect(r.status).toBe(503);
      expect(r.body).toEqual({ status: 'error', error: { code: 'service_unavailable', message: expect.any(String) } });
      expect(r.ms).toBeLessThan(ANSWER_503_WITHIN_MS);
    }
    report(`PostgreSQL stalled: 503 service_unavailable after ${first.map((r) => r.ms).join('/')} ms (pooled connections), ${second.map((r) => r.ms).join('/')} ms (new connections)`);
    await expectFramesFlow(); // the game streams on without the database
    await sleep(Math.max(0, t0 + STALL_MS - Date.now()));
  } finally {
    postgres.resume();
    resumedAt = Date.now();
  }
  report(`PostgreSQL paused for ${resumedAt - t0} ms`);

  // Back: the first answer, then the session stays playing past any judgement of its host.
  const back = await until(async () => {
    const r = await call('GET', `/v1/session/${sid}/status`);
    return r.status === 200 ? r : null;
  }, 'the status answering again', 30_000, 100);
  report(`PostgreSQL resumed → status answers again after ${Date.now() - resumedAt} ms (state ${back.body.session_state})`);
  expect(back.body.session_state).toBe('playing');
  await expectPlayingFor(WATCH_AFTER_MS);
  await expectFramesFlow();
  await expectNothingLost();
});

it('the api killed and restarted mid-session: the stream goes on, signalling reconnects, still playing', async () => {
  const socketsBefore = (await signalLog(player.page)).length;
  await api!.kill();
  const t0 = Date.now();
  await expectFramesFlow(); // peer to peer: the video does not pass through the api
  api = await spawnApi(apiPort, apiEnv);
  report(`api killed → healthy again after ${Date.now() - t0} ms (process start, migrations, catalogue)`);

  expect(await sessionState()).toBe('playing');
  // the player's signalling reconnects by itself and finds the host's runtime there again
  const reconnected = await until(
    async () => {
      const log = await signalLog(player.page);
      const latest = log.slice(socketsBefore).find((s) => s.opened && s.frames.some((f) => f.includes('"peer-joined"') && f.includes('"host"')));
      return latest ?? null;
    },
    'the player and the host back on the signalling relay',
    30_000,
    100,
  );
  expect(reconnected.close).toBeNull();
  report(`api killed → player and host paired on the new api after ${Date.now() - t0} ms`);
  await expectPlayingFor(WATCH_AFTER_MS);
  await expectFramesFlow();
  await expectNothingLost();

  // and it still ends the ordinary way
  expect((await call('GET', `/v1/session/${sid}/force_close`)).status).toBe(200);
  await player.waitForMessage('bye', 15_000);
  await until(async () => (await sessionState()) === 'closed', 'closed', 15_000, 100);
});
