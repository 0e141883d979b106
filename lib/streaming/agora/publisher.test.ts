/**
 * AgoraPublisher against scripted doubles of agora-rtc-sdk-ng and agora-rtm-sdk (replaced at
 * the module boundary). The real Agora cloud is unreachable from this machine: these tests check
 * what the adapter asks of the SDK and how it treats what the SDK reports.
 */
import { hostMessage, parsePlayerMessage, playerMessage } from '../messages';
import { MissingCredentialsError } from './common';
import { agoraEncoderConfig, AgoraPublisher } from './publisher';
import { resetAgoraFakes, rtcCalls, rtmCalls } from './testing/fakeAgora';
import { cloudToken, FakeMediaStream, flush, installBrowserDoubles, publisherRecorder, runtimeCapture } from './testing/fakeMedia';

jest.mock('agora-rtc-sdk-ng', () => jest.requireActual('./testing/fakeAgora').agoraRtcModule);
jest.mock('agora-rtm-sdk', () => jest.requireActual('./testing/fakeAgora').agoraRtmModule);

installBrowserDoubles();

const hostToken = cloudToken('agora', { rtmUid: '4000000001', rtcToken: 'host-rtc', rtmToken: 'host-rtm' });

const recorder = publisherRecorder;

async function published(before?: (p: AgoraPublisher) => Promise<void>) {
  const pub = new AgoraPublisher();
  await before?.(pub);
  const { video, audio, stream } = runtimeCapture();
  const r = recorder();
  await pub.publish(stream, hostToken, r.events);
  return { pub, video, audio, ...r, rtc: rtcCalls.clients[0], rtm: rtmCalls.clients[0] };
}

beforeEach(() => resetAgoraFakes());

test('quality levels map to encoder configurations from QUALITY_PROFILES (kbps, fps, scale)', () => {
  expect(agoraEncoderConfig('high')).toEqual({ bitrateMax: 4000, frameRate: 30, scaleResolutionDownBy: 1 });
  expect(agoraEncoderConfig('medium')).toEqual({ bitrateMax: 1500, frameRate: 30, scaleResolutionDownBy: 1.5 });
  expect(agoraEncoderConfig('low')).toEqual({ bitrateMax: 600, frameRate: 24, scaleResolutionDownBy: 2 });
});

test("joins with the host's token fields and publishes the runtime's tracks as custom tracks", async () => {
  const { rtc, rtm, video, audio } = await published();
  expect(rtc.join).toHaveBeenCalledWith(hostToken.appId, hostToken.channelName, 'host-rtc', 4000000001);
  expect(rtm.userId).toBe('4000000001');
  expect(rtm.login).toHaveBeenCalledWith({ token: 'host-rtm' });
  expect(rtm.subscribe).toHaveBeenCalledWith(hostToken.channelName, { withMessage: true, withPresence: true });
  const [v] = rtcCalls.videoTracks;
  const [a] = rtcCalls.audioTracks;
  expect(v.config).toMatchObject({ mediaStreamTrack: video, optimizationMode: 'detail', bitrateMax: 4000, frameRate: 30 });
  expect(v.setEncoderConfiguration).toHaveBeenCalledWith(agoraEncoderConfig('high'));
  expect(a.config).toEqual({ mediaStreamTrack: audio });
  expect(rtc.publish).toHaveBeenCalledWith([v, a]);
});

test('setQuality before publish sets the first encoder configuration; later calls change it', async () => {
  const { pub } = await published((p) => p.setQuality('low'));
  const [v] = rtcCalls.videoTracks;
  expect(v.config).toMatchObject({ bitrateMax: 600, frameRate: 24 });
  expect(v.setEncoderConfiguration).toHaveBeenLastCalledWith(agoraEncoderConfig('low'));
  await pub.setQuality('medium');
  expect(v.setEncoderConfiguration).toHaveBeenLastCalledWith({ bitrateMax: 1500, frameRate: 30, scaleResolutionDownBy: 1.5 });
});

