import { PlayController, type PlaySnapshot } from './playController';
import { statusPollDelay } from './pollDelay';
import { SessionError } from '@/lib/api/sessions';
import * as sessions from '@/lib/api/sessions';
import * as streaming from '@/lib/streaming';
import type { SubscriberEvents } from '@/lib/streaming/types';
import { DEFAULT_PLAYER_CONFIG, savePlayerConfig } from '@/lib/storage/playerConfig';

jest.mock('@/lib/api/sessions', () => {
  const actual = jest.requireActual('@/lib/api/sessions');
  return { ...actual, getSessionAll: jest.fn(), startGame: jest.fn(), getSessionStatus: jest.fn(), getSessionToken: jest.fn(), forceClose: jest.fn() };
});
jest.mock('@/lib/streaming', () => ({ createSubscriber: jest.fn() }));
jest.mock('@/lib/analytics', () => ({ track: jest.fn() }));
jest.mock('@/lib/api/client', () => ({ apiRequest: jest.fn(() => Promise.resolve({ status: 'ok' })), apiBeacon: jest.fn(() => true) }));

const api = sessions as jest.Mocked<typeof sessions>;
const { track } = jest.requireMock('@/lib/analytics') as { track: jest.Mock };
const client = jest.requireMock('@/lib/api/client') as { apiBeacon: jest.Mock };

class FakeTrack {
  kind = 'video';
}
class FakeStream {
  getVideoTracks() {
    return [new FakeTrack()];
  }
}

/** The controller a test made last: its page "presents" each stream's first frame at once. */
let lastController: PlayController | null = null;
function newController(...args: ConstructorParameters<typeof PlayController>): PlayController {
  lastController = new PlayController(...args);
  return lastController;
}

/** A subscriber whose join runs `onJoin`; a video stream it gives is presented by the page at once. */
function subscriberThat(onJoin: (events: SubscriberEvents) => void) {
  const presenting = (events: SubscriberEvents): SubscriberEvents => ({
    ...events,
    onStream: (stream) => {
      events.onStream(stream);
      lastController?.framePresented();
    },
  });
  return { join: jest.fn(async (_t: unknown, events: SubscriberEvents) => onJoin(presenting(events))), send: jest.fn(() => true), stats: jest.fn(async () => ({})), leave: jest.fn() };
}

const token = { provider: 'webrtc' } as never;

beforeAll(() => {
  (global as unknown as { RTCPeerConnection: unknown }).RTCPeerConnection = class {};
});
beforeEach(() => {
  jest.clearAllMocks();
  localStorage.clear();
  api.getSessionAll.mockResolvedValue([]);
  api.startGame.mockResolvedValue('s-1');
  api.getSessionToken.mockResolvedValue(token);
});

