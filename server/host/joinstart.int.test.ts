/**
 * A player who connects while the game starts (issue 11: the api answers get_token from the
 * host's slot on, docs/sessions.md): the host's page has its signalling open before the engine
 * starts, so it offers empty senders, the connection comes up during the start, and the engine's
 * tracks go in with replaceTrack once it has drawn. Checked on a cold start (the longest), against
 * the fake api peer and a real player: the join happens before `ready`; the player then gets
 * video of the game and the data channel's `ready` (on the connection made ahead, with empty
 * senders, when the host's signalling opened: HOST_OFFER_AHEAD); the host reports starting → ready → playing in
 * that order; the join clock does not end the session of a player who is already there; input
 * reaches the game.
 */
import { launchPlayer, sleep, startTestHost, until, type TestHost, type TestPlayer } from './testing/harness';
import type { EngineState } from '../../runtime/src/types';
import { pageOf } from './testing/page-runtime';

jest.setTimeout(120_000);

let host: TestHost;
let p: TestPlayer;
const JOIN_TIMEOUT_MS = 3000;

beforeAll(async () => {
  host = await startTestHost({ HOST_CAPACITY: '1', HOST_WARM_POOL: '0', HOST_JOIN_TIMEOUT_MS: String(JOIN_TIMEOUT_MS) });
  p = await launchPlayer(host.api);
});

afterAll(async () => {
  await p?.close().catch(() => undefined);
  await host?.stop();
});

const state = (sid: string): Promise<EngineState> => pageOf(host.agent.sessions.get(sid)!.runtime).livePage.evaluate(() => window.yumecast.getState());

it('connects a player who joined while the game started: video, `ready`, playing after ready, input', async () => {
  const sid = 's-early';
  const r = await host.startSession(sid);
  expect(r.status).toBe(202);
  await p.join(sid);
  // a cold start: the player is there long before the game runs
  expect(host.api.states(sid)).not.toContain('ready');
  await p.waitForMessage('ready', 30_000);
  await until(() => host.api.states(sid).includes('playing'), 'playing', 10_000);
  expect(host.api.states(sid)).toEqual(['starting', 'ready', 'playing']);
  await until(async () => {
    const v = await p.page.evaluate(() => window.player.video());
    return v.width === 1280 && v.frames > 0;
  }, 'video frames of the game', 15_000);
  const info = (await host.request('GET', `/sessions/${sid}`)).json.session as { counters: Record<string, unknown> };
  // the offer was the connection made ahead when the host's signalling opened, before the game
  // had drawn (HOST_OFFER_AHEAD; with it off the cold start's player gets one made on the spot)
  expect(info.counters).toMatchObject({ connection: 'connected', connections: 1, offersAhead: 1 });
  // the join clock (3 s here) does not run for a player who is already connected
  await sleep(JOIN_TIMEOUT_MS + 1000);
  expect(host.agent.sessions.get(sid)?.state).toBe('playing');
  // input reaches the game
  for (const kind of ['down', 'up'] as const) await p.page.evaluate((k) => window.player.send({ v: 1, type: 'key', kind: k, key: 'Enter' }), kind);
  await until(async () => (await state(sid)).screen === 'story', 'story');
  expect((await host.request('DELETE', `/sessions/${sid}?reason=user`)).status).toBeLessThan(300);
  await until(() => host.agent.sessions.activeCount === 0, 'session ended', 15_000);
});
