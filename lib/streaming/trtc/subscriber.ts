/**
 * trtc provider, player side: the host's video and sound from the session's TRTC room, host
 * messages from the SEI of that video, input sent as SEI on a tiny carrier video the player
 * publishes (sei.ts explains why and what it costs).
 */
import TRTC from 'trtc-js-sdk';
import type { Client, LocalStream, RemoteAudioStatsMap, RemoteStream, SEIMessageEvent } from 'trtc-js-sdk';
import { parseHostMessage, type PlayerMessage } from '../messages';
import { emptyReceiverStats, type ReceiverStats, type TrtcToken, type StreamSubscriber, type SubscriberEvents } from '../types';
import { LinkStates, mapSdkState, requireCredentials, type SdkConnectionState } from '../agora/common';
import { canvasCarrier, CARRIER_FPS, CARRIER_SIZE, type UplinkCarrier } from './carrier';
import { createTrtcClient, joinRoom, leaveRoom, sendSei } from './client';
import { coalesceKeyOf, SEI_PAYLOAD_TYPE, SeiSender } from './sei';

export class TrtcSubscriber implements StreamSubscriber<TrtcToken> {
  private client: Client | null = null;
  private uplink: LocalStream | null = null;
  private carrier: UplinkCarrier | null = null;
  private sender: SeiSender | null = null;
  private stream: MediaStream | null = null;
  private leaving = false;
  private lastFrames: { decoded: number; at: number } | null = null;

  /** `makeCarrier` is replaceable for tests (jsdom has no canvas capture). */
  constructor(private readonly makeCarrier: () => UplinkCarrier = canvasCarrier) {}

  async join(token: TrtcToken, events: SubscriberEvents): Promise<void> {
    requireCredentials('trtc', token);
    const states = new LinkStates((s) => events.onState(s), ['room']);
    events.onState('connecting');
    const client = createTrtcClient(token);
    this.client = client;
    const stream = new MediaStream();
    this.stream = stream;

    client.on('connection-state-changed', (ev: { state: SdkConnectionState }) => {
      if (!this.leaving) states.set('room', mapSdkState(ev.state, false));
    });
    client.on('stream-added', ({ stream: remote }: { stream: RemoteStream }) => {
      if (!this.leaving) void client.subscribe(remote, { audio: true, video: true }).catch(() => undefined);
    });
    const show = ({ stream: remote }: { stream: RemoteStream }) => {
      if (this.leaving) return;
      for (const old of stream.getTracks()) stream.removeTrack(old);
      const video = remote.getVideoTrack();
      const audio = remote.getAudioTrack();
      if (video) stream.addTrack(video);
      if (audio) stream.addTrack(audio);
      events.onStream(stream);
    };
    client.on('stream-subscribed', show);
    client.on('stream-updated', show);
    client.on('stream-removed', () => {
      for (const old of stream.getTracks()) stream.removeTrack(old);
    });
    // The host went away (runtime restart, network): it comes back into the same room.
    client.on('peer-leave', () => {
      if (!this.leaving) states.set('room', 'reconnecting');
    });
    // Kicked out: the same user id joined elsewhere (another tab took the session over).
    client.on('client-banned', () => {
      if (!this.leaving) states.set('room', 'closed');
    });
    client.on('error', () => {
      if (!this.leaving) states.set('room', 'failed');
    });
    client.on('sei-message', (ev: SEIMessageEvent) => {
      if (this.leaving || ev.seiPayloadType !== SEI_PAYLOAD_TYPE || ev.userId === token.trtc.userId) return;
      const msg = parseHostMessage(ev.data);
      if (msg) events.onMessage(msg);
    });

    try {
      await joinRoom(client, token);
      await this.openUplink(client, token);
    } catch (error) {
      if (!this.leaving) events.onState('failed');
      this.leave();
      throw error;
    }
  }

