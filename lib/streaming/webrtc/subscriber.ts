/**
 * webrtc provider, player side: answers the host's offer, shows its video and sound, and sends
 * input on the "input" data channel. A re-offer (after a dropped connection) is answered the
 * same way, so reconnecting is just joining again.
 * The video's jitter buffer is asked to hold nothing (RTCRtpReceiver.jitterBufferTarget 0): a
 * visual novel's picture should show the moment it arrives; the audio keeps the browser's own
 * target, so music and sound effects stay smooth (they are in a stream of their own).
 */
import { parseHostMessage, type PlayerMessage } from '../messages';
import type { WebRtcToken, StreamSubscriber, SubscriberEvents } from '../types';
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

export class WebRtcSubscriber implements StreamSubscriber<WebRtcToken> {
  private pc: RTCPeerConnection | null = null;
  private channel: RTCDataChannel | null = null;
  private signal: SignalClient | null = null;

  async join(token: WebRtcToken, events: SubscriberEvents): Promise<void> {
    events.onState('connecting');
    this.signal = new SignalClient({
      url: token.webrtc.signalUrl,
      token: token.webrtc.signalToken,
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
    const pc = new RTCPeerConnection({ iceServers: token.webrtc.iceServers });
    this.pc = pc;
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
    await pc.setRemoteDescription({ type: 'offer', sdp });
    const answer = await pc.createAnswer();
    await pc.setLocalDescription(answer);
    this.signal?.send({ type: 'answer', sdp: answer.sdp ?? '' });
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

  leave(): void {
    this.signal?.close();
    this.pc?.close();
    this.pc = null;
    this.channel = null;
  }
}
