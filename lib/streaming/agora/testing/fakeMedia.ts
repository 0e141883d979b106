/**
 * Test doubles shared by the cloud providers' unit tests: jsdom has no MediaStream, and the SDK
 * doubles need a tiny event emitter. Nothing here talks to a network.
 */
import { TextDecoder as NodeTextDecoder, TextEncoder as NodeTextEncoder } from 'node:util';
import type { AgoraToken, ConnectionState, PublisherEvents, SubscriberEvents, TrtcToken, WebRtcToken } from '../../types';

export class FakeTrack {
  readonly stop = jest.fn();
  constructor(
    readonly kind: 'audio' | 'video',
    readonly id: string,
    private readonly settings: { width?: number; height?: number } = {},
  ) {}
  getSettings() {
    return this.settings;
  }
}

export class FakeMediaStream {
  private tracks: FakeTrack[];
  constructor(tracks: FakeTrack[] = []) {
    this.tracks = [...tracks];
  }
  addTrack(t: FakeTrack) {
    if (!this.tracks.includes(t)) this.tracks.push(t);
  }
  removeTrack(t: FakeTrack) {
    this.tracks = this.tracks.filter((x) => x !== t);
  }
  getTracks() {
    return [...this.tracks];
  }
  getVideoTracks() {
    return this.tracks.filter((t) => t.kind === 'video');
  }
  getAudioTracks() {
    return this.tracks.filter((t) => t.kind === 'audio');
  }
}

/**
 * Installs what a browser has and jsdom lacks: MediaStream (the fake) and TextEncoder /
 * TextDecoder (Node's, the same WHATWG codecs).
 */
export function installBrowserDoubles(): void {
  const g = globalThis as unknown as Record<string, unknown>;
  g.MediaStream = FakeMediaStream;
  g.TextEncoder ??= NodeTextEncoder;
  g.TextDecoder ??= NodeTextDecoder;
}

type Handler = (...args: never[]) => void;

/** on/off/emit, the shape both SDKs' clients have. */
export class Emitter {
  private readonly handlers = new Map<string, Handler[]>();
  on(event: string, fn: Handler) {
    this.handlers.set(event, [...(this.handlers.get(event) ?? []), fn]);
  }
  off(event: string, fn?: Handler) {
    if (event === '*') this.handlers.clear();
    else this.handlers.set(event, (this.handlers.get(event) ?? []).filter((h) => h !== fn));
  }
  removeAllListeners() {
    this.handlers.clear();
  }
  listenerCount(event: string): number {
    return this.handlers.get(event)?.length ?? 0;
  }
  emit(event: string, ...args: unknown[]) {
    for (const h of this.handlers.get(event) ?? []) (h as (...a: unknown[]) => void)(...args);
  }
}

/** A promise that never settles: what the SDKs' join/login do without a network. */
export const never = <T>(): Promise<T> => new Promise<T>(() => undefined);

/** Lets queued promise callbacks run. */
export const flush = async (): Promise<void> => {
  for (let i = 0; i < 10; i++) await Promise.resolve();
};

/** A session token as the api sends it with credentials configured for the cloud provider. */
export function cloudToken(provider: 'agora', over?: Partial<AgoraToken>): AgoraToken;
export function cloudToken(provider: 'trtc', over?: Partial<TrtcToken>): TrtcToken;
export function cloudToken(provider: 'agora' | 'trtc', over: Partial<AgoraToken> | Partial<TrtcToken> = {}): AgoraToken | TrtcToken {
  if (provider === 'trtc') {
    return { provider, trtc: { sdkAppId: '1400000001', userId: '123456789', userSig: 'user-sig', roomId: '987654321' }, ...(over as Partial<TrtcToken>) };
  }
  return {
    provider,
    appId: '0123456789abcdef0123456789abcdef',
    channelName: '3f0c8a5e-0000-4000-8000-000000000001',
    rtcToken: '007rtc-token',
    rtmToken: '007rtm-token',
    rtmUid: '123456789',
    ...(over as Partial<AgoraToken>),
  };
}

/** A webrtc session token (the relay is never reached in unit tests). */
export function webrtcToken(over: Partial<WebRtcToken['webrtc']> = {}): WebRtcToken {
  return { provider: 'webrtc', webrtc: { signalUrl: '', signalToken: '', iceServers: [], ...over } };
}

/** Subscriber callbacks as jest mocks, plus the states reported, in order. */
export function subscriberRecorder() {
  const states: ConnectionState[] = [];
  const events = {
    onStream: jest.fn(),
    onMessage: jest.fn(),
    onState: jest.fn((s: ConnectionState) => states.push(s)),
  } satisfies SubscriberEvents;
  return { events, states };
}

/** Publisher callbacks as jest mocks, plus the states reported, in order. */
export function publisherRecorder() {
  const states: ConnectionState[] = [];
  const events = {
    onRawMessage: jest.fn(),
    onState: jest.fn((s: ConnectionState) => states.push(s)),
    onPeerJoined: jest.fn(),
    onPeerLeft: jest.fn(),
  } satisfies PublisherEvents;
  return { events, states };
}

/** The runtime's capture: a canvas video track (with requestFrame) and a WebAudio track. */
export class CanvasTrack extends FakeTrack {
  readonly requestFrame = jest.fn();
}

export function runtimeCapture() {
  const video = new CanvasTrack('video', 'canvas', { width: 1280, height: 720 });
  const audio = new FakeTrack('audio', 'webaudio');
  return { video, audio, stream: new FakeMediaStream([video, audio]) as unknown as MediaStream };
}
