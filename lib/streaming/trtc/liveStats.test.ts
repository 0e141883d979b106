/**
 * The trtc subscriber's reading for the stats overlay (issue 13): the downlink RTT, the remote
 * video's counters and size; no codec, frame rate or jitter buffer (TRTC exposes none).
 */
import { cloudToken, FakeTrack, installBrowserDoubles, subscriberRecorder } from '../agora/testing/fakeMedia';
import { TrtcSubscriber } from './subscriber';
import { resetTrtcFakes, trtcCalls } from './testing/fakeTrtc';

jest.mock('trtc-js-sdk', () => jest.requireActual('./testing/fakeTrtc').trtcModule);

installBrowserDoubles();
beforeEach(() => resetTrtcFakes());

it('fills what TRTC gives: RTT in ms, counters and size', async () => {
  const sub = new TrtcSubscriber(() => ({ track: new FakeTrack('video', 'carrier') as unknown as MediaStreamTrack, kick: jest.fn(), stop: jest.fn() }));
  expect(await sub.liveStats()).toBeNull();
  await sub.join(cloudToken('trtc'), subscriberRecorder().events);
  const client = trtcCalls.clients[0];
  client.remoteVideoStats = { '4000000001': { bytesReceived: 1000, packetsReceived: 10, packetsLost: 1, framesDecoded: 100, frameWidth: 1280, frameHeight: 720 } };
  const r = (await sub.liveStats())!;
  expect(r).toMatchObject({ rttMs: 35, framesDecoded: 100, width: 1280, height: 720, bytesReceived: 1000, packetsReceived: 10, packetsLost: 1 });
  expect(r.videoCodec).toBeNull();
  expect(r.fps).toBeNull();
  expect(r.jitterBufferDelayS).toBeNull();
  sub.leave();
});
