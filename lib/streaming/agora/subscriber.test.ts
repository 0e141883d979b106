/**
 * AgoraSubscriber against scripted doubles of agora-rtc-sdk-ng and agora-rtm-sdk (replaced at
 * the module boundary). The real Agora cloud is unreachable from this machine, so these tests
 * check what the adapter asks of the SDK and how it treats what the SDK reports; they do not
 * prove the SDKs behave as documented.
 */
import { hostMessage, playerMessage } from '../messages';
import { MissingCredentialsError, ProviderTimeoutError } from './common';
import { AgoraSubscriber } from './subscriber';
import { resetAgoraFakes, rtcCalls, rtmCalls, FakeRemoteTrack, type FakeRemoteUser } from './testing/fakeAgora';
import { cloudToken, FakeTrack, flush, installBrowserDoubles, subscriberRecorder } from './testing/fakeMedia';

jest.mock('agora-rtc-sdk-ng', () => jest.requireActual('./testing/fakeAgora').agoraRtcModule);
jest.mock('agora-rtm-sdk', () => jest.requireActual('./testing/fakeAgora').agoraRtmModule);

installBrowserDoubles();

const recorder = subscriberRecorder;

async function joined() {
  const sub = new AgoraSubscriber();
  const r = recorder();
  const token = cloudToken('agora');
  await sub.join(token, r.events);
  return { sub, ...r, token, rtc: rtcCalls.clients[0], rtm: rtmCalls.clients[0] };
}

beforeEach(() => resetAgoraFakes());

test('joins RTC and RTM with the token fields exactly (numeric uid, session channel)', async () => {
  const { token, rtc, rtm } = await joined();
  expect(rtc.config).toEqual({ mode: 'rtc', codec: 'vp8' });
  expect(rtc.join).toHaveBeenCalledWith(token.appId, token.channelName, token.rtcToken, 123456789);
  expect(rtm.appId).toBe(token.appId);
  expect(rtm.userId).toBe('123456789');
  expect(rtm.login).toHaveBeenCalledWith({ token: token.rtmToken });
  expect(rtm.subscribe).toHaveBeenCalledWith(token.channelName, { withMessage: true, withPresence: false });
});

test('empty provider fields: a MissingCredentialsError and no SDK call at all', async () => {
  const sub = new AgoraSubscriber();
  const { events } = recorder();
  const error = await sub.join(cloudToken('agora', { appId: '', rtcToken: '', rtmToken: '', channelName: '' }), events).catch((e) => e);
  expect(error).toBeInstanceOf(MissingCredentialsError);
  expect(error.fields).toEqual(['appId', 'channelName', 'rtcToken', 'rtmToken']);
  expect(rtcCalls.clients).toHaveLength(0);
  expect(rtmCalls.clients).toHaveLength(0);
});

test("the host's published video and audio are subscribed and shown in one stream", async () => {
  const { rtc, events } = await joined();
  const video = new FakeTrack('video', 'v1');
  const audio = new FakeTrack('audio', 'a1');
  const host: FakeRemoteUser = { uid: 42, videoTrack: new FakeRemoteTrack(video), audioTrack: new FakeRemoteTrack(audio) };
  rtc.emit('user-published', host, 'video');
  rtc.emit('user-published', host, 'audio');
  await flush();
  expect(rtc.subscribe).toHaveBeenCalledWith(host, 'video');
  expect(rtc.subscribe).toHaveBeenCalledWith(host, 'audio');
  const stream = events.onStream.mock.calls.at(-1)![0] as MediaStream;
  expect(stream.getVideoTracks()).toEqual([video]);
  expect(stream.getAudioTracks()).toEqual([audio]);

  rtc.emit('user-unpublished', host, 'audio');
  expect(stream.getAudioTracks()).toEqual([]);
});

test('host messages go through parseHostMessage: valid ones arrive, malformed and foreign ones are dropped', async () => {
  const { rtm, events, token } = await joined();
  const host = '4000000001';
  rtm.deliver(token.channelName, host, JSON.stringify(hostMessage({ type: 'pong', t: 5 })));
  rtm.deliver(token.channelName, host, new TextEncoder().encode(JSON.stringify(hostMessage({ type: 'ready' }))));
  rtm.deliver(token.channelName, host, '{not json');
  rtm.deliver(token.channelName, host, JSON.stringify({ v: 1, type: 'ready', extra: true }));
  rtm.deliver(token.channelName, host, JSON.stringify({ v: 1, type: 'launch-missiles' }));
  rtm.deliver(token.channelName, host, 'x'.repeat(5000));
  rtm.deliver('another-channel', host, JSON.stringify(hostMessage({ type: 'bye', reason: 'error' })));
  // what we published ourselves is not a host message
  rtm.deliver(token.channelName, token.rtmUid, JSON.stringify(hostMessage({ type: 'bye', reason: 'error' })));
  expect(events.onMessage.mock.calls.map((c) => c[0])).toEqual([
    { v: 1, type: 'pong', t: 5 },
    { v: 1, type: 'ready' },
  ]);
});

