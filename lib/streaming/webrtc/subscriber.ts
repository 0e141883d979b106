/**
 * webrtc provider, player side: answers the host's offer, shows its video and sound, and sends
 * input on the "input" data channel. A re-offer (after a dropped connection) is answered the
 * same way, so reconnecting is just joining again.
 * The video's jitter buffer is asked to hold nothing (RTCRtpReceiver.jitterBufferTarget 0): a
 * visual novel's picture should show the moment it arrives; the audio keeps the browser's own
 * target, so music and sound effects stay smooth (they are in a stream of their own).
 * The first peer connection is made when join() is called, while the signalling socket opens and
 * the host's offer is on its way (a browser's first connection also starts its WebRTC machinery
 * and a DTLS certificate); the first offer is answered on it, a re-offer on a fresh one.
 */
import { newPeerId } from '../signal';
import { parseHostMessage, type PlayerMessage } from '../messages';
import { emptyReceiverStats, type ReceiverStats, type WebRtcToken, type StreamSubscriber, type SubscriberEvents } from '../types';
import { SignalClient } from './signalClient';

/** The video receiver's jitter-buffer target, ms (docs/streaming.md). */
export const VIDEO_JITTER_BUFFER_TARGET_MS = 0;

/** Sets the hint where the browser has it (Chromium ≥ 114); older ones keep their default. */
export function lowerJitterBuffer(receiver: RTCRtpReceiver, kind: string): void {
  if (kind !== 'video' || !('jitterBufferTarget' in receiver)) return;
  try {
    (receiver as RTCRtpReceiver & { jitterBufferTarget: number | null }).jitterBufferTarget = VIDEO_JITTER_BUFFER_TARGET_MS;
  } catch {
    /* out of range for this browser: keep its default */
  }
}

type Stat = Record<string, unknown> & { type: string; id: string };
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const add = (a: number | null, b: unknown): number | null => (num(b) === null ? a : (a ?? 0) + (b as number));

/**
 * The overlay's reading from one getStats() report (W3C webrtc-stats): the video and audio
 * inbound-rtp (counters, frame size and rate, jitter buffer), their codecs, and the round trip of
 * the selected candidate pair (the transport's, else the nominated succeeded pair).
 */
