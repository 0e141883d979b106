/**
 * TrtcPublisher against a scripted double of trtc-js-sdk (replaced at the module boundary).
 * The real TRTC cloud is unreachable from this machine: these tests check what the adapter asks
 * of the SDK and how it treats what the SDK reports.
 */
import { hostMessage, parsePlayerMessage, playerMessage } from '../messages';
import { MissingCredentialsError } from '../agora/common';
import { cloudToken, FakeMediaStream, FakeTrack, flush, installBrowserDoubles, publisherRecorder, runtimeCapture } from '../agora/testing/fakeMedia';
import { TrtcPublisher, trtcVideoProfile } from './publisher';
import { FakeRemoteStream, resetTrtcFakes, sentTexts, trtcCalls } from './testing/fakeTrtc';

jest.mock('trtc-js-sdk', () => jest.requireActual('./testing/fakeTrtc').trtcModule);

installBrowserDoubles();

const hostToken = cloudToken('trtc', { trtc: { sdkAppId: '1400000001', userId: '4000000001', userSig: 'host-sig', roomId: '987654321' } });

const recorder = publisherRecorder;

async function published(before?: (p: TrtcPublisher) => Promise<void>) {
  const pub = new TrtcPublisher();
  await before?.(pub);
  const { video, audio, stream } = runtimeCapture();
  const r = recorder();
  await pub.publish(stream, hostToken, r.events);
  return { pub, video, audio, ...r, client: trtcCalls.clients[0], local: trtcCalls.streams[0] };
}

beforeEach(() => resetTrtcFakes());

test('quality levels map to TRTC video profiles from QUALITY_PROFILES (kbps, fps, even scaled sizes)', () => {
  const source = { width: 1280, height: 720 };
  expect(trtcVideoProfile('high', source)).toEqual({ frameRate: 30, bitrate: 4000, width: 1280, height: 720 });
  expect(trtcVideoProfile('medium', source)).toEqual({ frameRate: 30, bitrate: 1500, width: 854, height: 480 });
  expect(trtcVideoProfile('low', source)).toEqual({ frameRate: 24, bitrate: 600, width: 640, height: 360 });
  expect(trtcVideoProfile('low')).toEqual({ frameRate: 24, bitrate: 600 });
});

test("joins with the host's token fields and publishes the runtime's tracks as one custom stream", async () => {
  const { client, local, video, audio } = await published();
  expect(client.config).toMatchObject({ mode: 'rtc', sdkAppId: 1400000001, userId: '4000000001', userSig: 'host-sig', enableSEI: true });
  expect(client.join).toHaveBeenCalledWith({ roomId: 987654321 });
  expect(local.config).toEqual({ userId: '4000000001', videoSource: video, audioSource: audio });
  expect(local.initialize).toHaveBeenCalled();
  expect(local.setVideoContentHint).toHaveBeenCalledWith('detail');
  expect(local.setVideoProfile).toHaveBeenCalledWith({ frameRate: 30, bitrate: 4000, width: 1280, height: 720 });
  expect(client.publish).toHaveBeenCalledWith(local);
});

test('setQuality before publish sets the first profile; later calls change it', async () => {
  const { pub, local } = await published((p) => p.setQuality('low'));
  expect(local.setVideoProfile).toHaveBeenLastCalledWith({ frameRate: 24, bitrate: 600, width: 640, height: 360 });
  await pub.setQuality('medium');
  expect(local.setVideoProfile).toHaveBeenLastCalledWith({ frameRate: 30, bitrate: 1500, width: 854, height: 480 });
});

test("the player's carrier is subscribed for its SEI; its input arrives raw for the host to parse", async () => {
  const { client, events } = await published();
  const carrier = new FakeRemoteStream('123456789', new FakeTrack('video', 'c'), null);
  client.emit('stream-added', { stream: carrier });
  expect(client.subscribe).toHaveBeenCalledWith(carrier, { audio: false, video: true });
  const wheel = JSON.stringify(playerMessage({ type: 'wheel', dy: -120 }));
  client.sei('123456789', wheel);
  client.sei('123456789', '{"v":1,"type":"wheel","dy":"far"}');
  client.sei('123456789', wheel, 5);
  client.sei(hostToken.trtc.userId, wheel);
  const raws = events.onRawMessage.mock.calls.map((c) => c[0] as ArrayBuffer);
  expect(raws).toHaveLength(2);
  expect(raws.map(parsePlayerMessage)).toEqual([{ v: 1, type: 'wheel', dy: -120 }, null]);
});

test('host messages leave as SEI of the game video, asking the canvas for a frame', async () => {
  const { pub, client, video } = await published();
  const saved = hostMessage({ type: 'screenshot-saved', requestId: 'r1', screenshotId: 's1' });
  expect(pub.send(saved)).toBe(true);
  expect(sentTexts(client)).toEqual([JSON.stringify(saved)]);
  expect(video.requestFrame).toHaveBeenCalled();
});

test("state is the player's connection: connected once the carrier is subscribed, reconnecting when the player leaves", async () => {
  const { client, events, states } = await published();
  client.emit('connection-state-changed', { prevState: 'CONNECTING', state: 'CONNECTED' });
  expect(states).toEqual([]); // no player yet: nothing to report
  client.emit('peer-join', { userId: '123456789' });
  expect(events.onPeerJoined).toHaveBeenCalled();
  client.emit('stream-subscribed', { stream: new FakeRemoteStream('123456789', null, null) });
  expect(states.at(-1)).toBe('connected');
  client.emit('peer-leave', { userId: '123456789' });
  expect(events.onPeerLeft).toHaveBeenCalled();
  expect(states.at(-1)).toBe('reconnecting');
});

test('close: unpublishes, leaves, destroys the client and releases the stream', async () => {
  const { pub, client, local } = await published();
  pub.close();
  await flush();
  expect(client.unpublish).toHaveBeenCalledWith(local);
  expect(client.leave).toHaveBeenCalled();
  expect(client.destroy).toHaveBeenCalled();
  expect(local.close).toHaveBeenCalled();
  expect(pub.send(hostMessage({ type: 'ready' }))).toBe(false);
});

test('a failed join reports failed and cleans up; missing credentials never reach the SDK', async () => {
  trtcCalls.nextJoin = 'fail';
  const { events, states } = recorder();
  await expect(new TrtcPublisher().publish(new FakeMediaStream() as unknown as MediaStream, hostToken, events)).rejects.toThrow('JOIN_ROOM_FAILED');
  expect(states.at(-1)).toBe('failed');
  await flush();
  expect(trtcCalls.clients[0].leave).toHaveBeenCalled();

  resetTrtcFakes();
  const noRoom = cloudToken('trtc', { trtc: { ...hostToken.trtc, roomId: 'room-1' } });
  await expect(new TrtcPublisher().publish(new FakeMediaStream() as unknown as MediaStream, noRoom, events)).rejects.toBeInstanceOf(MissingCredentialsError);
  expect(trtcCalls.clients).toHaveLength(0);
});
