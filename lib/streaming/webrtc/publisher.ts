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
import { ESTIMATE_HEADROOM, QUALITY_PROFILES, type PublisherEvents, type VideoCodec, type WebRtcToken, type StreamPublisher } from '../types';
import { SignalClient } from './signalClient';
import { warmCertificate } from './warmup';

export interface WebRtcPublisherOptions {
  /** Put this codec first in the offer (default: the browser's own order). */
  videoCodec?: VideoCodec;
  /** Bound the bandwidth estimate by the quality's profile (withBitrateBounds); default false. */
  bitrateFloor?: boolean;
  /** With bitrateFloor: the estimate's start and ceiling as a multiple of the encoder's maxBitrate (default ESTIMATE_HEADROOM; 1 = as before issue 11's latency round). */
  estimateHeadroom?: number;
  /** Opus packets of this many ms (withAudioPtime; default: the browser's 20 ms). */
  audioPtimeMs?: number;
  /**
   * Make the next player's connection as soon as the signalling is open, with empty senders if the
   * stream is not in yet (default false: only once there is a stream, as before issue 11's eighth
   * round). A player who joins while the game starts then gets the offer and its gathered ICE
   * candidates at once instead of a connection made on the spot in the page's busiest time.
   */
  offerAhead?: boolean;
}

/** A connection made ahead of a player's join (WebRtcPublisher.prepare). */
interface Prepared {
  pc: RTCPeerConnection;
  channel: RTCDataChannel;
  /** The offer's SDP, once set as the local description. */
  offer: Promise<string>;
  /** ICE candidates found before the offer went out (null = gathering complete). */
  candidates: (RTCIceCandidateInit | null)[];
  sent: boolean;
}

const MIME: Record<VideoCodec, string> = { vp8: 'video/vp8', vp9: 'video/vp9', h264: 'video/h264', av1: 'video/av1' };

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


/**
 * The answer with the sender's bandwidth estimate bounded (libwebrtc reads these from the send
 * codec's parameters, i.e. the remote answer): x-google-start-bitrate / min / max (kbit/s) on
 * every video codec's fmtp line (added where a codec has none; rtx, red, ulpfec and
 * flexfec are left alone). Exported for tests.
 */
export function withBitrateBounds(sdp: string, kbps: { start: number; min: number; max: number }): string {
  const eol = sdp.includes('\r\n') ? '\r\n' : '\n';
  const lines = sdp.split(eol);
  const params = `x-google-start-bitrate=${Math.round(kbps.start)};x-google-min-bitrate=${Math.round(kbps.min)};x-google-max-bitrate=${Math.round(kbps.max)}`;
  const out: string[] = [];
  let video = false;
  const pts = new Set<string>();
  const withFmtp = new Set<string>();
  const flush = (at: number) => {
    // codecs of the video section without an fmtp line get one after their rtpmap
    for (const pt of pts) {
      if (withFmtp.has(pt)) continue;
      const i = out.findIndex((l, j) => j >= at && l.startsWith(`a=rtpmap:${pt} `));
      if (i >= 0) out.splice(i + 1, 0, `a=fmtp:${pt} ${params}`);
    }
    pts.clear();
    withFmtp.clear();
  };
  let sectionStart = 0;
  for (const line of lines) {
    if (line.startsWith('m=')) {
      if (video) flush(sectionStart);
      video = line.startsWith('m=video');
      sectionStart = out.length;
    }
    const rtpmap = video ? /^a=rtpmap:(\d+) ([\w-]+)\//.exec(line) : null;
    if (rtpmap && !/^(rtx|red|ulpfec|flexfec-03)$/i.test(rtpmap[2])) pts.add(rtpmap[1]);
    const fmtp = video ? /^a=fmtp:(\d+) (.*)$/.exec(line) : null;
    if (fmtp && pts.has(fmtp[1])) {
      withFmtp.add(fmtp[1]);
      out.push(`a=fmtp:${fmtp[1]} ${fmtp[2].replace(/;?x-google-(start|min|max)-bitrate=\d+/g, '')};${params}`.replace(' ;', ' '));
      continue;
    }
    out.push(line);
  }
  if (video) flush(sectionStart);
  return out.join(eol);
}

/**
 * The answer with `a=ptime:<ms>` in its audio section (any ptime there replaced): the sender's Opus
 * encoder then makes packets of that length (libwebrtc reads the remote description's ptime), so
 * a 60 ms ptime sends a third of the audio packets of the default 20 ms: less packetising, SRTP and
 * sending per session on the host for a few tens of ms more audio delay (docs/streaming.md "Audio
 * packets"). Other sections and the line endings are left alone. Exported for tests.
 */
export function withAudioPtime(sdp: string, ms: number): string {
  const eol = sdp.includes('\r\n') ? '\r\n' : '\n';
  const out: string[] = [];
  let audio = false;
  for (const line of sdp.split(eol)) {
    if (line.startsWith('m=')) {
      if (audio) out.push(`a=ptime:${ms}`);
      audio = line.startsWith('m=audio');
    }
    if (audio && line.startsWith('a=ptime:')) continue;
    if (audio && line === '' && out.length) {
      // the end of the SDP (its last line ending)
      out.push(`a=ptime:${ms}`);
      audio = false;
    }
    out.push(line);
  }
  if (audio) out.push(`a=ptime:${ms}`);
  return out.join(eol);
}

