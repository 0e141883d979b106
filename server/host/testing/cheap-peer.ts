/**
 * A cheap receiving peer for the host-cost bench (issue 11): a player that joins a session over
 * the same signalling as the real one (lib/streaming/webrtc/signalClient through the api's
 * relay, or the fake api's), answers the host's offer with werift (WebRTC in pure TypeScript, no
 * browser), receives the video and audio RTP without decoding it, counts video frames by the
 * RTP marker bit (the last packet of a frame), and sends input on the "input" data channel as the
 * player does. It answers with NACK, PLI, REMB and transport-wide congestion control feedback, so
 * the host's sender sees a receiver much like a browser and ramps its bitrate as it would.
 *
 * Only loopback is used: werift's socket is bound to 127.0.0.1 and only 127.0.0.1 candidates are
 * exchanged (the machine's other addresses are never a target).
 *
 * Runs in any Node process; the bench runs its peers in a child process of their own
 * (cheap-peer-process.ts) so their CPU is measured apart from the host's.
 */
// a namespace import: werift's use…() factories are not React hooks (eslint's hook rule reads them so)
import * as werift from 'werift';
import { WebSocket as WsWebSocket } from 'ws';
import type { NamedKey, PlayerMessage } from '../../../lib/streaming/messages';
import { SignalClient } from '../../../lib/streaming/webrtc/signalClient';

// lib's SignalClient uses the WebSocket global (browsers, Node ≥ 22); Node 20 has none.
if (typeof (globalThis as { WebSocket?: unknown }).WebSocket === 'undefined') {
  (globalThis as { WebSocket?: unknown }).WebSocket = WsWebSocket;
}

const LOOPBACK = '127.0.0.1';

export interface CheapPeerStats {
  /** Video frames received whole (RTP packets with the marker bit). */
  frames: number;
  /** Video RTP packets and payload bytes received. */
  packets: number;
  bytes: number;
  /** Audio RTP packets and payload bytes received (Opus: silence is a few bytes a packet, music tens to hundreds). */
  audioPackets: number;
  audioBytes: number;
  /** Data channel messages from the host. */
  messages: number;
  /** Date.now() of this reading. */
  at: number;
  connection: string;
  /** The negotiated video codec (e.g. video/VP8). */
  codec: string;
}

const video = (mimeType: string, parameters?: string) =>
  new werift.RTCRtpCodecParameters({
    mimeType,
    clockRate: 90000,
    rtcpFeedback: [werift.useNACK(), werift.usePLI(), werift.useREMB(), werift.useTWCC()],
    ...(parameters ? { parameters } : {}),
  });

/** Keeps only loopback candidates in an SDP (werift may list the machine's other addresses). */
function loopbackOnly(sdp: string): string {
  return sdp
    .split('\r\n')
    .filter((l) => !l.startsWith('a=candidate:') || l.includes(` ${LOOPBACK} `))
    .join('\r\n');
}

export class CheapPeer {
  private pc: werift.RTCPeerConnection | null = null;
  private channel: werift.RTCDataChannel | null = null;
  private signal: SignalClient | null = null;
  private timer: NodeJS.Timeout | null = null;
  private s = { frames: 0, packets: 0, bytes: 0, audioPackets: 0, audioBytes: 0, messages: 0, codec: '' };

