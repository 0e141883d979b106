/**
 * A bare test player (bundled by the fake api into /player.js): the real WebRtcSubscriber of
 * lib/streaming, a <video> showing what the host publishes, and hooks for tests:
 * window.player.join / send / sendRaw / leave / messages / states / events / video() / jitterBuffer() / audio().
 * `events` records, with the page's clock, every peer connection's state and data channel event
 * and each refused sendRaw, so a test that waits in vain can say what the player's side saw (the
 * one unexplained failure of agent.int, docs/performance.md "twelfth round", was a player whose
 * channel refused to send while its connection stayed up).
 */
import type { HostMessage, PlayerMessage } from '../../../lib/streaming/messages';
import { WebRtcSubscriber } from '../../../lib/streaming/webrtc/subscriber';

interface TestPlayer {
  messages: HostMessage[];
  states: string[];
  /** Peer connection and data channel events, `<ms> <what>` (see the file header). */
  events: string[];
  join(signalUrl: string, token: string): Promise<void>;
  send(msg: PlayerMessage): boolean;
  /** Sends anything on the data channel, unvalidated (malformed-input tests). */
  sendRaw(raw: string): boolean;
  /** Sends `n` raw messages as fast as possible; returns how many were sent. */
  flood(raw: string, n: number): number;
  leave(): void;
  video(): { width: number; height: number; frames: number; time: number };
  /** The received video's jitter buffer so far (inbound-rtp): frames it let go and their summed wait, ms. */
  jitterBuffer(): Promise<{ frames: number; delayMs: number } | null>;
  /** The received audio so far (inbound-rtp): packets, samples played and of them concealed (made up for missing packets). */
  audio(): Promise<{ packets: number; samples: number; concealed: number } | null>;
}

declare global {
  interface Window {
    player: TestPlayer;
  }
}

const events: string[] = [];
const note = (what: string): void => void events.push(`${Math.round(performance.now())} ${what}`);

/** Every peer connection the page makes reports its state and its data channels into `events`. */
class TracedPeerConnection extends window.RTCPeerConnection {
  private static count = 0;
  constructor(config?: RTCConfiguration) {
    super(config);
    const n = ++TracedPeerConnection.count;
    note(`pc${n} new`);
    this.addEventListener('connectionstatechange', () => note(`pc${n} ${this.connectionState}`));
    this.addEventListener('datachannel', (ev) => {
      const ch = ev.channel;
      note(`pc${n} datachannel ${ch.label}#${ch.id} ${ch.readyState}`);
      for (const e of ['open', 'closing', 'close', 'error']) ch.addEventListener(e, () => note(`pc${n} channel#${ch.id} ${e}`));
    });
  }
}
window.RTCPeerConnection = TracedPeerConnection;

const video = document.getElementById('v') as HTMLVideoElement;
let sub: WebRtcSubscriber | null = null;

function channel(): RTCDataChannel | null {
  return (sub as unknown as { channel: RTCDataChannel | null } | null)?.channel ?? null;
}

function peer(): RTCPeerConnection | null {
  return (sub as unknown as { pc: RTCPeerConnection | null } | null)?.pc ?? null;
}

window.player = {
  messages: [],
  states: [],
  events,
  async join(signalUrl, token) {
    sub = new WebRtcSubscriber();
    await sub.join(
      { provider: 'webrtc', webrtc: { signalUrl, signalToken: token, iceServers: [] } },
      {
        onStream: (s) => {
          if (video.srcObject !== s) video.srcObject = s;
          void video.play().catch(() => undefined);
        },
        onMessage: (m) => window.player.messages.push(m),
        onState: (s) => window.player.states.push(s),
      },
    );
  },
  send: (msg) => sub?.send(msg) ?? false,
  sendRaw(raw) {
    const ch = channel();
    if (ch?.readyState !== 'open') {
      note(`sendRaw refused: channel ${ch ? `${ch.label}#${ch.id} ${ch.readyState}` : 'none'}`);
      return false;
    }
    ch.send(raw);
    return true;
  },
  flood(raw, n) {
    const ch = channel();
    if (ch?.readyState !== 'open') return 0;
    for (let i = 0; i < n; i++) ch.send(raw);
    return n;
  },
  leave() {
    sub?.leave();
    sub = null;
  },
  video() {
    const q = video.getVideoPlaybackQuality?.();
    return { width: video.videoWidth, height: video.videoHeight, frames: q?.totalVideoFrames ?? 0, time: video.currentTime };
  },
  async jitterBuffer() {
    const pc = peer();
    if (!pc) return null;
    let out: { frames: number; delayMs: number } | null = null;
    (await pc.getStats()).forEach((s: { type: string; kind?: string; jitterBufferEmittedCount?: number; jitterBufferDelay?: number }) => {
      if (s.type === 'inbound-rtp' && s.kind === 'video') out = { frames: s.jitterBufferEmittedCount ?? 0, delayMs: (s.jitterBufferDelay ?? 0) * 1000 };
    });
    return out;
  },
  async audio() {
    const pc = peer();
    if (!pc) return null;
    let out: { packets: number; samples: number; concealed: number } | null = null;
    (await pc.getStats()).forEach((s: { type: string; kind?: string; packetsReceived?: number; totalSamplesReceived?: number; concealedSamples?: number }) => {
      if (s.type === 'inbound-rtp' && s.kind === 'audio') out = { packets: s.packetsReceived ?? 0, samples: s.totalSamplesReceived ?? 0, concealed: s.concealedSamples ?? 0 };
    });
    return out;
  },
};