test('player messages are published as JSON on the session channel; nothing is sent before join', async () => {
  expect(new AgoraSubscriber().send(playerMessage({ type: 'ping', t: 1 }))).toBe(false);
  const { sub, rtm, token } = await joined();
  const msg = playerMessage({ type: 'pointer', kind: 'down', x: 0.5, y: 0.25, button: 0 });
  expect(sub.send(msg)).toBe(true);
  expect(rtm.publish).toHaveBeenCalledWith(token.channelName, JSON.stringify(msg));
});

test('connection states: RTC and RTM combine, the worse one wins', async () => {
  const { rtc, rtm, states } = await joined();
  rtc.emit('connection-state-change', 'CONNECTING', 'DISCONNECTED');
  rtc.emit('connection-state-change', 'CONNECTED', 'CONNECTING');
  expect(states.at(-1)).toBe('connecting'); // RTM not up yet
  rtm.emit('linkState', { currentState: 'CONNECTED', previousState: 'CONNECTING' });
  expect(states.at(-1)).toBe('connected');
  rtc.emit('connection-state-change', 'RECONNECTING', 'CONNECTED');
  expect(states.at(-1)).toBe('reconnecting');
  rtc.emit('connection-state-change', 'CONNECTED', 'RECONNECTING');
  expect(states.at(-1)).toBe('connected');
  rtm.emit('linkState', { currentState: 'FAILED', previousState: 'CONNECTED' });
  expect(states.at(-1)).toBe('failed');
  rtm.emit('linkState', { currentState: 'CONNECTED', previousState: 'FAILED' });
  rtc.emit('connection-state-change', 'DISCONNECTED', 'CONNECTED', 'TOKEN_EXPIRE');
  expect(states.at(-1)).toBe('disconnected');
  rtc.emit('connection-state-change', 'CONNECTED', 'CONNECTING');
  rtc.emit('user-left', { uid: 42 }, 'Quit');
  expect(states.at(-1)).toBe('reconnecting');
});

test('a join that never settles (no network) fails after the timeout and cleans up', async () => {
  jest.useFakeTimers();
  try {
    rtcCalls.nextJoin = 'hang';
    const sub = new AgoraSubscriber();
    const { events, states } = recorder();
    const joining = sub.join(cloudToken('agora'), events).catch((e) => e);
    await jest.advanceTimersByTimeAsync(15_000);
    expect(await joining).toBeInstanceOf(ProviderTimeoutError);
    expect(states.at(-1)).toBe('failed');
    await flush();
    expect(rtcCalls.clients[0].leave).toHaveBeenCalled();
    expect(rtmCalls.clients[0].logout).toHaveBeenCalled();
  } finally {
    jest.useRealTimers();
  }
});

test('leave: leaves RTC, unsubscribes and logs out of RTM, and reports nothing more', async () => {
  const { sub, rtc, rtm, events, token } = await joined();
  sub.leave();
  await flush();
  expect(rtc.leave).toHaveBeenCalled();
  expect(rtc.listenerCount('user-published')).toBe(0);
  expect(rtm.unsubscribe).toHaveBeenCalledWith(token.channelName);
  expect(rtm.logout).toHaveBeenCalled();
  rtm.deliver(token.channelName, '4000000001', JSON.stringify(hostMessage({ type: 'ready' })));
  expect(events.onMessage).not.toHaveBeenCalled();
  expect(sub.send(playerMessage({ type: 'ping', t: 1 }))).toBe(false);
});

test('stats: the webrtc summary keys the SDK exposes, RTT in seconds', async () => {
  const { sub, rtc } = await joined();
  rtc.remoteVideoStats = {
    '42': { renderFrameRate: 29, receiveResolutionWidth: 1280, receiveResolutionHeight: 720, receivePacketsLost: 3, receiveBytes: 9000, receiveBitrate: 2_000_000, end2EndDelay: 80, freezeRate: 0 },
  };
  expect(await sub.stats()).toEqual({
    provider: 'agora',
    currentRoundTripTime: 0.042,
    framesPerSecond: 29,
    frameWidth: 1280,
    frameHeight: 720,
    packetsLost: 3,
    bytesReceived: 9000,
    receiveBitrate: 2_000_000,
    end2EndDelay: 80,
    freezeRate: 0,
  });
});