  /** Joins: resolves once the first whole video frame arrived (rejects after `timeoutMs`). */
  join(signalUrl: string, token: string, timeoutMs = 30_000): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`cheap peer: no video frame within ${timeoutMs} ms (${this.pc?.connectionState ?? 'no offer'})`)), timeoutMs);
      const firstFrame = () => {
        clearTimeout(t);
        resolve();
      };
      this.signal = new SignalClient({
        url: signalUrl,
        token,
        onMessage: (m) => {
          if (m.type === 'offer') void this.answer(m.sdp, firstFrame).catch((e: Error) => reject(e));
          else if (m.type === 'ice' && m.candidate?.candidate?.includes(` ${LOOPBACK} `)) {
            void this.pc?.addIceCandidate({ candidate: m.candidate.candidate, sdpMid: m.candidate.sdpMid ?? undefined, sdpMLineIndex: m.candidate.sdpMLineIndex ?? undefined }).catch(() => undefined);
          }
        },
        onRefused: (reason) => reject(new Error(`cheap peer: signalling refused (${reason})`)),
      });
      this.signal.connect();
    });
  }

  private async answer(sdp: string, firstFrame: () => void): Promise<void> {
    await this.pc?.close();
    const pc = new werift.RTCPeerConnection({
      iceServers: [],
      iceUseIpv6: false,
      iceInterfaceAddresses: { udp4: LOOPBACK },
      iceAdditionalHostAddresses: [LOOPBACK],
      codecs: {
        video: [video('video/VP8'), video('video/VP9'), video('video/H264', 'profile-level-id=42e01f;packetization-mode=1;level-asymmetry-allowed=1'), video('video/AV1')],
        audio: [werift.useOPUS()],
      },
      headerExtensions: { video: [werift.useSdesMid(), werift.useAbsSendTime(), werift.useTransportWideCC()], audio: [werift.useSdesMid()] },
    });
    this.pc = pc;
    pc.onTrack.subscribe((track) => {
      if (track.kind !== 'video') {
        track.onReceiveRtp.subscribe((rtp) => {
          this.s.audioPackets += 1;
          this.s.audioBytes += rtp.payload.length;
        });
        return;
      }
      track.onReceiveRtp.subscribe((rtp) => {
        this.s.packets += 1;
        this.s.bytes += rtp.payload.length;
        if (this.s.packets === 1) {
          const codecs = pc.getTransceivers().find((t) => t.kind === 'video')?.codecs ?? [];
          this.s.codec = codecs.find((c) => c.payloadType === rtp.header.payloadType)?.mimeType ?? `pt ${rtp.header.payloadType}`;
        }
        if (rtp.header.marker) {
          this.s.frames += 1;
          if (this.s.frames === 1) firstFrame();
        }
      });
    });
    pc.onDataChannel.subscribe((ch) => {
      this.channel = ch;
      ch.onMessage.subscribe(() => void (this.s.messages += 1));
    });
    pc.onIceCandidate.subscribe((c) => {
      if (c && !c.candidate.includes(` ${LOOPBACK} `)) return;
      this.signal?.send({ type: 'ice', candidate: c ? { candidate: c.candidate, sdpMid: c.sdpMid ?? null, sdpMLineIndex: c.sdpMLineIndex ?? null } : null });
    });
    await pc.setRemoteDescription({ type: 'offer', sdp });
    const answer = await pc.createAnswer();
    await pc.setLocalDescription(answer);
    const local = pc.localDescription?.sdp ?? answer.sdp;
    this.signal?.send({ type: 'answer', sdp: loopbackOnly(local) });
  }

  /** Sends one player message on the data channel (false before it is open). */
  send(msg: PlayerMessage): boolean {
    if (this.channel?.readyState !== 'open') return false;
    this.channel.send(JSON.stringify(msg));
    return true;
  }

  /**
   * A key press (down + up), as the player's keyboard handler sends it: the up at once, or
   * `releaseMs` later, as a finger lets go (then the result says only that the down was sent).
   */
  key(name: string, releaseMs = 0): boolean {
    const key = name as NamedKey;
    if (!this.send({ v: 1, type: 'key', kind: 'down', key })) return false;
    if (releaseMs <= 0) return this.send({ v: 1, type: 'key', kind: 'up', key });
    setTimeout(() => this.send({ v: 1, type: 'key', kind: 'up', key }), releaseMs);
    return true;
  }

  /**
   * Presses `keys` every `everyMs` (0 stops). `releaseMs` > 0: each key is let go that long after
   * it went down, as a finger or a key is (0: down and up at once, in one burst).
   */
  keysEvery(keys: string[], everyMs: number, releaseMs = 0): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    if (everyMs > 0 && keys.length) this.timer = setInterval(() => keys.forEach((k) => this.key(k, releaseMs)), everyMs);
  }

  stats(): CheapPeerStats {
    return { ...this.s, at: Date.now(), connection: this.pc?.connectionState ?? 'new' };
  }

  async leave(): Promise<void> {
    this.keysEvery([], 0);
    this.signal?.close();
    this.signal = null;
    const pc = this.pc;
    this.pc = null;
    this.channel = null;
    await pc?.close().catch(() => undefined);
  }
}