export function receiverStatsFromReport(report: { forEach(cb: (s: Stat) => void): void }, at: number): ReceiverStats {
  const out = emptyReceiverStats(at);
  const byId = new Map<string, Stat>();
  report.forEach((s) => byId.set(s.id, s));
  let pair: Stat | undefined;
  for (const s of byId.values()) {
    if (s.type === 'transport' && typeof s.selectedCandidatePairId === 'string') pair = byId.get(s.selectedCandidatePairId) ?? pair;
  }
  const codecName = (s: Stat) => {
    const c = typeof s.codecId === 'string' ? byId.get(s.codecId) : undefined;
    const mime = typeof c?.mimeType === 'string' ? c.mimeType : '';
    return mime ? mime.replace(/^(video|audio)\//, '') : null;
  };
  for (const s of byId.values()) {
    if (!pair && s.type === 'candidate-pair' && s.state === 'succeeded' && s.nominated) pair = s;
    if (s.type !== 'inbound-rtp') continue;
    out.bytesReceived = add(out.bytesReceived, s.bytesReceived);
    out.packetsReceived = add(out.packetsReceived, s.packetsReceived);
    out.packetsLost = add(out.packetsLost, s.packetsLost);
    if (s.kind === 'video') {
      out.fps = num(s.framesPerSecond);
      out.framesDecoded = num(s.framesDecoded);
      out.width = num(s.frameWidth);
      out.height = num(s.frameHeight);
      out.jitterBufferDelayS = num(s.jitterBufferDelay);
      out.jitterBufferEmitted = num(s.jitterBufferEmittedCount);
      out.videoCodec = codecName(s);
    } else if (s.kind === 'audio') {
      out.audioCodec = codecName(s);
    }
  }
  const rtt = num(pair?.currentRoundTripTime);
  if (rtt !== null) out.rttMs = rtt * 1000;
  return out;
}

export class WebRtcSubscriber implements StreamSubscriber<WebRtcToken> {
  private pc: RTCPeerConnection | null = null;
  private channel: RTCDataChannel | null = null;
  private signal: SignalClient | null = null;
  /** The connection made at join() for the first offer (null once used). */
  private ahead: RTCPeerConnection | null = null;

  async join(token: WebRtcToken, events: SubscriberEvents): Promise<void> {
    events.onState('connecting');
    this.ahead = this.connection(token, events);
    this.signal = new SignalClient({
      url: token.webrtc.signalUrl,
      token: token.webrtc.signalToken,
      // the same id on every reconnect: the host keeps a working connection to this page
      peerId: newPeerId(),
      onMessage: (m) => {
        if (m.type === 'offer') void this.answer(m.sdp, token, events).catch(() => events.onState('failed'));
        else if (m.type === 'ice' && m.candidate) void this.pc?.addIceCandidate(m.candidate).catch(() => undefined);
        else if (m.type === 'peer-left' && m.role === 'host') events.onState('reconnecting');
      },
      onRefused: () => events.onState('closed'),
    });
    this.signal.connect();
  }

  private async answer(sdp: string, token: WebRtcToken, events: SubscriberEvents): Promise<void> {
    this.pc?.close();
    const pc = this.ahead ?? this.connection(token, events);
    this.ahead = null;
    this.pc = pc;
    await pc.setRemoteDescription({ type: 'offer', sdp });
    const answer = await pc.createAnswer();
    // The answer goes out before it is applied here: the host can start its side (ICE checks,
    // the DTLS handshake this side opens as its client) a few ms sooner, instead of the first
    // ClientHello arriving before the host has the answer and waiting for its retransmission
    // (docs/streaming.md "The join and the start"). What is sent is the same SDP.
    this.signal?.send({ type: 'answer', sdp: answer.sdp ?? '' });
    await pc.setLocalDescription(answer);
  }

  /** A peer connection for an offer, with its track, channel, ICE and state handlers. */
  private connection(token: WebRtcToken, events: SubscriberEvents): RTCPeerConnection {
    const pc = new RTCPeerConnection({ iceServers: token.webrtc.iceServers });
    const stream = new MediaStream();
    pc.ontrack = (ev) => {
      lowerJitterBuffer(ev.receiver, ev.track.kind);
      stream.addTrack(ev.track);
      events.onStream(stream);
    };
    pc.ondatachannel = (ev) => {
      this.channel = ev.channel;
      ev.channel.onmessage = (m) => {
        const msg = parseHostMessage(m.data);
        if (msg) events.onMessage(msg);
      };
    };
    pc.onicecandidate = (ev) => this.signal?.send({ type: 'ice', candidate: ev.candidate ? ev.candidate.toJSON() : null });
    pc.onconnectionstatechange = () => {
      if (this.pc !== pc) return;
      const s = pc.connectionState;
      events.onState(s === 'connected' ? 'connected' : s === 'disconnected' ? 'reconnecting' : s === 'failed' ? 'failed' : s === 'closed' ? 'closed' : 'connecting');
    };
    return pc;
  }

  send(msg: PlayerMessage): boolean {
    if (this.channel?.readyState !== 'open') return false;
    this.channel.send(JSON.stringify(msg));
    return true;
  }

  async stats(): Promise<Record<string, number | string>> {
    const out: Record<string, number | string> = {};
    if (!this.pc) return out;
    const report = await this.pc.getStats();
    report.forEach((s) => {
      if (s.type === 'inbound-rtp' && s.kind === 'video') {
        Object.assign(out, {
          framesPerSecond: s.framesPerSecond ?? 0,
          frameWidth: s.frameWidth ?? 0,
          frameHeight: s.frameHeight ?? 0,
          framesDecoded: s.framesDecoded ?? 0,
          framesDropped: s.framesDropped ?? 0,
          packetsLost: s.packetsLost ?? 0,
          jitter: s.jitter ?? 0,
          bytesReceived: s.bytesReceived ?? 0,
          // mean time a frame waited in the jitter buffer, ms
          jitterBufferMs: s.jitterBufferEmittedCount ? Math.round((1000 * (s.jitterBufferDelay ?? 0)) / s.jitterBufferEmittedCount) : 0,
        });
      }
      if (s.type === 'candidate-pair' && s.state === 'succeeded' && s.nominated) {
        out.currentRoundTripTime = s.currentRoundTripTime ?? 0;
        out.availableIncomingBitrate = s.availableIncomingBitrate ?? 0;
      }
    });
    return out;
  }

  async liveStats(): Promise<ReceiverStats | null> {
    if (!this.pc) return null;
    const report = await this.pc.getStats();
    return receiverStatsFromReport(report as unknown as { forEach(cb: (s: Stat) => void): void }, performance.now());
  }

  leave(): void {
    this.signal?.close();
    this.pc?.close();
    this.ahead?.close();
    this.ahead = null;
    this.pc = null;
    this.channel = null;
  }
}
