/**
 * One interface for every streaming provider (webrtc, agora, trtc). The same adapter runs on
 * both sides: the host's runtime page publishes, the player's page subscribes.
 */
import type { SessionTokenAnswer as SessionTokenWire } from '../api-types/schemas/sessions';
import type { ProviderName } from '../api-types/sessions';
import type { HostMessage, PlayerMessage, QualityLevel } from './messages';

export { PROVIDER_NAMES, type ProviderName } from '../api-types/sessions';

/** What a webrtc session needs: our signalling relay (lib/streaming/signal) and ICE servers. */
export interface WebRtcToken {
  provider: 'webrtc';
  webrtc: { signalUrl: string; signalToken: string; iceServers: RTCIceServer[] };
}

/** What an Agora session needs: one RTC channel for media and RTM for messages (numeric uid). */
export interface AgoraToken {
  provider: 'agora';
  appId: string;
  channelName: string;
  rtcToken: string;
  rtmToken: string;
  /** The uid of both RTC and RTM (a uint32 written in decimal). */
  rtmUid: string;
}

/** What a TRTC session needs: one room, messages carried as SEI in the video. */
export interface TrtcToken {
  provider: 'trtc';
  trtc: { sdkAppId: string; userId: string; userSig: string; roomId: string };
}

/**
 * The Session token of spec section 3, as the browser uses it: one member per provider, each
 * with only its own credentials (the wire pads the others with empty strings; this does not).
 */
export type SessionToken = WebRtcToken | AgoraToken | TrtcToken;

/** The token member of one provider (e.g. `TokenOf<'agora'>` is AgoraToken). */
export type TokenOf<P extends ProviderName> = Extract<SessionToken, { provider: P }>;

/** The one mapping from the get_token answer: builds the member for the answer's provider. */
export function toSessionToken(w: SessionTokenWire): SessionToken {
  switch (w.provider) {
    case 'agora':
      return {
        provider: 'agora',
        appId: w.agora_app_id,
        channelName: w.agora_channel_name,
        rtcToken: w.agora_rtc_token,
        rtmToken: w.agora_rtm_token,
        rtmUid: w.user_id_for_client,
      };
    case 'trtc':
      return {
        provider: 'trtc',
        trtc: { sdkAppId: w.trtc_sdk_app_id, userId: w.user_id_for_client, userSig: w.trtc_user_sig_for_client, roomId: w.trtc_room_id },
      };
    case 'webrtc':
      return { provider: 'webrtc', webrtc: { signalUrl: w.webrtc_signal_url, signalToken: w.webrtc_signal_token, iceServers: w.webrtc_ice_servers } };
  }
}

export type ConnectionState = 'connecting' | 'connected' | 'reconnecting' | 'disconnected' | 'failed' | 'closed';

export interface SubscriberEvents {
  onStream(stream: MediaStream): void;
  onMessage(msg: HostMessage): void;
  onState(state: ConnectionState): void;
}

/** The player's side: receives video+audio, sends input. Each adapter takes its own token member. */
export interface StreamSubscriber<T extends SessionToken = SessionToken> {
  join(token: T, events: SubscriberEvents): Promise<void>;
  send(msg: PlayerMessage): boolean;
  /** A compact stats summary for POST /v1/collect/stats/webrtc. */
  stats(): Promise<Record<string, number | string>>;
  /**
   * One reading for the play page's stats overlay (docs/play-extras.md): what the provider's
   * stats say right now, null where it says nothing; null before there is a connection.
   */
  liveStats(): Promise<ReceiverStats | null>;
  leave(): void;
}

/**
 * One reading of the receiving side, for the play page's stats overlay. Counters are cumulative
 * since the connection began: the overlay turns two readings into rates (bit rate, loss, frame
 * rate, jitter-buffer delay). Each field is null where the provider does not give it; a provider
 * whose SDK gives a rate rather than counters fills the rate field (`bitrateBps`, `lossPct`).
 */
