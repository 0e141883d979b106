/**
 * agora provider, host side: the runtime's canvas video track and WebAudio track published to
 * the session's Agora RTC channel as custom tracks, player input received over Agora RTM on the
 * same channel and handed on raw (the host parses it with parsePlayerMessage and counts what it
 * drops). The host joins with its own uid and tokens (see docs/streaming.md): a uid other than
 * the player's, so the two never replace each other in the channel.
 *
 * Like the webrtc publisher, onState describes the player's connection: 'connected' once the
 * host's own links are up and the player is in the channel on both RTC and RTM (so a `ready`
 * sent then reaches them), 'reconnecting' when the player went away.
 */
import AgoraRTC from 'agora-rtc-sdk-ng';
import type { IAgoraRTCClient, ILocalAudioTrack, ILocalTrack, ILocalVideoTrack, VideoEncoderConfiguration } from 'agora-rtc-sdk-ng';
import type { HostMessage, QualityLevel } from '../messages';
import type { PublisherEvents, AgoraToken, StreamPublisher } from '../types';
import {
  AGORA_CLIENT_CONFIG,
  encoderConfig,
  LinkStates,
  mapSdkState,
  quietly,
  requireCredentials,
  withTimeout,
  type SdkConnectionState,
} from './common';
import { RtmLink } from './rtmLink';

/** Agora's encoder configuration for a quality level (kbps, fps, scale), from QUALITY_PROFILES. */
export function agoraEncoderConfig(level: QualityLevel): VideoEncoderConfiguration {
  const c = encoderConfig(level);
  return { bitrateMax: c.bitrateMax, frameRate: c.frameRate, scaleResolutionDownBy: c.scaleResolutionDownBy };
}

export class AgoraPublisher implements StreamPublisher<AgoraToken> {
  private client: IAgoraRTCClient | null = null;
  private rtm: RtmLink | null = null;
  private video: ILocalVideoTrack | null = null;
  private audio: ILocalAudioTrack | null = null;
  private quality: QualityLevel = 'high';
  private closing = false;
  private playerOnRtc = false;
  private playerOnRtm = false;
  private playerSeen = false;

  async publish(stream: MediaStream, token: AgoraToken, events: PublisherEvents): Promise<void> {
    requireCredentials('agora', token);
    const states = new LinkStates((s) => events.onState(s), ['rtc', 'rtm', 'player']);
    const playerState = () => {
      if (this.closing) return;
      const present = this.playerOnRtc && this.playerOnRtm;
      if (present) this.playerSeen = true;
      states.set('player', present ? 'connected' : this.playerSeen ? 'reconnecting' : 'connecting');
    };
    const client = AgoraRTC.createClient({ ...AGORA_CLIENT_CONFIG });
    this.client = client;
    client.on('connection-state-change', (cur: SdkConnectionState) => {
      if (!this.closing) states.set('rtc', mapSdkState(cur, false));
    });
    client.on('user-joined', () => {
      this.playerOnRtc = true;
      events.onPeerJoined?.();
      playerState();
    });
    client.on('user-left', () => {
      this.playerOnRtc = false;
      events.onPeerLeft?.();
      playerState();
    });

    this.rtm = new RtmLink({
      appId: token.appId,
      userId: token.rtmUid,
      token: token.rtmToken,
      channel: token.channelName,
      onRaw: (raw) => events.onRawMessage(raw),
      onState: (s) => {
        if (!this.closing) states.set('rtm', s);
      },
      onPeers: (present) => {
        this.playerOnRtm = present;
        playerState();
      },
    });

    try {
      await Promise.all([
        withTimeout(client.join(token.appId, token.channelName, token.rtcToken, Number(token.rtmUid)), 'rtc join'),
        this.rtm.open(),
      ]);
      const tracks: ILocalTrack[] = [];
      const videoSource = stream.getVideoTracks()[0];
      if (videoSource) {
        // "detail": keep text sharp, drop frames rather than resolution (a VN is mostly still text).
        this.video = AgoraRTC.createCustomVideoTrack({
          mediaStreamTrack: videoSource,
          bitrateMax: agoraEncoderConfig(this.quality).bitrateMax,
          frameRate: agoraEncoderConfig(this.quality).frameRate,
          optimizationMode: 'detail',
        });
        await this.video.setEncoderConfiguration(agoraEncoderConfig(this.quality));
        tracks.push(this.video);
      }
      const audioSource = stream.getAudioTracks()[0];
      if (audioSource) {
        this.audio = AgoraRTC.createCustomAudioTrack({ mediaStreamTrack: audioSource });
        tracks.push(this.audio);
      }
      if (this.closing) return;
      await client.publish(tracks);
    } catch (error) {
      if (!this.closing) events.onState('failed');
      this.close();
      throw error;
    }
  }

  send(msg: HostMessage): boolean {
    return this.rtm?.send(JSON.stringify(msg)) ?? false;
  }

  /** May be called before publish (the host sets the session's initial quality first). */
  async setQuality(level: QualityLevel): Promise<void> {
    this.quality = level;
    if (this.video) await this.video.setEncoderConfiguration(agoraEncoderConfig(level)).catch(() => undefined);
  }

  close(): void {
    this.closing = true;
    const { client, rtm, video, audio } = this;
    this.client = null;
    this.rtm = null;
    this.video = null;
    this.audio = null;
    const tracks = [video, audio].filter((t): t is ILocalVideoTrack | ILocalAudioTrack => t !== null);
    void (async () => {
      if (client) {
        client.removeAllListeners();
        if (tracks.length > 0) await quietly(() => client.unpublish(tracks));
        await quietly(() => client.leave());
      }
      // Releases the SDK's tracks and with them the capture tracks, which belong to this session
      // only (the runtime captures anew for each session).
      for (const t of tracks) t.close();
      if (rtm) await rtm.close();
    })();
  }
}
