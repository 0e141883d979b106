/**
 * The agora subscriber's reading for the stats overlay (issue 13): what the SDK exposes (RTT in
 * ms, the remote video's size, rates and counters, the codec), nothing invented for the rest.
 */
import { AgoraSubscriber } from './subscriber';
import { resetAgoraFakes, rtcCalls } from './testing/fakeAgora';
import { cloudToken, installBrowserDoubles, subscriberRecorder } from './testing/fakeMedia';

jest.mock('agora-rtc-sdk-ng', () => jest.requireActual('./testing/fakeAgora').agoraRtcModule);
jest.mock('agora-rtm-sdk', () => jest.requireActual('./testing/fakeAgora').agoraRtmModule);

installBrowserDoubles();
beforeEach(() => resetAgoraFakes());

it('fills what Agora gives and leaves the jitter buffer empty; null before a join', async () => {
  const sub = new AgoraSubscriber();
  expect(await sub.liveStats()).toBeNull();
  await sub.join(cloudToken('agora'), subscriberRecorder().events);
  const rtc = rtcCalls.clients[0];
  rtc.remoteVideoStats = {
    '42': { renderFrameRate: 29, receiveResolutionWidth: 1280, receiveResolutionHeight: 720, receivePackets: 500, receivePacketsLost: 3, receiveBytes: 9000, receiveBitrate: 2_000_000, packetLossRate: 0.6 },
  };
  const r = (await sub.liveStats())!;
  expect(r).toMatchObject({ rttMs: 42, fps: 29, width: 1280, height: 720, bytesReceived: 9000, bitrateBps: 2_000_000, packetsReceived: 500, packetsLost: 3, lossPct: 0.6 });
  expect(r.jitterBufferDelayS).toBeNull();
  expect(r.framesDecoded).toBeNull();
  sub.leave();
  expect(await sub.liveStats()).toBeNull();
});
