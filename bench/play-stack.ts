/**
 * The stack a play bench runs on (bench/play-latency.ts, bench/play-host-cost.ts): the real api,
 * or the host's fake api peer, and the player's "click".
 *
 * With DATABASE_URL and FIREBASE_AUTH_EMULATOR_HOST set (run under server/dev/with-services.ts),
 * the real api (buildApp on PostgreSQL + the Auth emulator, a fresh schema, dropped at the end;
 * its titles: games/ plus the engine's fixture game, linked into a private folder) and a click
 * is what the play page's controller does (lib/session/playController.ts): GET /v1/session/all,
 * GET /v1/game/:id/start, poll status (lib/session/pollDelay.ts: every 100 ms in the first 4 s,
 * then 250 ms up to 8 s; `poll: 'fast'` polls every 50 ms) until a host has the session
 * (`early`, the page's flow: `allocating`/`starting` will do) or until `ready` (without `early`: the
 * flow before issue 11's eighth round), get_token, join.
 * Otherwise (or with --fake) the fake api peer of server/host/testing, and a click is the api's
 * POST /sessions to the host (answered 202: the host has it, `starting`), then with `early` the
 * join at once, else `ready` reported (seen at the page's poll times, or every 5 ms with
 * `poll: 'fast'`) and the join.
 * Every host gets the native runtime's settings for this shared machine (bench/play-native.ts:
 * displays :200–:239, a private run folder), used only when a session plays a native title.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FakeApi } from '../server/host/testing/fake-api';
import { TEST_SECRET, sleep, startAgent, startSessionBody, until, type TestAgent } from '../server/host/testing/harness';
import { launchPlayerBrowser, type PlayerBrowser, type ProbedPlayer } from '../server/host/testing/player-probe';
import { statusPollDelay } from '../lib/session/pollDelay';
import { buildRuntime } from '../runtime/build';
import { flag, onCleanup, once } from './play-common';
import { NO_LOOPS_RUNTIME } from './play-configs';
import { nativeHostEnv } from './play-native';

export interface Click {
  sid: string;
  /** What a player joins with (signal URL and token). */
  signal: { url: string; token: string };
  /** performance.now() when the start request left (the user's click). */
  t0: number;
  /** performance.now() when the player had its token (knew the session was ready, unless `early`). */
  readyAt: number;
  join(player: ProbedPlayer): Promise<void>;
  /** Ends the session (force_close / DELETE) and waits until its runtime is gone. */
  end(): Promise<void>;
}

export interface PlayStack {
  mode: 'api' | 'fake';
  /** Serves the test player page (/player.html). */
  pages: FakeApi;
  /** A host agent (in this process) reporting to the stack's api. */
  startHost(env: Record<string, string>): Promise<TestAgent>;
  /**
   * The player's click on play: start → (ready →) token; `poll` 'page' (default) = the play page's
   * poll times; `early` (the page's flow since issue 11's eighth round; default false: the other
   * benches' steps expect a running game when the click returns) = the token once a host has the session.
   */
  click(host: TestAgent, gameId: string, opts?: { poll?: 'page' | 'fast'; early?: boolean }): Promise<Click>;
  close(): Promise<void>;
}

/** The play page's status poll delay while a session starts (lib/session/pollDelay.ts). */
export const pagePollDelay = (elapsedMs: number): number => statusPollDelay('starting', elapsedMs);

/** The runtime build without music loops (the `loops` lever off), made once per bench run. */
let noLoops: Promise<unknown> | null = null;

const HOST_ENV = {
  // a bench session gets no input for minutes: never idle-close it
  HOST_IDLE_WARNING_MS: '3600000',
  HOST_JOIN_TIMEOUT_MS: '600000',
  HOST_RECONNECT_GRACE_MS: '600000',
  HOST_HEARTBEAT_MS: '1000',
};

export async function startPlayStack(): Promise<PlayStack> {
  const real = !flag('fake') && !!process.env.DATABASE_URL && !!process.env.FIREBASE_AUTH_EMULATOR_HOST;
  return real ? startApiStack() : startFakeStack();
}

