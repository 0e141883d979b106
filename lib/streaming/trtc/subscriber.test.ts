/**
 * TrtcSubscriber against a scripted double of trtc-js-sdk (replaced at the module boundary).
 * The real TRTC cloud is unreachable from this machine, so these tests check what the adapter
 * asks of the SDK and how it treats what the SDK reports; they do not prove SEI delivery.
 */
import { hostMessage, playerMessage } from '../messages';
import { MissingCredentialsError, ProviderTimeoutError } from '../agora/common';
import { cloudToken, FakeTrack, flush, installBrowserDoubles, subscriberRecorder } from '../agora/testing/fakeMedia';
import type { UplinkCarrier } from './carrier';
import { TrtcSubscriber } from './subscriber';
import { FakeRemoteStream, resetTrtcFakes, sentTexts, trtcCalls } from './testing/fakeTrtc';

jest.mock('trtc-js-sdk', () => jest.requireActual('./testing/fakeTrtc').trtcModule);

installBrowserDoubles();

function fakeCarrier() {
  const carrier = { track: new FakeTrack('video', 'carrier') as unknown as MediaStreamTrack, kick: jest.fn(), stop: jest.fn() } satisfies UplinkCarrier;
  return carrier;
}

const recorder = subscriberRecorder;

async function joined() {
  const carrier = fakeCarrier();
  const sub = new TrtcSubscriber(() => carrier);
  const r = recorder();
  const token = cloudToken('trtc');
  await sub.join(token, r.events);
  return { sub, carrier, ...r, token, client: trtcCalls.clients[0], uplink: trtcCalls.streams[0] };
}

beforeEach(() => resetTrtcFakes());

test('joins with the token fields exactly: numeric sdkAppId and roomId, userId, userSig, SEI on', async () => {
  const { client } = await joined();
  expect(client.config).toEqual({ mode: 'rtc', sdkAppId: 1400000001, userId: '123456789', userSig: 'user-sig', enableSEI: true, autoSubscribe: false });
  expect(client.join).toHaveBeenCalledWith({ roomId: 987654321 });
});

test('publishes only the 16×16 carrier video whose SEI carries input', async () => {
  const { client, uplink, carrier } = await joined();
  expect(uplink.config).toEqual({ userId: '123456789', videoSource: carrier.track });
  expect(uplink.initialize).toHaveBeenCalled();
  expect(uplink.setVideoProfile).toHaveBeenCalledWith({ width: 16, height: 16, frameRate: 15, bitrate: 30 });
  expect(client.publish).toHaveBeenCalledWith(uplink);
});

test("the host's stream is subscribed (audio and video) and shown", async () => {
  const { client, events } = await joined();
  const video = new FakeTrack('video', 'v');
  const audio = new FakeTrack('audio', 'a');
  const remote = new FakeRemoteStream('4000000001', video, audio);
  client.emit('stream-added', { stream: remote });
  expect(client.subscribe).toHaveBeenCalledWith(remote, { audio: true, video: true });
  client.emit('stream-subscribed', { stream: remote });
  const stream = events.onStream.mock.calls.at(-1)![0] as MediaStream;
  expect(stream.getTracks()).toEqual([video, audio]);
  client.emit('stream-removed', { stream: remote });
  expect(stream.getTracks()).toEqual([]);
});

test('host messages come from SEI through parseHostMessage; malformed, foreign-type and own ones are dropped', async () => {
  const { client, events, token } = await joined();
  const host = '4000000001';
  client.sei(host, JSON.stringify(hostMessage({ type: 'idle-warning', secondsLeft: 30 })));
  client.sei(host, '{"v":1,"type":"idle-warning","secondsLeft":-1}');
  client.sei(host, 'garbage');
  client.sei(host, JSON.stringify(hostMessage({ type: 'ready' })), 5);
  client.sei(token.trtc.userId, JSON.stringify(hostMessage({ type: 'ready' })));
  expect(events.onMessage.mock.calls.map((c) => c[0])).toEqual([{ v: 1, type: 'idle-warning', secondsLeft: 30 }]);
});

test('player messages leave as SEI (payload type 243) on the carrier, which is kicked for a frame', async () => {
  const { sub, client, carrier } = await joined();
  const key = playerMessage({ type: 'key', kind: 'down', key: 'Space' });
  expect(sub.send(key)).toBe(true);
  expect(sentTexts(client)).toEqual([JSON.stringify(key)]);
  expect(client.sendSEIMessage.mock.calls[0][1]).toEqual({ seiPayloadType: 243 });
  expect(carrier.kick).toHaveBeenCalled();
});