export class WebRtcPublisher implements StreamPublisher<WebRtcToken> {
  private pc: RTCPeerConnection | null = null;
  /** The player page (its PEER_ID) the current connection was offered to. */
  private offeredTo: string | undefined;
  private channel: RTCDataChannel | null = null;
  private signal: SignalClient | null = null;
  private stream: MediaStream | null = null;
  private events: PublisherEvents | null = null;
  private quality: QualityLevel = 'high';
  private iceServers: RTCIceServer[] = [];
  /** The next player's connection, made ahead (prepare). */
  private prepared: Prepared | null = null;
  /** Offers sent on a connection made ahead (the rest were made when the player joined). */
  offersAhead = 0;
  /** The estimate's ceiling (kbit/s) written into the last answer applied; 0 without the bitrate floor. */
  estimateMaxKbps = 0;

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
          // The same page again with our connection to it up: only its signalling (or ours)
          // reconnected, through another api replica. A new offer would tear the stream down.
          if (m.peer && m.peer === this.offeredTo && this.pc?.connectionState === 'connected') return;
          this.offeredTo = m.peer;
          void this.offer().catch(() => events.onState('failed'));
        } else if (m.type === 'peer-left' && m.role === 'player') {
          events.onPeerLeft?.();
        } else if (m.type === 'answer') {
          const p = QUALITY_PROFILES[this.quality];
          const ceiling = (p.maxBitrate * (this.opts.estimateHeadroom ?? ESTIMATE_HEADROOM)) / 1000;
          let sdp = this.opts.bitrateFloor ? withBitrateBounds(m.sdp, { start: ceiling, min: p.minBitrate / 1000, max: ceiling }) : m.sdp;
          if (this.opts.audioPtimeMs) sdp = withAudioPtime(sdp, this.opts.audioPtimeMs);
          this.estimateMaxKbps = this.opts.bitrateFloor ? ceiling : 0;
          void this.pc?.setRemoteDescription({ type: 'answer', sdp }).catch(() => events.onState('failed'));
        } else if (m.type === 'ice' && m.candidate) {
          void this.pc?.addIceCandidate(m.candidate).catch(() => undefined);
        }
      },
      // the first player's connection is made while nobody waits for it (once the game has
      // drawn: not in the page's busiest time, and with its tracks)
      onOpen: () => this.prepareAhead(),
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
    for (const pc of [this.pc, this.prepared?.pc]) if (pc) await this.fillSenders(pc, stream);
    this.prepareAhead();
  }

  /** Makes the next player's connection now if nobody has joined yet (and there is a stream, unless offerAhead). */
  private prepareAhead(): void {
    if ((this.stream || this.opts.offerAhead) && this.signal?.isOpen() && !this.pc && !this.prepared) this.prepared = this.prepare();
  }

  private async fillSenders(pc: RTCPeerConnection, stream: MediaStream): Promise<void> {
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

  /**
   * The connection for the next player, made before anyone joins (the signalling has just opened):
   * tracks or empty senders, the input channel, the codec order, the offer set locally and its
   * ICE candidates gathered. A player's join then costs one message instead of a connection's
   * set-up in a page the game keeps busy (measured: 40–170 ms from peer-joined to the offer).
   * In a warm runtime the page's WebRTC was warmed up ahead (./warmup.ts): the connection takes
   * the page's warm certificate instead of having one generated before its first offer.
   */
  private prepare(): Prepared {
    const cert = warmCertificate();
    const pc = new RTCPeerConnection(cert ? { iceServers: this.iceServers, certificates: [cert] } : { iceServers: this.iceServers });
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
    const prepared: Prepared = { pc, channel, offer: Promise.resolve(''), candidates: [], sent: false };
    // candidates found before the offer is sent wait for it; later ones go straight out
    pc.onicecandidate = (ev) => {
      const c = ev.candidate ? ev.candidate.toJSON() : null;
      if (prepared.sent) this.signal?.send({ type: 'ice', candidate: c });
      else prepared.candidates.push(c);
    };
    prepared.offer = (async () => {
      const offer = await pc.createOffer();
      await pc.setLocalDescription(offer);
      await this.applyQuality(pc);
      return offer.sdp ?? '';
    })();
    return prepared;
  }

  /** A fresh connection for a (re)joining player: old one closed, the prepared one (or a new one) offered. */
  private async offer(): Promise<void> {
    if (!this.signal || !this.events) return;
    this.pc?.close();
    const events = this.events;
    const next = this.prepared ?? this.prepare();
    if (this.prepared) this.offersAhead++;
    this.prepared = null;
    const { pc, channel } = next;
    this.pc = pc;
    this.channel = channel;
    channel.onmessage = (ev) => events.onRawMessage(ev.data);
    pc.onconnectionstatechange = () => {
      if (this.pc !== pc) return;
      const s = pc.connectionState;
      events.onState(s === 'new' ? 'connecting' : s === 'connected' ? 'connected' : s === 'disconnected' ? 'reconnecting' : s === 'failed' ? 'failed' : s === 'closed' ? 'closed' : 'connecting');
    };
    const sdp = await next.offer;
    if (this.pc !== pc) return;
    this.signal.send({ type: 'offer', sdp });
    next.sent = true;
    for (const candidate of next.candidates) this.signal.send({ type: 'ice', candidate });
    next.candidates = [];
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
    this.prepared?.pc.close();
    this.prepared = null;
    this.pc = null;
    this.channel = null;
  }
}
