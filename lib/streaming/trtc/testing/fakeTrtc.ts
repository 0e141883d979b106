/**
 * A scripted double of trtc-js-sdk 4.x, for unit tests that replace the SDK module at its
 * boundary (jest.mock). The real TRTC cloud is unreachable from the machines this project is
 * built and tested on, so this records what the adapters call and lets a test play the SDK's
 * events. Only the calls the adapters use exist here.
 */
import { Emitter, type FakeTrack } from '../../agora/testing/fakeMedia';

export class FakeRemoteStream {
  constructor(
    readonly userId: string,
    private readonly video: FakeTrack | null,
    private readonly audio: FakeTrack | null,
  ) {}
  getUserId() {
    return this.userId;
  }
  getVideoTrack() {
    return this.video;
  }
  getAudioTrack() {
    return this.audio;
  }
}

export class FakeLocalStream {
  readonly initialize = jest.fn(async () => undefined);
  readonly setVideoProfile = jest.fn();
  readonly setVideoContentHint = jest.fn();
  readonly close = jest.fn();
  readonly stop = jest.fn();
  constructor(readonly config: { userId?: string; videoSource?: FakeTrack; audioSource?: FakeTrack }) {}
}

export class FakeTrtcClient extends Emitter {
  joinBehaviour: 'ok' | 'hang' | 'fail' = 'ok';
  readonly join = jest.fn<Promise<void>, [{ roomId: number | string }]>(async () => {
    if (this.joinBehaviour === 'hang') return new Promise<never>(() => undefined);
    if (this.joinBehaviour === 'fail') throw new Error('JOIN_ROOM_FAILED');
  });
  readonly leave = jest.fn(async () => undefined);
  readonly destroy = jest.fn();
  readonly publish = jest.fn<Promise<void>, [FakeLocalStream]>(async () => undefined);
  readonly unpublish = jest.fn<Promise<void>, [FakeLocalStream]>(async () => undefined);
  readonly subscribe = jest.fn<Promise<void>, [FakeRemoteStream, { audio?: boolean; video?: boolean }?]>(async () => undefined);
  readonly sendSEIMessage = jest.fn<void, [ArrayBuffer, { seiPayloadType: number }?]>();
  transportStats = { rtt: 35, downlinksRTT: {} };
  remoteVideoStats: Record<string, Record<string, number>> = {};
  getTransportStats = jest.fn(async () => this.transportStats);
  getRemoteVideoStats = jest.fn(async () => this.remoteVideoStats);
  constructor(readonly config: Record<string, unknown>) {
    super();
  }
  /** A SEI message as the SDK reports it. */
  sei(userId: string, text: string, seiPayloadType = 243) {
    // Copied into this realm's ArrayBuffer (Node's TextEncoder answers with another realm's,
    // which `instanceof ArrayBuffer` in jsdom does not recognise; a browser has one realm).
    const encoded = new TextEncoder().encode(text);
    const data = new ArrayBuffer(encoded.byteLength);
    new Uint8Array(data).set(encoded);
    this.emit('sei-message', { userId, data, seiPayloadType, isFromAuxiliary: false });
  }
}

export const trtcCalls = {
  clients: [] as FakeTrtcClient[],
  streams: [] as FakeLocalStream[],
  nextJoin: 'ok' as FakeTrtcClient['joinBehaviour'],
};

const fakeTRTC = {
  createClient(config: Record<string, unknown>) {
    const c = new FakeTrtcClient(config);
    c.joinBehaviour = trtcCalls.nextJoin;
    trtcCalls.clients.push(c);
    return c;
  },
  createStream(config: FakeLocalStream['config']) {
    const s = new FakeLocalStream(config);
    trtcCalls.streams.push(s);
    return s;
  },
};

/** What `jest.mock('trtc-js-sdk', ...)` returns. */
export const trtcModule = { __esModule: true, default: fakeTRTC };

export function resetTrtcFakes(): void {
  trtcCalls.clients.length = 0;
  trtcCalls.streams.length = 0;
  trtcCalls.nextJoin = 'ok';
}

/** Decodes what the adapter handed to sendSEIMessage. */
export function sentTexts(client: FakeTrtcClient): string[] {
  return client.sendSEIMessage.mock.calls.map(([buffer]) => new TextDecoder().decode(buffer));
}
