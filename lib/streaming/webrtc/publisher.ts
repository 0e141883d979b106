/**
 * webrtc provider, host side: runs in the runtime page on the game host and publishes the
 * engine's MediaStream to the player, offering a new peer connection whenever the player
 * (re)joins. Input arrives on the "input" data channel.
 * The signalling may open before the game has drawn anything (`publish(null, …)` then
 * `setStream` once the engine is up: the socket's handshake overlaps the game's start,
 * docs/streaming.md); a player who joins first gets an offer with empty video/audio senders whose tracks are put in
 * with replaceTrack, without renegotiating. The video codec the host prefers goes first in the
 * offer (setCodecPreferences); the others stay listed, so a player without it still connects.
 */
import type { HostMessage, QualityLevel } from '../messages';
import { QUALITY_PROFILES, type PublisherEvents, type VideoCodec, type WebRtcToken, type StreamPublisher } from '../types';
import { SignalClient } from './signalClient';

export interface WebRtcPublisherOptions {
  /** Put this codec first in the offer (default: the browser's own order). */
  videoCodec?: VideoCodec;
}

const MIME: Record<VideoCodec, string> = { vp8: 'video/vp8', vp9: 'video/vp9', h264: 'video/h264' };

/**
 * The browser's video codecs with `preferred` first. H.264: constrained baseline with
 * packetization-mode 1 first (what every receiver decodes). Exported for tests.
 */
export function orderCodecs<C extends { mimeType: string; sdpFmtpLine?: string }>(codecs: C[], preferred: VideoCodec): C[] {
  const want = MIME[preferred];
  const rank = (c: C): number => {
    if (c.mimeType.toLowerCase() !== want) return 2;
    if (preferred !== 'h264') return 0;
    const f = c.sdpFmtpLine ?? '';
    return /packetization-mode=1/.test(f) && /profile-level-id=42e0/i.test(f) ? 0 : 1;
  };
  return codecs.map((c, i) => ({ c, i })).sort((a, b) => rank(a.c) - rank(b.c) || a.i - b.i).map((x) => x.c);
}

export class WebRtcPublisher implements StreamPublisher<WebRtcToken> {
  private pc: RTCPeerConnection | null = null;
  private channel: RTCDataChannel | null = null;
  private signal: SignalClient | null = null;
  private stream: MediaStream | null = null;
  private events: PublisherEvents | null = null;
  private quality: QualityLevel = 'high';
  private iceServers: RTCIceServer[] = [];

  constructor(private readonly opts: WebRtcPublisherOptions = {}) {}

  /** Opens the signalling; `stream` may be null and come later with setStream. */
  async publish(stream: MediaStream | null, token: WebRtcToken, events: PublisherEvents): Promise<void> {
    this.events = events;
    this.iceServers = token.webrtc.iceServers;
    if (stream) this.useStream(stream);
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

  /**
   * The engine's stream, once it has drawn: into the current connection's empty senders (if a
   * player joined already) and into every later offer. (The bridge asks the engine for a fresh
   * frame when a player connects: a frame drawn before that never reaches them.)
   */
  async setStream(stream: MediaStream): Promise<void> {
    this.useStream(stream);
    const pc = this.pc;
    if (!pc) return;
    const used = new Set<RTCRtpSender>();
    for (const track of stream.getTracks()) {
      const t = pc.getTransceivers().find((x) => !x.sender.track && !used.has(x.sender) && x.receiver.track.kind === track.kind);
      if (!t) continue;
      used.add(t.sender);
      await t.sender.replaceTrack(track).catch(() => undefined);
    }
    await this.applyQuality(pc);
  }

  private useStream(stream: MediaStream): void {
    this.stream = stream;
    // Measured: without "detail" WebRTC starts at 480x270 and text is blurred for ~20 s.
    for (const t of stream.getVideoTracks()) t.contentHint = 'detail';
  }

  /** A fresh connection for a (re)joining player: old one closed, tracks and channel added. */
  private async offer(): Promise<void> {
    if (!this.signal || !this.events) return;
    this.pc?.close();
    const events = this.events;
    const pc = new RTCPeerConnection({ iceServers: this.iceServers });
    this.pc = pc;
    // Each track in a stream of its own (its own msid): the receiver then does not hold video
    // frames back to keep lip sync with the audio's deeper jitter buffer, which cost ~70 ms of
    // input-to-photon latency (docs/performance.md). A visual novel has no lips to sync.
    if (this.stream) {
      for (const track of this.stream.getTracks()) pc.addTrack(track, new MediaStream([track]));
    } else {
      // the game is still starting: empty senders, filled by setStream
      for (const kind of ['video', 'audio']) pc.addTransceiver(kind, { direction: 'sendonly', streams: [new MediaStream()] });
    }
    this.preferCodec(pc);
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

  private preferCodec(pc: RTCPeerConnection): void {
    const preferred = this.opts.videoCodec;
    if (!preferred) return;
    for (const t of pc.getTransceivers()) {
      if (t.receiver.track.kind !== 'video' || typeof t.setCodecPreferences !== 'function') continue;
      // the send side's list where the browser has one, else the receive side's (older spec)
      for (const caps of [RTCRtpSender.getCapabilities?.('video'), RTCRtpReceiver.getCapabilities?.('video')]) {
        if (!caps?.codecs.some((c) => c.mimeType.toLowerCase() === MIME[preferred])) continue;
        try {
          t.setCodecPreferences(orderCodecs(caps.codecs, preferred));
          break;
        } catch {
          /* not accepted from this list: try the other, else keep the browser's order */
        }
      }
    }
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
    for (const t of pc.getTransceivers()) {
      // by the transceiver's kind: a sender waiting for setStream has no track yet
      if (t.receiver.track.kind !== 'video') continue;
      const sender = t.sender;
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
