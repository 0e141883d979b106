/**
 * agora provider, player side: video and sound from Agora RTC (the host is the one remote user
 * that publishes in the session's channel), input and host messages over Agora RTM on the same
 * channel. Joins with the token's fields exactly: appId, channelName, rtcToken and the numeric
 * uid rtmUid (the api builds the RTC token for that uid), RTM as user rtmUid with rtmToken.
 */
import AgoraRTC from 'agora-rtc-sdk-ng';
import type { IAgoraRTCClient, IAgoraRTCRemoteUser } from 'agora-rtc-sdk-ng';
import { parseHostMessage, type PlayerMessage } from '../messages';
import { emptyReceiverStats, type AgoraToken, type ReceiverStats, type StreamSubscriber, type SubscriberEvents } from '../types';
import { AGORA_CLIENT_CONFIG, LinkStates, mapSdkState, quietly, requireCredentials, withTimeout, type SdkConnectionState } from './common';
import { RtmLink } from './rtmLink';

export class AgoraSubscriber implements StreamSubscriber<AgoraToken> {
  private client: IAgoraRTCClient | null = null;
  private rtm: RtmLink | null = null;
  private stream: MediaStream | null = null;
  private leaving = false;

  async join(token: AgoraToken, events: SubscriberEvents): Promise<void> {
    requireCredentials('agora', token);
    const states = new LinkStates((s) => events.onState(s), ['rtc', 'rtm']);
    events.onState('connecting');
    const client = AgoraRTC.createClient({ ...AGORA_CLIENT_CONFIG });
    this.client = client;
    const stream = new MediaStream();
    this.stream = stream;

    client.on('connection-state-change', (cur: SdkConnectionState) => {
      if (!this.leaving) states.set('rtc', mapSdkState(cur, false));
    });
    client.on('user-published', (user: IAgoraRTCRemoteUser, mediaType: 'audio' | 'video' | 'datachannel') => {
      if (mediaType === 'datachannel' || this.leaving) return;
      void this.take(user, mediaType, events).catch(() => undefined);
    });
    client.on('user-unpublished', (user: IAgoraRTCRemoteUser, mediaType: 'audio' | 'video' | 'datachannel') => {
      const track = mediaType === 'video' ? user.videoTrack : mediaType === 'audio' ? user.audioTrack : undefined;
      if (track) stream.removeTrack(track.getMediaStreamTrack());
    });
    // The host went away (runtime restart, network): it rejoins the same channel.
    client.on('user-left', () => {
      if (!this.leaving) states.set('rtc', 'reconnecting');
    });

    this.rtm = new RtmLink({
      appId: token.appId,
      userId: token.rtmUid,
      token: token.rtmToken,
      channel: token.channelName,
      onRaw: (raw) => {
        const msg = parseHostMessage(raw);
        if (msg) events.onMessage(msg);
      },
      onState: (s) => {
        if (!this.leaving) states.set('rtm', s);
      },
    });

    try {
      await Promise.all([
        withTimeout(client.join(token.appId, token.channelName, token.rtcToken, Number(token.rtmUid)), 'rtc join'),
        this.rtm.open(),
      ]);
    } catch (error) {
      if (!this.leaving) events.onState('failed');
      this.leave();
      throw error;
    }
  }

  /** Subscribes to one of the host's tracks and shows it in the one MediaStream of the session. */
  private async take(user: IAgoraRTCRemoteUser, mediaType: 'audio' | 'video', events: SubscriberEvents): Promise<void> {
    const client = this.client;
    const stream = this.stream;
    if (!client || !stream) return;
    const remote = mediaType === 'video' ? await client.subscribe(user, 'video') : await client.subscribe(user, 'audio');
    if (this.leaving || this.client !== client) return;
    const track = remote.getMediaStreamTrack();
    for (const old of mediaType === 'video' ? stream.getVideoTracks() : stream.getAudioTracks()) stream.removeTrack(old);
    stream.addTrack(track);
    events.onStream(stream);
  }

  send(msg: PlayerMessage): boolean {
    return this.rtm?.send(JSON.stringify(msg)) ?? false;
  }

  async stats(): Promise<Record<string, number | string>> {
    const client = this.client;
    if (!client) return {};
    const out: Record<string, number | string> = { provider: 'agora' };
    const rtc = client.getRTCStats();
    // Same unit as the webrtc summary (seconds), from Agora's milliseconds.
    out.currentRoundTripTime = (rtc.RTT ?? 0) / 1000;
    const videos = Object.values(client.getRemoteVideoStats());
    const v = videos[0];
    if (v) {
      Object.assign(out, {
        framesPerSecond: v.renderFrameRate ?? v.decodeFrameRate ?? v.receiveFrameRate ?? 0,
        frameWidth: v.receiveResolutionWidth ?? 0,
        frameHeight: v.receiveResolutionHeight ?? 0,
        packetsLost: v.receivePacketsLost ?? 0,
        bytesReceived: v.receiveBytes ?? 0,
        receiveBitrate: v.receiveBitrate ?? 0,
        end2EndDelay: v.end2EndDelay ?? 0,
        freezeRate: v.freezeRate ?? 0,
      });
    }
    return out;
  }

  /**
   * The overlay's reading from what Agora exposes: its RTT, the remote video's counters, size,
   * frame rate, bit rate and loss rate, the codecs it names, and the remote audio's counters when
   * the SDK gives them. No jitter-buffer figure: Agora does not expose one.
   */
  async liveStats(): Promise<ReceiverStats | null> {
    const client = this.client;
    if (!client) return null;
    const out = emptyReceiverStats(performance.now());
    const rtt = client.getRTCStats().RTT;
    if (typeof rtt === 'number') out.rttMs = rtt;
    const v = Object.values(client.getRemoteVideoStats())[0];
    if (v) {
      out.fps = v.renderFrameRate ?? v.decodeFrameRate ?? v.receiveFrameRate ?? null;
      out.width = v.receiveResolutionWidth ?? null;
      out.height = v.receiveResolutionHeight ?? null;
      out.bytesReceived = v.receiveBytes ?? null;
      out.bitrateBps = v.receiveBitrate ?? null;
      out.packetsReceived = v.receivePackets ?? null;
      out.packetsLost = v.receivePacketsLost ?? null;
      out.lossPct = v.packetLossRate ?? null;
      out.videoCodec = v.codecType ?? null;
    }
    let audios: ReturnType<IAgoraRTCClient['getRemoteAudioStats']> = {};
    try {
      audios = client.getRemoteAudioStats();
    } catch {
      /* not every SDK build has it: video only */
    }
    const a = Object.values(audios ?? {})[0];
    if (a) {
      if (a.receiveBytes != null) out.bytesReceived = (out.bytesReceived ?? 0) + a.receiveBytes;
      if (a.receiveBitrate != null && out.bitrateBps !== null) out.bitrateBps += a.receiveBitrate;
      if (a.receivePackets != null) out.packetsReceived = (out.packetsReceived ?? 0) + a.receivePackets;
      if (a.receivePacketsLost != null) out.packetsLost = (out.packetsLost ?? 0) + a.receivePacketsLost;
      out.audioCodec = a.codecType ?? null;
    }
    return out;
  }

  leave(): void {
    this.leaving = true;
    const client = this.client;
    const rtm = this.rtm;
    this.client = null;
    this.rtm = null;
    this.stream = null;
    if (client) {
      client.removeAllListeners();
      void quietly(() => client.leave());
    }
    if (rtm) void rtm.close();
  }
}