async function waitUntil(ok: () => boolean) {
  for (let i = 0; i < 100 && !ok(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(ok()).toBe(true);
}

/** Under fake timers: the status answers `state`, the subscriber never gives video; the run started. */
function runWithoutVideo(state: 'starting' | 'ready') {
  jest.useFakeTimers();
  api.getSessionStatus.mockResolvedValue({ state, queuePosition: null, failureReason: null });
  (streaming.createSubscriber as jest.Mock).mockResolvedValue(subscriberThat(() => undefined));
  const c = newController('g', { onChange: () => undefined });
  return { c, p: c.run() };
}

async function run(c: PlayController) {
  await c.run();
  c.dispose();
}

/** A subscriber whose join puts the video on screen, and the events it was given (to play the host's part). */
function playingSubscriber() {
  const box: { events: SubscriberEvents | null } = { events: null };
  const sub = subscriberThat((ev) => {
    box.events = ev;
    ev.onStream(new FakeStream() as never);
  });
  return { sub, box };
}

/** A controller that ran up to `playing` (the session answered `state`), with its subscriber. */
async function playingController(state: 'ready' | 'playing' = 'ready', onChange: (s: PlaySnapshot) => void = () => undefined) {
  api.getSessionStatus.mockResolvedValue({ state, queuePosition: null, failureReason: null });
  const { sub, box } = playingSubscriber();
  (streaming.createSubscriber as jest.Mock).mockResolvedValue(sub);
  const c = newController('g', { onChange });
  await c.run();
  return { c, sub, box };
}

it('walks start → queue → starting → connecting → playing, fetching the token while the game starts', async () => {
  const steps: string[] = [];
  const calls: string[] = [];
  const statuses = ['queued', 'starting', 'starting', 'ready'] as const;
  let polls = 0;
  api.getSessionStatus.mockImplementation(async () => {
    const state = statuses[Math.min(polls++, statuses.length - 1)];
    calls.push(`status ${state}`);
    return { state, queuePosition: state === 'queued' ? 2 : null, failureReason: null };
  });
  api.getSessionToken.mockImplementation(async () => {
    calls.push('token');
    return token;
  });
  // the first frame comes once the game runs (after the status said `ready`)
  const joined = subscriberThat((ev) => void waitUntil(() => calls.includes('status ready')).then(() => ev.onStream(new FakeStream() as never)));
  (streaming.createSubscriber as jest.Mock).mockResolvedValue(joined);
  const c = newController('g', { onChange: (s: PlaySnapshot) => steps[steps.length - 1] !== s.step && steps.push(s.step) });
  jest.useFakeTimers({ advanceTimers: true });
  await run(c);
  jest.useRealTimers();
  // the connection is made while the host starts the game (get_token answers from `starting` on)
  expect(calls.indexOf('token')).toBeGreaterThan(calls.indexOf('status starting'));
  expect(calls.indexOf('token')).toBeLessThan(calls.indexOf('status ready'));
  expect(steps).toEqual(['start', 'queue', 'starting', 'connecting', 'playing']);
  expect(track).toHaveBeenCalledWith('game_start', { gameId: 'g' });
  expect(c.snapshot.sessionId).toBe('s-1');
});

it('shows the progress until the page presents the first frame, then plays', async () => {
  api.getSessionStatus.mockResolvedValue({ state: 'ready', queuePosition: null, failureReason: null });
  const box: { events: SubscriberEvents | null } = { events: null };
  const quiet = { join: jest.fn(async (_t: unknown, ev: SubscriberEvents) => void (box.events = ev)), send: jest.fn(() => true), stats: jest.fn(async () => ({})), leave: jest.fn() };
  (streaming.createSubscriber as jest.Mock).mockResolvedValue(quiet);
  const c = new PlayController('g', { onChange: () => undefined });
  const running = c.run();
  await waitUntil(() => box.events !== null);
  const stream = new FakeStream();
  box.events!.onStream(stream as never);
  expect(c.snapshot.stream).toBe(stream);
  expect(c.snapshot.step).toBe('connecting');
  c.framePresented();
  await running;
  expect(c.snapshot.step).toBe('playing');
  c.dispose();
});

it('stays playing when the picture comes before the api says the game is ready (a poll saying starting does not undo it)', async () => {
  const steps: string[] = [];
  const statuses = ['starting', 'starting', 'starting', 'starting', 'ready'] as const;
  let polls = 0;
  api.getSessionStatus.mockImplementation(async () => {
    const state = statuses[Math.min(polls++, statuses.length - 1)];
    return { state, queuePosition: null, failureReason: null };
  });
  // the first frame arrives at once, while the status still says `starting`
  (streaming.createSubscriber as jest.Mock).mockResolvedValue(playingSubscriber().sub);
  const c = newController('g', { onChange: (s: PlaySnapshot) => steps[steps.length - 1] !== s.step && steps.push(s.step) });
  jest.useFakeTimers({ advanceTimers: true });
  await c.run();
  expect(c.snapshot.step).toBe('playing');
  // the `ready` poll goes on in the background: its `starting` answers come after `playing`
  await jest.advanceTimersByTimeAsync(2_000);
  jest.useRealTimers();
  expect(polls).toBeGreaterThanOrEqual(4);
  expect(c.snapshot.step).toBe('playing');
  expect(steps.slice(steps.indexOf('playing'))).toEqual(['playing']);
  c.dispose();
});

it('counts the stream timeout from `ready`: a long start is not a failed stream, a failed start is told as such', async () => {
  const { c, p } = runWithoutVideo('starting');
  await jest.advanceTimersByTimeAsync(25_000);
  expect(c.snapshot.failure).toBeNull();
  expect(c.snapshot.step).toBe('starting');
  expect(api.getSessionToken).toHaveBeenCalledTimes(1);
  api.getSessionStatus.mockResolvedValue({ state: 'failed', queuePosition: null, failureReason: 'runtime_start_failed' });
  await jest.advanceTimersByTimeAsync(1_000);
  await p;
  jest.useRealTimers();
  expect(c.snapshot.failure).toBe('start_failed');
  c.dispose();
});

it('resumes the live session for the same title instead of starting another', async () => {
  api.getSessionAll.mockResolvedValue([{ sessionId: 'live', gameId: 'g' }]);
  api.getSessionStatus.mockResolvedValue({ state: 'playing', queuePosition: null, failureReason: null });
  (streaming.createSubscriber as jest.Mock).mockResolvedValue(subscriberThat((ev) => ev.onStream(new FakeStream() as never)));
  const c = newController('g', { onChange: () => undefined });
  await run(c);
  expect(api.startGame).not.toHaveBeenCalled();
  expect(c.snapshot.sessionId).toBe('live');
});

describe('cancel while starting (exit before the picture)', () => {
  beforeEach(() => api.forceClose.mockResolvedValue(undefined));

  it('closes a queued session on the server and stops polling', async () => {
    api.getSessionStatus.mockResolvedValue({ state: 'queued', queuePosition: 3, failureReason: null });
    const steps: string[] = [];
    const c = newController('g', { onChange: (s) => steps.push(s.step) });
    const p = c.run();
    await waitUntil(() => c.snapshot.step === 'queue');
    const polls = api.getSessionStatus.mock.calls.length;
    await c.exit();
    await p;
    expect(api.forceClose).toHaveBeenCalledWith('s-1');
    expect(c.snapshot.failure).toBeNull();
    await new Promise((r) => setTimeout(r, 50));
    expect(api.getSessionStatus.mock.calls.length).toBe(polls);
    expect(streaming.createSubscriber).not.toHaveBeenCalled();
  });

  it('closes the session a start call still on its way makes, once it answers', async () => {
    let answer: (id: string) => void = () => undefined;
    api.startGame.mockImplementation(() => new Promise<string>((r) => (answer = r)));
    const c = newController('g', { onChange: () => undefined });
    const p = c.run();
    await waitUntil(() => api.startGame.mock.calls.length === 1);
    await c.exit();
    expect(api.forceClose).not.toHaveBeenCalled();
    answer('s-late');
    await p;
    expect(api.forceClose).toHaveBeenCalledWith('s-late');
    expect(api.getSessionStatus).not.toHaveBeenCalled();
    expect(c.snapshot.sessionId).toBeNull();
  });
});

it('starts a new session at the video quality the player saved (high when none is saved)', async () => {
  api.getSessionStatus.mockResolvedValue({ state: 'ready', queuePosition: null, failureReason: null });
  (streaming.createSubscriber as jest.Mock).mockResolvedValue(subscriberThat((ev) => ev.onStream(new FakeStream() as never)));
  await run(newController('g', { onChange: () => undefined }));
  expect(api.startGame).toHaveBeenLastCalledWith('g', 'high');
  savePlayerConfig({ ...DEFAULT_PLAYER_CONFIG, videoQuality: 'low' });
  await run(newController('g', { onChange: () => undefined }));
  expect(api.startGame).toHaveBeenLastCalledWith('g', 'low');
});

it('sends the beacon with the time on the page in milliseconds (the wire and elapsed_ms say ms)', async () => {
  const now = jest.spyOn(Date, 'now').mockReturnValue(1_000_000);
  api.getSessionStatus.mockResolvedValue({ state: 'ready', queuePosition: null, failureReason: null });
  (streaming.createSubscriber as jest.Mock).mockResolvedValue(subscriberThat((ev) => ev.onStream(new FakeStream() as never)));
  const c = newController('g', { onChange: () => undefined });
  await c.run();
  now.mockReturnValue(1_002_500);
  c.sendBeacon();
  c.dispose();
  now.mockRestore();
  expect(client.apiBeacon).toHaveBeenCalledWith('/collect', { sessionId: 's-1', gameId: 'g', elapsed: 2_500 });
});

it('reports the instance limit with its analytics event', async () => {
  api.startGame.mockRejectedValue(new SessionError('startGameError', 'instance_limit', 'x', 409));
  const c = newController('g', { onChange: () => undefined });
  await run(c);
  expect(c.snapshot.failure).toBe('instance_limit');
  expect(track).toHaveBeenCalledWith('instance_limit', { gameId: 'g' });
});

it.each([
  ['game_not_found', 'game_not_found'],
  ['verified_required', 'verified_required'],
  ['network', 'network_lost'],
])('maps start error %s to the %s message', async (code, failure) => {
  api.startGame.mockRejectedValue(new SessionError('startGameError', code, 'x'));
  const c = newController('g', { onChange: () => undefined });
  await run(c);
  expect(c.snapshot.failure).toBe(failure);
});

it('tells the player when the host was lost while starting', async () => {
  api.getSessionStatus.mockResolvedValue({ state: 'failed', queuePosition: null, failureReason: 'host_lost' });
  const c = newController('g', { onChange: () => undefined });
  await run(c);
  expect(c.snapshot.failure).toBe('host_lost');
});

it('rejects a bye from the host as the end of play, and an idle warning counts down', async () => {
  const { c, box } = await playingController();
  const events = box.events;
  events!.onMessage({ v: 1, type: 'idle-warning', secondsLeft: 30 });
  expect(c.snapshot.idleSecondsLeft).toBe(30);
  c.send({ type: 'pointer', kind: 'move', x: 0.5, y: 0.5 });
  expect(c.snapshot.idleSecondsLeft).toBeNull();
  events!.onMessage({ v: 1, type: 'bye', reason: 'idle_timeout' });
  expect(c.snapshot.failure).toBe('idle_timeout');
  c.dispose();
});

it('fails with stream_failed when no video arrives', async () => {
  const { c, p } = runWithoutVideo('ready');
  await jest.advanceTimersByTimeAsync(21_000);
  await p;
  jest.useRealTimers();
  expect(c.snapshot.failure).toBe('stream_failed');
  c.dispose();
});

it('fails with stream_failed at once when the join itself fails, and with unsupported when the provider is refused', async () => {
  api.getSessionStatus.mockResolvedValue({ state: 'ready', queuePosition: null, failureReason: null });
  const refused = { ...subscriberThat(() => undefined), join: jest.fn(async () => Promise.reject(new Error('token refused'))) };
  (streaming.createSubscriber as jest.Mock).mockResolvedValue(refused);
  const c = newController('g', { onChange: () => undefined });
  const started = Date.now();
  await run(c);
  expect(c.snapshot.failure).toBe('stream_failed');
  expect(Date.now() - started).toBeLessThan(5_000);
  expect(streaming.createSubscriber).toHaveBeenCalledWith('webrtc', token);

  (streaming.createSubscriber as jest.Mock).mockRejectedValue(new Error('missing credentials'));
  const d = newController('g', { onChange: () => undefined });
  await run(d);
  expect(d.snapshot.failure).toBe('unsupported');
});

describe('statusPollDelay', () => {
  it('polls a starting session every 100 ms for the first 4 s, every 250 ms up to 8 s, then every second; a queue every 2 s', () => {
    expect(statusPollDelay('starting', 0)).toBe(100);
    expect(statusPollDelay('starting', 3_900)).toBe(100);
    expect(statusPollDelay('starting', 4_000)).toBe(250);
    expect(statusPollDelay('allocating', 7_900)).toBe(250);
    expect(statusPollDelay('starting', 8_000)).toBe(1000);
    expect(statusPollDelay('queued', 0)).toBe(2000);
  });
});

describe('after the game was on screen (issue 10)', () => {
  afterEach(() => {
    jest.useRealTimers();
  });

  it('tells a runtime crash while playing as a stopped game, not as a start that failed', async () => {
    jest.useFakeTimers();
    const { c } = await playingController();
    expect(c.snapshot.step).toBe('playing');
    api.getSessionStatus.mockResolvedValue({ state: 'failed', queuePosition: null, failureReason: 'runtime_crashed' });
    await jest.advanceTimersByTimeAsync(5_100); // the host watch
    expect(c.snapshot.failure).toBe('game_crashed');
    c.dispose();
  });

  it('tells the same crash before the video came as a failed start', async () => {
    api.getSessionStatus.mockResolvedValue({ state: 'failed', queuePosition: null, failureReason: 'runtime_crashed' });
    const c = newController('g', { onChange: () => undefined });
    await run(c);
    expect(c.snapshot.failure).toBe('start_failed');
  });

  it('on bye error asks the api for the reason the host reported', async () => {
    jest.useFakeTimers();
    const { c, sub, box } = await playingController('playing');
    api.getSessionStatus
      .mockResolvedValueOnce({ state: 'playing', queuePosition: null, failureReason: null })
      .mockResolvedValue({ state: 'failed', queuePosition: null, failureReason: 'runtime_lost' });
    box.events!.onMessage({ v: 1, type: 'bye', reason: 'error' });
    expect(sub.leave).toHaveBeenCalled();
    await jest.advanceTimersByTimeAsync(600);
    expect(c.snapshot.failure).toBe('game_crashed');
    c.dispose();
  });

  it('on bye error with no reason recorded, says the play was interrupted', async () => {
    jest.useFakeTimers();
    const { c, box } = await playingController('playing');
    box.events!.onMessage({ v: 1, type: 'bye', reason: 'error' });
    await jest.advanceTimersByTimeAsync(4_000);
    expect(c.snapshot.failure).toBe('play_interrupted');
    c.dispose();
  });

  it('a host shutting down is a lost host; a replaced player is told so', async () => {
    for (const [reason, failure] of [
      ['host_shutdown', 'host_lost'],
      ['replaced', 'replaced'],
    ] as const) {
      const { c, box } = await playingController('playing');
      box.events!.onMessage({ v: 1, type: 'bye', reason });
      expect(c.snapshot.failure).toBe(failure);
      c.dispose();
    }
  });

  it('survives a 20-second network drop: rejoins the same session with a fresh token, nothing started anew', async () => {
    jest.useFakeTimers();
    api.getSessionStatus.mockResolvedValue({ state: 'ready', queuePosition: null, failureReason: null });
    const first = playingSubscriber();
    const second = playingSubscriber();
    (streaming.createSubscriber as jest.Mock).mockResolvedValueOnce(first.sub).mockResolvedValueOnce(second.sub);
    const snaps: PlaySnapshot[] = [];
    const c = newController('g', { onChange: (s) => snaps.push(s) });
    await c.run();
    expect(c.snapshot.step).toBe('playing');

    // The network goes: the peer connection drops and every api call fails for 20 s.
    const offlineUntil = Date.now() + 20_000;
    api.getSessionStatus.mockImplementation(async () => {
      if (Date.now() < offlineUntil) throw new SessionError('getSessionStatusError', 'network', 'x');
      return { state: 'playing', queuePosition: null, failureReason: null };
    });
    api.getSessionToken.mockImplementation(async () => {
      if (Date.now() < offlineUntil) throw new SessionError('getSessionTokenError', 'network', 'x');
      return token;
    });
    first.box.events!.onState('reconnecting');
    expect(c.snapshot.reconnecting).toBe(true);
    await jest.advanceTimersByTimeAsync(19_000);
    expect(c.snapshot.failure).toBeNull();
    expect(c.snapshot.reconnecting).toBe(true);

    await jest.advanceTimersByTimeAsync(4_000);
    expect(c.snapshot.failure).toBeNull();
    expect(c.snapshot.step).toBe('playing');
    expect(c.snapshot.reconnecting).toBe(false);
    expect(c.snapshot.sessionId).toBe('s-1');
    expect(api.startGame).toHaveBeenCalledTimes(1);
    expect(first.sub.leave).toHaveBeenCalled();
    expect(second.sub.join).toHaveBeenCalled();
    expect(snaps.every((s) => s.failure === null)).toBe(true);
    c.dispose();
  });

  it('gives up with network_lost after the 60-second window, not before', async () => {
    jest.useFakeTimers();
    const { c, ...first } = await playingController();
    api.getSessionStatus.mockRejectedValue(new SessionError('getSessionStatusError', 'network', 'x'));
    first.box.events!.onState('failed');
    await jest.advanceTimersByTimeAsync(55_000);
    expect(c.snapshot.failure).toBeNull();
    await jest.advanceTimersByTimeAsync(10_000);
    expect(c.snapshot.failure).toBe('network_lost');
    c.dispose();
  });
});

describe('the chosen video quality (issue 13)', () => {
  afterEach(() => {
    jest.useRealTimers();
  });

  const qualitySends = (sub: { send: jest.Mock }) => sub.send.mock.calls.map(([m]) => m).filter((m) => m.type === 'quality');

  it('sends the saved quality once the channel opens (the host says ready), once per channel', async () => {
    savePlayerConfig({ ...DEFAULT_PLAYER_CONFIG, videoQuality: 'low' });
    api.getSessionStatus.mockResolvedValue({ state: 'ready', queuePosition: null, failureReason: null });
    const { sub, box } = playingSubscriber();
    let open = false;
    sub.send.mockImplementation(() => open);
    (streaming.createSubscriber as jest.Mock).mockResolvedValue(sub);
    const c = newController('g', { onChange: () => undefined });
    await c.run();
    expect(api.startGame).toHaveBeenCalledWith('g', 'low');
    // the picture came before the channel opened: tried, refused, not counted as sent
    expect(c.snapshot.step).toBe('playing');
    open = true;
    box.events!.onMessage({ v: 1, type: 'ready' });
    expect(qualitySends(sub).at(-1)).toEqual({ v: 1, type: 'quality', level: 'low' });
    const sent = qualitySends(sub).length;
    box.events!.onState('connected');
    expect(qualitySends(sub)).toHaveLength(sent);
    c.dispose();
  });

  it('applies the saved quality to a resumed session (which the start did not set)', async () => {
    savePlayerConfig({ ...DEFAULT_PLAYER_CONFIG, videoQuality: 'medium' });
    api.getSessionAll.mockResolvedValue([{ sessionId: 'live', gameId: 'g' }]);
    const { c, sub } = await playingController('playing');
    expect(api.startGame).not.toHaveBeenCalled();
    expect(qualitySends(sub)).toEqual([{ v: 1, type: 'quality', level: 'medium' }]);
    c.dispose();
  });

  it('after a reconnect, tells the new channel the quality last chosen in the menu', async () => {
    jest.useFakeTimers();
    api.getSessionStatus.mockResolvedValue({ state: 'ready', queuePosition: null, failureReason: null });
    const first = playingSubscriber();
    const second = playingSubscriber();
    let secondOpen = false;
    second.sub.send.mockImplementation(() => secondOpen);
    (streaming.createSubscriber as jest.Mock).mockResolvedValueOnce(first.sub).mockResolvedValueOnce(second.sub);
    const c = newController('g', { onChange: () => undefined });
    await c.run();
    c.setQuality('low');
    expect(qualitySends(first.sub).at(-1)).toEqual({ v: 1, type: 'quality', level: 'low' });

    first.box.events!.onState('reconnecting');
    await jest.advanceTimersByTimeAsync(2_500);
    expect(second.sub.join).toHaveBeenCalled();
    expect(c.snapshot.reconnecting).toBe(false);
    secondOpen = true;
    second.box.events!.onMessage({ v: 1, type: 'ready' });
    expect(qualitySends(second.sub)).toContainEqual({ v: 1, type: 'quality', level: 'low' });
    expect(api.startGame).toHaveBeenCalledTimes(1);
    c.dispose();
  });
});

describe('liveStats (the stats overlay)', () => {
  it('gives the provider reading and the last ping round trip, pinging at most about once a second', async () => {
    const { c, sub, box } = await playingController();
    const reading = { at: 1, rttMs: 12 } as never;
    (sub as unknown as { liveStats: jest.Mock }).liveStats = jest.fn(async () => reading);
    const now = jest.spyOn(performance, 'now').mockReturnValue(10_000);
    const pings = () => (sub.send as jest.Mock).mock.calls.filter(([m]) => (m as { type: string }).type === 'ping').length;
    const before = pings();
    box.events!.onMessage({ v: 1, type: 'pong', t: 9_980 });
    expect(await c.liveStats()).toEqual({ receiver: reading, pingMs: 20 });
    expect(pings()).toBe(before + 1);
    now.mockReturnValue(10_500);
    await c.liveStats();
    expect(pings()).toBe(before + 1);
    now.mockReturnValue(11_000);
    await c.liveStats();
    expect(pings()).toBe(before + 2);
    now.mockRestore();
    c.dispose();
  });
});