  /** Publishes the carrier video whose SEI carries our input. */
  private async openUplink(client: Client, token: TrtcToken): Promise<void> {
    const carrier = this.makeCarrier();
    this.carrier = carrier;
    const uplink = TRTC.createStream({ userId: token.trtc.userId, videoSource: carrier.track });
    this.uplink = uplink;
    await uplink.initialize();
    uplink.setVideoProfile({ width: CARRIER_SIZE, height: CARRIER_SIZE, frameRate: CARRIER_FPS, bitrate: 30 });
    if (this.leaving) return;
    await client.publish(uplink);
    if (this.leaving) return;
    this.sender = new SeiSender({ sendSei: (b) => sendSei(client, b), kick: () => carrier.kick() });
  }

  send(msg: PlayerMessage): boolean {
    return this.sender?.push(JSON.stringify(msg), coalesceKeyOf(msg)) ?? false;
  }

  async stats(): Promise<Record<string, number | string>> {
    const client = this.client;
    if (!client) return {};
    const out: Record<string, number | string> = { provider: 'trtc' };
    const transport = await client.getTransportStats().catch(() => null);
    // Same unit as the webrtc summary (seconds), from TRTC's milliseconds.
    if (transport) out.currentRoundTripTime = (transport.rtt ?? 0) / 1000;
    const videos = await client.getRemoteVideoStats('main').catch(() => ({}));
    const v = Object.values(videos)[0];
    if (v) {
      Object.assign(out, {
        frameWidth: v.frameWidth ?? 0,
        frameHeight: v.frameHeight ?? 0,
        framesDecoded: v.framesDecoded ?? 0,
        packetsLost: v.packetsLost ?? 0,
        bytesReceived: v.bytesReceived ?? 0,
      });
      // TRTC gives no frame rate: derive it from the decoded count since the last call.
      const at = Date.now();
      const last = this.lastFrames;
      if (last && at > last.at) out.framesPerSecond = Math.max(0, ((v.framesDecoded - last.decoded) * 1000) / (at - last.at));
      this.lastFrames = { decoded: v.framesDecoded, at };
    }
    return out;
  }

  /**
   * The overlay's reading from what TRTC exposes: the downlink RTT (else the transport's), the
   * remote video's counters and size, the remote audio's counters. TRTC names no codec, gives no
   * frame rate (the overlay derives it from framesDecoded) and no jitter-buffer figure.
   */
  async liveStats(): Promise<ReceiverStats | null> {
    const client = this.client;
    if (!client) return null;
    const out = emptyReceiverStats(performance.now());
    const transport = await client.getTransportStats().catch(() => null);
    if (transport) out.rttMs = Object.values(transport.downlinksRTT ?? {})[0] ?? transport.rtt ?? null;
    const v = Object.values(await client.getRemoteVideoStats('main').catch(() => ({})))[0];
    if (v) {
      out.framesDecoded = v.framesDecoded ?? null;
      out.width = v.frameWidth ?? null;
      out.height = v.frameHeight ?? null;
      out.bytesReceived = v.bytesReceived ?? null;
      out.packetsReceived = v.packetsReceived ?? null;
      out.packetsLost = v.packetsLost ?? null;
    }
    const audio: RemoteAudioStatsMap = typeof client.getRemoteAudioStats === 'function' ? await client.getRemoteAudioStats().catch(() => ({})) : {};
    const a = Object.values(audio)[0];
    if (a) {
      out.bytesReceived = (out.bytesReceived ?? 0) + (a.bytesReceived ?? 0);
      out.packetsReceived = (out.packetsReceived ?? 0) + (a.packetsReceived ?? 0);
      out.packetsLost = (out.packetsLost ?? 0) + (a.packetsLost ?? 0);
    }
    return out;
  }

  leave(): void {
    this.leaving = true;
    const { client, uplink, carrier, sender } = this;
    this.client = null;
    this.uplink = null;
    this.carrier = null;
    this.sender = null;
    this.stream = null;
    sender?.close();
    void leaveRoom(client, uplink).then(() => carrier?.stop());
  }
}
