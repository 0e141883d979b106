/**
 * trtc provider, host side: the runtime's canvas video and WebAudio tracks published to the
 * session's TRTC room as a custom stream, host messages sent as SEI of that video, and the
 * player's input read from the SEI of the player's carrier video (sei.ts), handed on raw for
 * the host to parse. The host joins with its own user id and UserSig (docs/streaming.md).
 *
 * Like the webrtc publisher, onState describes the player's connection: 'connected' once the
 * room is joined and the player's carrier is subscribed (its input can arrive), 'reconnecting'
 * when the player left.
 */
import TRTC from 'trtc-js-sdk';
import type { Client, LocalStream, RemoteStream, SEIMessageEvent, VideoProfile } from 'trtc-js-sdk';
import type { HostMessage, QualityLevel } from '../messages';
import type { PublisherEvents, TrtcToken, StreamPublisher } from '../types';
import { encoderConfig, LinkStates, mapSdkState, requireCredentials, type SdkConnectionState } from '../agora/common';
import { createTrtcClient, joinRoom, leaveRoom, sendSei } from './client';
import { requestFrameOf, SEI_PAYLOAD_TYPE, SeiSender } from './sei';

/** TRTC's video profile for a quality level and a source size (TRTC takes sizes and kbps). */
export function trtcVideoProfile(level: QualityLevel, source?: { width?: number; height?: number }): VideoProfile {
  const c = encoderConfig(level, source);
  const profile: VideoProfile = { frameRate: c.frameRate, bitrate: c.bitrateMax };
  if (c.width && c.height) {
    profile.width = c.width;
    profile.height = c.height;
  }
  return profile;
}

export class TrtcPublisher implements StreamPublisher<TrtcToken> {
  private client: Client | null = null;
  private local: LocalStream | null = null;
  private sender: SeiSender | null = null;
  private source: { width?: number; height?: number } | undefined;
  private quality: QualityLevel = 'high';
  private closing = false;

  async publish(stream: MediaStream, token: TrtcToken, events: PublisherEvents): Promise<void> {
    requireCredentials('trtc', token);
    const states = new LinkStates((s) => events.onState(s), ['room', 'player']);
    const client = createTrtcClient(token);
    this.client = client;
    let playerSeen = false;

    client.on('connection-state-changed', (ev: { state: SdkConnectionState }) => {
      if (!this.closing) states.set('room', mapSdkState(ev.state, false));
    });
    client.on('peer-join', () => events.onPeerJoined?.());
    client.on('peer-leave', () => {
      events.onPeerLeft?.();
      if (!this.closing && playerSeen) states.set('player', 'reconnecting');
    });
    // The player's carrier video: subscribed for its SEI only.
    client.on('stream-added', ({ stream: remote }: { stream: RemoteStream }) => {
      if (!this.closing) void client.subscribe(remote, { audio: false, video: true }).catch(() => undefined);
    });
    client.on('stream-subscribed', () => {
      if (this.closing) return;
      playerSeen = true;
      states.set('player', 'connected');
    });
    client.on('client-banned', () => {
      if (!this.closing) states.set('room', 'closed');
    });
    client.on('error', () => {
      if (!this.closing) states.set('room', 'failed');
    });
    client.on('sei-message', (ev: SEIMessageEvent) => {
      if (this.closing || ev.seiPayloadType !== SEI_PAYLOAD_TYPE || ev.userId === token.trtc.userId) return;
      events.onRawMessage(ev.data);
    });

    try {
      await joinRoom(client, token);
      const video = stream.getVideoTracks()[0];
      const audio = stream.getAudioTracks()[0];
      this.source = video?.getSettings?.();
      const local = TRTC.createStream({ userId: token.trtc.userId, videoSource: video, audioSource: audio });
      this.local = local;
      await local.initialize();
      // "detail": keep text sharp rather than motion smooth (a VN is mostly still text).
      local.setVideoContentHint('detail');
      local.setVideoProfile(trtcVideoProfile(this.quality, this.source));
      if (this.closing) return;
      await client.publish(local);
      if (this.closing) return;
      this.sender = new SeiSender({ sendSei: (b) => sendSei(client, b), kick: () => requestFrameOf(video) });
    } catch (error) {
      if (!this.closing) events.onState('failed');
      this.close();
      throw error;
    }
  }

  send(msg: HostMessage): boolean {
    return this.sender?.push(JSON.stringify(msg)) ?? false;
  }

  /** May be called before publish (the host sets the session's initial quality first). */
  async setQuality(level: QualityLevel): Promise<void> {
    this.quality = level;
    this.local?.setVideoProfile(trtcVideoProfile(level, this.source));
  }

  close(): void {
    this.closing = true;
    const { client, local, sender } = this;
    this.client = null;
    this.local = null;
    this.sender = null;
    sender?.close();
    void leaveRoom(client, local);
  }
}
