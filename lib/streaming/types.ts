/**
 * One interface for every streaming provider (webrtc, agora, trtc). The same adapter runs on
 * both sides: the host's runtime page publishes, the player's page subscribes.
 */
import type { SessionTokenAnswer as SessionTokenWire } from '../api-types/schemas/sessions';
import type { HostMessage, PlayerMessage, QualityLevel } from './messages';

export const PROVIDER_NAMES = ['webrtc', 'agora', 'trtc'] as const;
export type ProviderName = (typeof PROVIDER_NAMES)[number];

/** The Session token of spec section 3, as the browser uses it. */
export interface SessionToken {
  provider: ProviderName;
  appId: string;
  channelName: string;
  rtcToken: string;
  rtmToken: string;
  rtmUid: string;
  trtc: { sdkAppId: string; userId: string; userSig: string; roomId: string };
  webrtc: { signalUrl: string; signalToken: string; iceServers: RTCIceServer[] };
}

export function toSessionToken(w: SessionTokenWire): SessionToken {
  return {
    provider: w.provider,
    appId: w.agora_app_id,
    channelName: w.agora_channel_name,
    rtcToken: w.agora_rtc_token,
    rtmToken: w.agora_rtm_token,
    rtmUid: w.user_id_for_client,
    trtc: { sdkAppId: w.trtc_sdk_app_id, userId: w.user_id_for_client, userSig: w.trtc_user_sig_for_client, roomId: w.trtc_room_id },
    webrtc: { signalUrl: w.webrtc_signal_url, signalToken: w.webrtc_signal_token, iceServers: w.webrtc_ice_servers },
  };
}

export type ConnectionState = 'connecting' | 'connected' | 'reconnecting' | 'disconnected' | 'failed' | 'closed';

export interface SubscriberEvents {
  onStream(stream: MediaStream): void;
  onMessage(msg: HostMessage): void;
  onState(state: ConnectionState): void;
}

/** The player's side: receives video+audio, sends input. */
export interface StreamSubscriber {
  join(token: SessionToken, events: SubscriberEvents): Promise<void>;
  send(msg: PlayerMessage): boolean;
  /** A compact stats summary for POST /v1/collect/stats/webrtc. */
  stats(): Promise<Record<string, number | string>>;
  leave(): void;
}

export interface PublisherEvents {
  /** Raw data from the player; the host parses it with parsePlayerMessage. */
  onRawMessage(raw: unknown): void;
  onState(state: ConnectionState): void;
  onPeerJoined?(): void;
  onPeerLeft?(): void;
}

/** The host's side: publishes the runtime's MediaStream, receives input. */
export interface StreamPublisher {
  publish(stream: MediaStream, token: SessionToken, events: PublisherEvents): Promise<void>;
  send(msg: HostMessage): boolean;
  setQuality(level: QualityLevel): Promise<void>;
  close(): void;
}

/** Encoder settings per quality level (the host changes bitrate and resolution). */
export const QUALITY_PROFILES: Record<QualityLevel, { maxBitrate: number; scaleResolutionDownBy: number; maxFramerate: number }> = {
  high: { maxBitrate: 4_000_000, scaleResolutionDownBy: 1, maxFramerate: 30 },
  medium: { maxBitrate: 1_500_000, scaleResolutionDownBy: 1.5, maxFramerate: 30 },
  low: { maxBitrate: 600_000, scaleResolutionDownBy: 2, maxFramerate: 24 },
};