/**
 * The agent, with a stop() that runs once (a bench stops it, and its cleanup may again), also
 * registered as a cleanup: a bench stopped by a signal or its time bound still stops every host
 * it started, and so ends a native title's game (its own processes, not the browser's children).
 */
function onceStop(a: TestAgent): TestAgent {
  const stop = once(() => a.stop());
  onCleanup(stop);
  return { ...a, stop };
}

async function endAndWait(host: TestAgent, sid: string, stop: () => Promise<unknown>): Promise<void> {
  await stop();
  await until(() => !host.agent.sessions.get(sid) || host.agent.sessions.get(sid)!.runtime?.state === 'dead' || host.agent.sessions.activeCount === 0, `session ${sid} ended`, 30_000, 20);
  await until(() => !host.agent.sessions.get(sid)?.runtime || host.agent.sessions.get(sid)!.runtime!.state === 'dead', `runtime of ${sid} killed`, 30_000, 20);
}

async function startFakeStack(): Promise<PlayStack> {
  const api = await new FakeApi({ secret: TEST_SECRET }).listen();
  let n = 0;
  return {
    mode: 'fake',
    pages: api,
    startHost: async (env) => {
      if (env.HOST_RUNTIME_DIR === NO_LOOPS_RUNTIME) await (noLoops ??= buildRuntime({ outDir: NO_LOOPS_RUNTIME, includeFixtures: true, loops: false, quiet: true, sourcemap: false }));
      return onceStop(await startAgent(api.url, TEST_SECRET, { ...HOST_ENV, ...nativeHostEnv(), ...env }));
    },
    async click(host, gameId, opts = {}) {
      const sid = `bench-${process.pid}-${++n}`;
      const t0 = performance.now();
      const r = await host.request('POST', '/sessions', startSessionBody(api, sid, { gameId, uid: `uid-${n}` }));
      if (r.status !== 202) throw new Error(`start answered ${r.status} ${JSON.stringify(r.json)}`);
      const settled = () => api.states(sid).some((s) => s === 'ready' || s.startsWith('failed') || s.startsWith('closed'));
      if (!opts.early) {
        if (opts.poll === 'fast') await until(settled, `${sid} ready`, 90_000, 5);
        else for (const since = performance.now(); !settled(); ) {
          if (performance.now() - since > 90_000) throw new Error(`${sid}: not ready within 90 s`);
          await sleep(pagePollDelay(performance.now() - since));
        }
        if (!api.states(sid).includes('ready')) throw new Error(`${sid}: ${api.states(sid).join(' → ')}`);
      }
      const readyAt = performance.now();
      return {
        sid,
        signal: { url: api.signalUrl, token: api.playerToken(sid) },
        t0,
        readyAt,
        join: (p) => p.join(sid),
        end: () => endAndWait(host, sid, () => host.request('DELETE', `/sessions/${sid}?reason=user`)),
      };
    },
    close: () => api.close(),
  };
}

/**
 * The engine's fixture game as a catalogue title: its files linked, and its meta.json completed
 * with the fields the api's seed requires (a listed brand, genres, a release date, key art);
 * the fixture's own meta.json stays as small as the engine needs.
 */
function linkFixtureTitle(from: string, to: string): void {
  fs.mkdirSync(to);
  for (const entry of fs.readdirSync(from)) {
    if (entry !== 'meta.json') fs.symlinkSync(path.join(from, entry), path.join(to, entry));
  }
  const meta = JSON.parse(fs.readFileSync(path.join(from, 'meta.json'), 'utf8')) as Record<string, unknown>;
  const completed = {
    ...meta,
    brand: '夕凪ソフト',
    brandReading: 'ゆうなぎそふと',
    genres: ['テスト'],
    releaseDate: '2026-01-01',
    keyArt: '/games/hajimari-no-eki/keyart.png',
  };
  fs.writeFileSync(path.join(to, 'meta.json'), JSON.stringify(completed, null, 2));
}

