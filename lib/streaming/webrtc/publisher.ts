/**
 * webrtc provider, host side: runs in the runtime page on the game host and publishes the
 * engine's MediaStream to the player, offering a new peer connection whenever the player
 * (re)joins. Input arrives on the "input" data channel.
 */
import type { HostMessage, QualityLevel } from '../messages';
import { QUALITY_PROFILES, type PublisherEvents, type WebRtcToken, type StreamPublisher } from '../types';
import { SignalClient } from './signalClient';

export class WebRtcPublisher implements StreamPublisher<WebRtcToken> {
  private pc: RTCPeerConnection | null = null;
  private channel: RTCDataChannel | null = null;
  private signal: SignalClient | null = null;
  private stream: MediaStream | null = null;
  private events: PublisherEvents | null = null;
  private quality: QualityLevel = 'high';
  private iceServers: RTCIceServer[] = [];

  async publish(stream: MediaStream, token: WebRtcToken, events: PublisherEvents): Promise<void> {
    this.stream = stream;
    this.events = events;
    this.iceServers = token.webrtc.iceServers;
    // Measured: without "detail" WebRTC starts at 480x270 and text is blurred for ~20 s.
    for (const t of stream.getVideoTracks()) t.contentHint = 'detail';
    this.signal = new SignalClient({
      url: token.webrtc.signalUrl,
      token: token.webrtc.signalToken,
      onMessage: (m) => {
        if (m.type === 'peer-joined' && m.role === 'player') {
          events.onPeerJoined?.();
          void this.offer();
        } else if (m.type === 'peer-left' && m.role === 'player') {
          events.onPeerLeft?.();
        } else if (m.type === 'answer') {
          void this.pc?.setRemoteDescription({ type: 'answer', sdp: m.sdp }).catch(() => events.onState('failed'));
        } else if (m.type === 'ice' && m.candidate) {
          void this.pc?.addIceCandidate(m.candidate).catch(() => undefined);
        }
      },
      onRefused: () => events.onState('closed'),
    });
    this.signal.connect();
  }

  /** A fresh connection for a (re)joining player: old one closed, tracks and channel added. */
  private async offer(): Promise<void> {
    if (!this.stream || !this.signal || !this.events) return;
    this.pc?.close();
    const events = this.events;
    const pc = new RTCPeerConnection({ iceServers: this.iceServers });
    this.pc = pc;
    // Each track in a stream of its own (its own msid): the receiver then does not hold video
    // frames back to keep lip sync with the audio's deeper jitter buffer, which cost ~70 ms of
    // input-to-photon latency (docs/performance.md). A visual novel has no lips to sync.
    for (const track of this.stream.getTracks()) pc.addTrack(track, new MediaStream([track]));
    const channel = pc.createDataChannel('input', { ordered: true });
    this.channel = channel;
    channel.onmessage = (ev) => events.onRawMessage(ev.data);
    pc.onicecandidate = (ev) => this.signal?.send({ type: 'ice', candidate: ev.candidate ? ev.candidate.toJSON() : null });
    pc.onconnectionstatechange = () => {
      if (this.pc !== pc) return;
      const s = pc.connectionState;
      events.onState(s === 'new' ? 'connecting' : s === 'connected' ? 'connected' : s === 'disconnected' ? 'reconnecting' : s === 'failed' ? 'failed' : s === 'closed' ? 'closed' : 'connecting');
    };
    const offer = await pc.createOffer();
    await pc.setLocalDescription(offer);
    this.signal.send({ type: 'offer', sdp: offer.sdp ?? '' });
    await this.applyQuality(pc);
  }

  send(msg: HostMessage): boolean {
    if (this.channel?.readyState !== 'open') return false;
    this.channel.send(JSON.stringify(msg));
    return true;
  }

  async setQuality(level: QualityLevel): Promise<void> {
    this.quality = level;
    if (this.pc) await this.applyQuality(this.pc);
  }

  private async applyQuality(pc: RTCPeerConnection): Promise<void> {
    const profile = QUALITY_PROFILES[this.quality];
    for (const sender of pc.getSenders()) {
      if (sender.track?.kind !== 'video') continue;
      const params = sender.getParameters();
      if (!params.encodings || params.encodings.length === 0) params.encodings = [{}];
      for (const e of params.encodings) {
        e.maxBitrate = profile.maxBitrate;
        e.scaleResolutionDownBy = profile.scaleResolutionDownBy;
        e.maxFramerate = profile.maxFramerate;
      }
      await sender.setParameters(params).catch(() => undefined);
    }
  }

  close(): void {
    this.signal?.close();
    this.pc?.close();
    this.pc = null;
    this.channel = null;
  }
}