test("the player's input arrives raw for the host to parse; the host's own messages and other channels do not", async () => {
  const { rtm, events } = await published();
  const player = '123456789';
  const key = JSON.stringify(playerMessage({ type: 'key', kind: 'down', key: 'Enter' }));
  rtm.deliver(hostToken.channelName, player, key);
  rtm.deliver(hostToken.channelName, player, '{"v":1,"type":"key","kind":"down","key":"rm -rf"}');
  rtm.deliver(hostToken.channelName, hostToken.rtmUid, key);
  rtm.deliver('elsewhere', player, key);
  const raws = events.onRawMessage.mock.calls.map((c) => c[0]);
  expect(raws).toEqual([key, '{"v":1,"type":"key","kind":"down","key":"rm -rf"}']);
  // what the host then does with them (server/host/page/bridge.ts): the malformed one is dropped
  expect(raws.map(parsePlayerMessage)).toEqual([{ v: 1, type: 'key', kind: 'down', key: 'Enter' }, null]);
});

test('host messages are published as JSON on the session channel', async () => {
  const { pub, rtm } = await published();
  const bye = hostMessage({ type: 'bye', reason: 'idle_timeout' });
  expect(pub.send(bye)).toBe(true);
  expect(rtm.publish).toHaveBeenCalledWith(hostToken.channelName, JSON.stringify(bye));
});

test("state is the player's connection: connected once the player is on RTC and RTM, reconnecting when it leaves", async () => {
  const { rtc, rtm, events, states } = await published();
  rtc.emit('connection-state-change', 'CONNECTED', 'CONNECTING');
  rtm.emit('linkState', { currentState: 'CONNECTED', previousState: 'CONNECTING' });
  expect(states).toEqual([]); // no player yet: nothing to report
  rtc.emit('user-joined', { uid: 123456789 });
  expect(events.onPeerJoined).toHaveBeenCalledTimes(1);
  expect(states).toEqual([]); // not on RTM yet: a `ready` would be lost
  rtm.emit('presence', { eventType: 'REMOTE_JOIN', channelName: hostToken.channelName, publisher: '123456789', snapshot: null });
  expect(states.at(-1)).toBe('connected');
  rtc.emit('user-left', { uid: 123456789 }, 'Quit');
  expect(events.onPeerLeft).toHaveBeenCalledTimes(1);
  expect(states.at(-1)).toBe('reconnecting');
  rtc.emit('user-joined', { uid: 123456789 });
  expect(states.at(-1)).toBe('connected');
  rtm.emit('presence', { eventType: 'REMOTE_TIMEOUT', channelName: hostToken.channelName, publisher: '123456789', snapshot: null });
  expect(states.at(-1)).toBe('reconnecting');
  rtm.emit('presence', { eventType: 'SNAPSHOT', channelName: hostToken.channelName, publisher: '', snapshot: [{ userId: '123456789' }, { userId: hostToken.rtmUid }] });
  expect(states.at(-1)).toBe('connected');
});

test('close: unpublishes, leaves, releases the tracks and logs out of RTM', async () => {
  const { pub, rtc, rtm } = await published();
  const [v] = rtcCalls.videoTracks;
  const [a] = rtcCalls.audioTracks;
  pub.close();
  await flush();
  expect(rtc.unpublish).toHaveBeenCalledWith([v, a]);
  expect(rtc.leave).toHaveBeenCalled();
  expect(v.close).toHaveBeenCalled();
  expect(a.close).toHaveBeenCalled();
  expect(rtm.unsubscribe).toHaveBeenCalledWith(hostToken.channelName);
  expect(rtm.logout).toHaveBeenCalled();
  expect(pub.send(hostMessage({ type: 'ready' }))).toBe(false);
});

test('a failed join reports failed, cleans up and rethrows; missing credentials never reach the SDK', async () => {
  rtcCalls.nextJoin = 'fail';
  const pub = new AgoraPublisher();
  const { events, states } = recorder();
  await expect(pub.publish(new FakeMediaStream() as unknown as MediaStream, hostToken, events)).rejects.toThrow('CAN_NOT_GET_GATEWAY_SERVER');
  expect(states.at(-1)).toBe('failed');
  await flush();
  expect(rtcCalls.clients[0].leave).toHaveBeenCalled();
  expect(rtmCalls.clients[0].logout).toHaveBeenCalled();

  resetAgoraFakes();
  await expect(new AgoraPublisher().publish(new FakeMediaStream() as unknown as MediaStream, cloudToken('agora', { rtmUid: 'host' }), events)).rejects.toBeInstanceOf(
    MissingCredentialsError,
  );
  expect(rtcCalls.clients).toHaveLength(0);
});