async function startApiStack(): Promise<PlayStack> {
  const { startSessionApp, TEST_HOST_SECRET, TestUsers, request } = await import('../server/api/testing/sessions');
  const { createTestSchema } = await import('../server/api/testing/test-app');
  const { FIXTURES_DIR, GAMES_DIR } = await import('../runtime/build');
  // the api's titles: games/ plus the engine's fixture game (links in a private folder)
  const gamesDir = fs.mkdtempSync(path.join(os.tmpdir(), 'yumecast-bench-games-'));
  for (const name of fs.readdirSync(GAMES_DIR)) {
    if (fs.existsSync(path.join(GAMES_DIR, name, 'meta.json'))) fs.symlinkSync(path.join(GAMES_DIR, name), path.join(gamesDir, name));
  }
  for (const name of fs.readdirSync(FIXTURES_DIR)) {
    if (fs.existsSync(path.join(FIXTURES_DIR, name, 'meta.json'))) linkFixtureTitle(path.join(FIXTURES_DIR, name), path.join(gamesDir, name));
  }
  const schema = await createTestSchema('bench');
  const api = await startSessionApp(schema.name, { hostHeartbeatTimeoutMs: 30_000, idleWarningMs: 3_600_000, idleCloseMs: 3_700_000, gamesDir });
  const pages = await new FakeApi({ secret: 'unused' }).listen();
  const users = new TestUsers();
  const get = (url: string, token: string) => request(api.base, 'GET', url, { token });
  return {
    mode: 'api',
    pages,
    startHost: async (env) => onceStop(await startAgent(api.base, TEST_HOST_SECRET, { ...HOST_ENV, ...nativeHostEnv(), ...env })),
    async click(host, gameId, opts = {}) {
      // the user exists before the click
      const user = await users.email();
      await until(() => host.agent.registry?.registered, 'host registered', 30_000);
      const t0 = performance.now();
      // the play page first looks for a live session of this title to resume
      if (opts.poll !== 'fast') await get('/v1/session/all', user.idToken);
      const started = await get(`/v1/game/${gameId}/start`, user.idToken);
      if (started.status !== 200) throw new Error(`start answered ${started.status} ${JSON.stringify(started.body)}`);
      const sid = started.body.game_session_id as string;
      const since = performance.now();
      let status: Record<string, unknown>;
      const enough = !opts.early ? ['ready', 'playing'] : ['allocating', 'starting', 'ready', 'playing'];
      for (;;) {
        const s = await get(`/v1/session/${sid}/status`, user.idToken);
        if ([...enough, 'failed', 'closed', 'closing'].includes(s.body.session_state)) {
          status = s.body;
          break;
        }
        if (performance.now() - since > 90_000) throw new Error(`${sid}: not ready within 90 s`);
        await sleep(opts.poll === 'fast' ? 50 : pagePollDelay(performance.now() - since));
      }
      if (!enough.includes(status.session_state as string)) throw new Error(`${sid}: ${JSON.stringify(status)}`);
      const token = await get(`/v1/session/${sid}/get_token`, user.idToken);
      if (token.status !== 200) throw new Error(`get_token answered ${token.status}`);
      const readyAt = performance.now();
      return {
        sid,
        signal: { url: token.body.webrtc_signal_url as string, token: token.body.webrtc_signal_token as string },
        t0,
        readyAt,
        join: (p) => p.joinWith(token.body.webrtc_signal_url, token.body.webrtc_signal_token),
        end: () => endAndWait(host, sid, () => get(`/v1/session/${sid}/force_close`, user.idToken)),
      };
    },
    async close() {
      await pages.close();
      await api.close();
      await users.cleanup();
      await schema.drop();
      fs.rmSync(gamesDir, { recursive: true, force: true });
    },
  };
}

/** The play stack and a player Chromium on its pages, both closed by `finish()` (play-common's cleanups). */
export async function startStackAndPlayers(): Promise<{ stack: PlayStack; players: PlayerBrowser }> {
  const stack = await startPlayStack();
  onCleanup(() => stack.close());
  const players = await launchPlayerBrowser(stack.pages);
  onCleanup(() => players.close());
  return { stack, players };
}