export interface ReceiverStats {
  /** When it was read (ms, the page's performance.now clock). */
  at: number;
  /** Network round trip (the selected ICE candidate pair, or the SDK's), ms. */
  rttMs: number | null;
  /** Frame rate as the browser or the SDK reports it (null when it says nothing). */
  fps: number | null;
  /** Video frames decoded so far: the overlay's frame rate between two readings. */
  framesDecoded: number | null;
  width: number | null;
  height: number | null;
  /** Bytes received, video and sound together. */
  bytesReceived: number | null;
  /** The SDK's own bit rate (bit/s), used when there are no byte counters. */
  bitrateBps: number | null;
  packetsReceived: number | null;
  packetsLost: number | null;
  /** The SDK's own loss rate (%), used when there are no packet counters. */
  lossPct: number | null;
  /** Video jitter buffer: seconds waited in total by `jitterBufferEmitted` frames (W3C inbound-rtp). */
  jitterBufferDelayS: number | null;
  jitterBufferEmitted: number | null;
  /** Codec names as the provider writes them (`VP8`, `opus`). */
  videoCodec: string | null;
  audioCodec: string | null;
}

/** A reading with every field empty (a provider fills what it knows). */
export function emptyReceiverStats(at: number): ReceiverStats {
  return {
    at,
    rttMs: null,
    fps: null,
    framesDecoded: null,
    width: null,
    height: null,
    bytesReceived: null,
    bitrateBps: null,
    packetsReceived: null,
    packetsLost: null,
    lossPct: null,
    jitterBufferDelayS: null,
    jitterBufferEmitted: null,
    videoCodec: null,
    audioCodec: null,
  };
}

export interface PublisherEvents {
  /** Raw data from the player; the host parses it with parsePlayerMessage. */
  onRawMessage(raw: unknown): void;
  onState(state: ConnectionState): void;
  onPeerJoined?(): void;
  onPeerLeft?(): void;
}

/** The host's side: publishes the runtime's MediaStream, receives input. Each adapter takes its own token member. */
export interface StreamPublisher<T extends SessionToken = SessionToken> {
  publish(stream: MediaStream, token: T, events: PublisherEvents): Promise<void>;
  send(msg: HostMessage): boolean;
  setQuality(level: QualityLevel): Promise<void>;
  close(): void;
}

/** The video codecs the host may put first in its offer (HOST_VIDEO_CODEC; docs/performance.md). */
export const VIDEO_CODECS = ['vp8', 'vp9', 'h264', 'av1'] as const;
export type VideoCodec = (typeof VIDEO_CODECS)[number];

/**
 * Encoder settings per quality level (the host changes bitrate and resolution). `minBitrate`:
 * the floor of the sender's bandwidth estimate (webrtc provider: the answer's
 * x-google-min-bitrate, with x-google-start-bitrate = maxBitrate). Frames only when the picture
 * changes send so little that the estimate never grows: measured, it sat at 230–380 kbit/s, the
 * encoder dropped 77 of 123 changed frames and the pacer held each packet 160 ms (docs/streaming.md).
 */
export const QUALITY_PROFILES: Record<QualityLevel, { maxBitrate: number; minBitrate: number; scaleResolutionDownBy: number; maxFramerate: number }> = {
  high: { maxBitrate: 4_000_000, minBitrate: 1_500_000, scaleResolutionDownBy: 1, maxFramerate: 30 },
  medium: { maxBitrate: 1_500_000, minBitrate: 600_000, scaleResolutionDownBy: 1.5, maxFramerate: 30 },
  low: { maxBitrate: 600_000, minBitrate: 250_000, scaleResolutionDownBy: 2, maxFramerate: 24 },
};

/**
 * How far above the encoder's maxBitrate the bandwidth estimate may go (and starts): the pacer
 * sends at ~2.5× the estimate, so a frame that changes the whole screen (~40 KB: the text window
 * hidden over detailed art) left in 35 ms at an estimate of 4 Mbit/s and in ~15 ms at 10; the
 * encoder stays capped at the profile's maxBitrate (the publisher's applyQuality, lib/streaming/webrtc/publisher.ts), so what is sent on average does
 * not change (docs/performance.md, issue 11 "input-to-photon").
 */
export const ESTIMATE_HEADROOM = 2.5;