test('nothing is sent before the carrier is published', () => {
  expect(new TrtcSubscriber(fakeCarrier).send(playerMessage({ type: 'ping', t: 1 }))).toBe(false);
});

test('connection states map to ours; the host leaving is reconnecting, being kicked out is closed', async () => {
  const { client, states } = await joined();
  client.emit('connection-state-changed', { prevState: 'DISCONNECTED', state: 'CONNECTING' });
  expect(states.at(-1)).toBe('connecting');
  client.emit('connection-state-changed', { prevState: 'CONNECTING', state: 'CONNECTED' });
  expect(states.at(-1)).toBe('connected');
  client.emit('connection-state-changed', { prevState: 'CONNECTED', state: 'RECONNECTING' });
  expect(states.at(-1)).toBe('reconnecting');
  client.emit('connection-state-changed', { prevState: 'RECONNECTING', state: 'DISCONNECTED' });
  expect(states.at(-1)).toBe('disconnected');
  client.emit('connection-state-changed', { prevState: 'CONNECTING', state: 'CONNECTED' });
  client.emit('peer-leave', { userId: '4000000001' });
  expect(states.at(-1)).toBe('reconnecting');
  client.emit('client-banned', { reason: 'kick', message: 'same user id elsewhere' });
  expect(states.at(-1)).toBe('closed');
});

test('leave: unpublishes the carrier, leaves, destroys the client and stops the carrier', async () => {
  const { sub, client, uplink, carrier, events } = await joined();
  sub.leave();
  await flush();
  expect(client.unpublish).toHaveBeenCalledWith(uplink);
  expect(client.leave).toHaveBeenCalled();
  expect(client.destroy).toHaveBeenCalled();
  expect(uplink.close).toHaveBeenCalled();
  expect(carrier.stop).toHaveBeenCalled();
  expect(client.listenerCount('sei-message')).toBe(0);
  client.sei('4000000001', JSON.stringify(hostMessage({ type: 'ready' })));
  expect(events.onMessage).not.toHaveBeenCalled();
  expect(sub.send(playerMessage({ type: 'ping', t: 1 }))).toBe(false);
});

test('missing credentials never reach the SDK; a join that never settles times out and cleans up', async () => {
  const { events, states } = recorder();
  const empty = cloudToken('trtc', { trtc: { sdkAppId: '', userId: '123456789', userSig: '', roomId: '' } });
  const error = await new TrtcSubscriber(fakeCarrier).join(empty, events).catch((e) => e);
  expect(error).toBeInstanceOf(MissingCredentialsError);
  expect(error.fields).toEqual(['trtc.sdkAppId', 'trtc.userSig', 'trtc.roomId']);
  expect(trtcCalls.clients).toHaveLength(0);

  jest.useFakeTimers();
  try {
    trtcCalls.nextJoin = 'hang';
    const joining = new TrtcSubscriber(fakeCarrier).join(cloudToken('trtc'), events).catch((e) => e);
    await jest.advanceTimersByTimeAsync(15_000);
    expect(await joining).toBeInstanceOf(ProviderTimeoutError);
    expect(states.at(-1)).toBe('failed');
    await jest.advanceTimersByTimeAsync(0);
    expect(trtcCalls.clients[0].leave).toHaveBeenCalled();
    expect(trtcCalls.clients[0].destroy).toHaveBeenCalled();
  } finally {
    jest.useRealTimers();
  }
});

test('stats: the webrtc summary keys TRTC exposes, RTT in seconds, fps from decoded frames', async () => {
  const { sub, client } = await joined();
  client.remoteVideoStats = { '4000000001': { bytesReceived: 1000, packetsReceived: 10, packetsLost: 1, framesDecoded: 100, frameWidth: 1280, frameHeight: 720 } };
  const nowSpy = jest.spyOn(Date, 'now').mockReturnValue(10_000);
  expect(await sub.stats()).toEqual({ provider: 'trtc', currentRoundTripTime: 0.035, frameWidth: 1280, frameHeight: 720, framesDecoded: 100, packetsLost: 1, bytesReceived: 1000 });
  client.remoteVideoStats['4000000001'].framesDecoded = 400;
  nowSpy.mockReturnValue(20_000);
  expect((await sub.stats()).framesPerSecond).toBe(30);
  nowSpy.mockRestore();
});
