/**
 * Provider selection: each provider's SDK loads only when that provider is chosen (the webrtc
 * path never loads agora-rtc-sdk-ng, agora-rtm-sdk or trtc-js-sdk), and a token without the
 * provider's credentials is refused before anything loads. The SDK modules are replaced by
 * doubles that record being loaded; the real clouds are unreachable from this machine.
 */
import { cloudToken, installBrowserDoubles, webrtcToken } from './agora/testing/fakeMedia';

const mockLoaded: string[] = [];

jest.mock('agora-rtc-sdk-ng', () => {
  mockLoaded.push('agora-rtc-sdk-ng');
  return jest.requireActual('./agora/testing/fakeAgora').agoraRtcModule;
});
jest.mock('agora-rtm-sdk', () => {
  mockLoaded.push('agora-rtm-sdk');
  return jest.requireActual('./agora/testing/fakeAgora').agoraRtmModule;
});
jest.mock('trtc-js-sdk', () => {
  mockLoaded.push('trtc-js-sdk');
  return jest.requireActual('./trtc/testing/fakeTrtc').trtcModule;
});

installBrowserDoubles();

async function fresh() {
  jest.resetModules();
  mockLoaded.length = 0;
  return import('./index');
}

test('webrtc: the webrtc adapters, and no cloud SDK is loaded', async () => {
  const streaming = await fresh();
  const sub = await streaming.createSubscriber('webrtc', webrtcToken());
  const pub = await streaming.createPublisher('webrtc');
  expect(sub.constructor.name).toBe('WebRtcSubscriber');
  expect(pub.constructor.name).toBe('WebRtcPublisher');
  expect(mockLoaded).toEqual([]);
});

test('agora loads only the Agora SDKs, trtc only the TRTC SDK', async () => {
  let streaming = await fresh();
  expect((await streaming.createSubscriber('agora', cloudToken('agora'))).constructor.name).toBe('AgoraSubscriber');
  expect(mockLoaded.sort()).toEqual(['agora-rtc-sdk-ng', 'agora-rtm-sdk']);

  streaming = await fresh();
  expect((await streaming.createPublisher('trtc', cloudToken('trtc'))).constructor.name).toBe('TrtcPublisher');
  expect(mockLoaded).toEqual(['trtc-js-sdk']);
});

test('a token whose provider fields are empty is refused with MissingCredentialsError before any SDK loads', async () => {
  const streaming = await fresh();
  const empty = cloudToken('agora', { appId: '', channelName: '', rtcToken: '', rtmToken: '' });
  const error = await streaming.createSubscriber('agora', empty).catch((e) => e);
  expect(error).toBeInstanceOf(streaming.MissingCredentialsError);
  expect(error.provider).toBe('agora');
  await expect(
    streaming.createPublisher('trtc', cloudToken('trtc', { trtc: { sdkAppId: '', userId: '1', userSig: '', roomId: '' } })),
  ).rejects.toBeInstanceOf(streaming.MissingCredentialsError);
  expect(mockLoaded).toEqual([]);
});

test('an unknown provider name is refused', async () => {
  const streaming = await fresh();
  await expect(streaming.createSubscriber('toString' as never)).rejects.toBeInstanceOf(streaming.UnsupportedProviderError);
  await expect(streaming.createPublisher('skype' as never)).rejects.toBeInstanceOf(streaming.UnsupportedProviderError);
});
