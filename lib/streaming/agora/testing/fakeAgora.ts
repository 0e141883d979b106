/**
 * Scripted doubles of agora-rtc-sdk-ng and agora-rtm-sdk v2, for unit tests that replace the
 * SDK modules at their boundary (jest.mock). The real Agora cloud is unreachable from the
 * machines this project is built and tested on, so these record what the adapters call and let
 * a test play the SDK's events. Only the calls the adapters use exist here.
 */
import { Emitter, FakeTrack } from './fakeMedia';

export class FakeRemoteTrack {
  constructor(readonly track: FakeTrack) {}
  getMediaStreamTrack() {
    return this.track;
  }
}

export interface FakeRemoteUser {
  uid: number;
  videoTrack?: FakeRemoteTrack;
  audioTrack?: FakeRemoteTrack;
}

export class FakeLocalTrack {
  readonly setEncoderConfiguration = jest.fn<Promise<undefined>, [unknown]>(async () => undefined);
  readonly close = jest.fn();
  constructor(readonly config: { mediaStreamTrack: FakeTrack } & Record<string, unknown>) {}
}

export class FakeRtcClient extends Emitter {
  /** What join does: resolve, never settle (no network) or reject. */
  joinBehaviour: 'ok' | 'hang' | 'fail' = 'ok';
  readonly join = jest.fn(async (_appId: string, _channel: string, _token: string | null, uid?: number) => {
    if (this.joinBehaviour === 'hang') return new Promise<never>(() => undefined);
    if (this.joinBehaviour === 'fail') throw new Error('CAN_NOT_GET_GATEWAY_SERVER');
    return uid ?? 1;
  });
  readonly leave = jest.fn(async () => undefined);
  readonly publish = jest.fn<Promise<undefined>, [unknown]>(async () => undefined);
  readonly unpublish = jest.fn<Promise<undefined>, [unknown?]>(async () => undefined);
  readonly subscribe = jest.fn(async (user: FakeRemoteUser, mediaType: 'audio' | 'video') => {
    const t = mediaType === 'video' ? user.videoTrack : user.audioTrack;
    if (!t) throw new Error('not published');
    return t;
  });
  rtcStats = { RTT: 42, RecvBitrate: 1_000_000 };
  remoteVideoStats: Record<string, Record<string, number>> = {};
  getRTCStats() {
    return this.rtcStats;
  }
  getRemoteVideoStats() {
    return this.remoteVideoStats;
  }
  constructor(readonly config: unknown) {
    super();
  }
}

export const rtcCalls = {
  clients: [] as FakeRtcClient[],
  videoTracks: [] as FakeLocalTrack[],
  audioTracks: [] as FakeLocalTrack[],
  nextJoin: 'ok' as FakeRtcClient['joinBehaviour'],
};

const fakeAgoraRTC = {
  createClient(config: unknown) {
    const c = new FakeRtcClient(config);
    c.joinBehaviour = rtcCalls.nextJoin;
    rtcCalls.clients.push(c);
    return c;
  },
  createCustomVideoTrack(config: { mediaStreamTrack: FakeTrack }) {
    const t = new FakeLocalTrack(config);
    rtcCalls.videoTracks.push(t);
    return t;
  },
  createCustomAudioTrack(config: { mediaStreamTrack: FakeTrack }) {
    const t = new FakeLocalTrack(config);
    rtcCalls.audioTracks.push(t);
    return t;
  },
};

/** What `jest.mock('agora-rtc-sdk-ng', ...)` returns. */
export const agoraRtcModule = { __esModule: true, default: fakeAgoraRTC };

type RtmListener = (ev: never) => void;

export class FakeRtm {
  loginBehaviour: 'ok' | 'hang' | 'fail' = 'ok';
  private readonly listeners = new Map<string, RtmListener[]>();
  readonly login = jest.fn<Promise<object>, [{ token?: string }?]>(async () => {
    if (this.loginBehaviour === 'hang') return new Promise<never>(() => undefined);
    if (this.loginBehaviour === 'fail') throw new Error('RTM login failed');
    return {};
  });
  readonly logout = jest.fn(async () => ({}));
  readonly subscribe = jest.fn<Promise<object>, [string, unknown?]>(async (channel: string) => ({ channelName: channel }));
  readonly unsubscribe = jest.fn(async (channel: string) => ({ channelName: channel }));
  readonly publish = jest.fn<Promise<object>, [string, string | Uint8Array]>(async () => ({}));
  constructor(
    readonly appId: string,
    readonly userId: string,
  ) {}
  addEventListener(name: string, fn: RtmListener) {
    this.listeners.set(name, [...(this.listeners.get(name) ?? []), fn]);
  }
  removeEventListener(name: string, fn: RtmListener) {
    this.listeners.set(name, (this.listeners.get(name) ?? []).filter((f) => f !== fn));
  }
  listenerCount(name: string): number {
    return this.listeners.get(name)?.length ?? 0;
  }
  emit(name: string, ev: unknown) {
    for (const fn of this.listeners.get(name) ?? []) (fn as (e: unknown) => void)(ev);
  }
  /** A channel message as RTM delivers it. */
  deliver(channelName: string, publisher: string, message: string | Uint8Array) {
    this.emit('message', { channelType: 'MESSAGE', channelName, topicName: '', messageType: typeof message === 'string' ? 'STRING' : 'BINARY', customType: '', message, publisher, timestamp: Date.now() });
  }
}

export const rtmCalls = { clients: [] as FakeRtm[], nextLogin: 'ok' as FakeRtm['loginBehaviour'] };

class RtmConstructor extends FakeRtm {
  constructor(appId: string, userId: string) {
    super(appId, userId);
    this.loginBehaviour = rtmCalls.nextLogin;
    rtmCalls.clients.push(this);
  }
}

/** What `jest.mock('agora-rtm-sdk', ...)` returns: the UMD default object with its RTM class. */
export const agoraRtmModule = { __esModule: true, default: { RTM: RtmConstructor } };

export function resetAgoraFakes(): void {
  rtcCalls.clients.length = 0;
  rtcCalls.videoTracks.length = 0;
  rtcCalls.audioTracks.length = 0;
  rtcCalls.nextJoin = 'ok';
  rtmCalls.clients.length = 0;
  rtmCalls.nextLogin = 'ok';
}
