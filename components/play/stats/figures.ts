/**
 * The stats overlay's figures (issue 13, docs/play-extras.md): two successive readings of the
 * receiving side (lib/streaming/types.ts ReceiverStats) become the figures a streaming user
 * expects — round trip, received frame rate, resolution, bit rate, packet loss, jitter-buffer
 * delay and codec — and each figure its Japanese label and text. Pure functions: the overlay's
 * component only polls and renders, and the arithmetic is tested here.
 */
import type { ReceiverStats } from '@/lib/streaming/types';

/** What the overlay shows; null where the provider gives nothing to compute it from. */
export interface StatsFigures {
  /** Network round trip (ICE / SDK), ms. */
  rttMs: number | null;
  /** Ping/pong round trip on the message channel (network and the host page), ms. */
  pingMs: number | null;
  fps: number | null;
  width: number | null;
  height: number | null;
  bitrateKbps: number | null;
  /** Share of packets lost since the previous reading, %. */
  lossPct: number | null;
  /** Packets lost since the connection began. */
  lostTotal: number | null;
  /** Mean time a video frame waited in the jitter buffer, ms. */
  jitterBufferMs: number | null;
  codec: string | null;
}

const delta = (a: number | null | undefined, b: number | null | undefined): number | null =>
  a === null || a === undefined || b === null || b === undefined || b < a ? null : b - a;

/**
 * The figures from the current reading and the one before it (null for the first): rates come
 * from the counters' differences over the time between the two readings; without a previous
 * reading, or without counters, the provider's own rates (fps, bit rate, loss) are used.
 */
export function deriveFigures(prev: ReceiverStats | null, cur: ReceiverStats | null, pingMs: number | null): StatsFigures {
  const out: StatsFigures = { rttMs: null, pingMs, fps: null, width: null, height: null, bitrateKbps: null, lossPct: null, lostTotal: null, jitterBufferMs: null, codec: null };
  if (!cur) return out;
  const p = prev && prev.at < cur.at ? prev : null;
  const seconds = p ? (cur.at - p.at) / 1000 : 0;
  out.rttMs = cur.rttMs;
  out.width = cur.width;
  out.height = cur.height;
  out.lostTotal = cur.packetsLost;
  out.codec = [cur.videoCodec, cur.audioCodec].filter(Boolean).join(' / ') || null;

  const frames = delta(p?.framesDecoded, cur.framesDecoded);
  out.fps = frames !== null && seconds > 0 ? frames / seconds : cur.fps;

  const bytes = delta(p?.bytesReceived, cur.bytesReceived);
  out.bitrateKbps = bytes !== null && seconds > 0 ? (bytes * 8) / 1000 / seconds : cur.bitrateBps !== null ? cur.bitrateBps / 1000 : null;

  const lost = delta(p?.packetsLost, cur.packetsLost);
  const received = delta(p?.packetsReceived, cur.packetsReceived);
  if (lost !== null && received !== null) out.lossPct = lost + received > 0 ? (100 * lost) / (lost + received) : 0;
  else out.lossPct = cur.lossPct;

  const waited = delta(p?.jitterBufferDelayS, cur.jitterBufferDelayS);
  const emitted = delta(p?.jitterBufferEmitted, cur.jitterBufferEmitted);
  if (waited !== null && emitted) out.jitterBufferMs = (1000 * waited) / emitted;
  else if (cur.jitterBufferDelayS !== null && cur.jitterBufferEmitted) out.jitterBufferMs = (1000 * cur.jitterBufferDelayS) / cur.jitterBufferEmitted;
  return out;
}

/** One row of the overlay: its test id, Japanese label, text, and the number behind it (e2e reads it). */
export interface StatsRow {
  id: 'rtt' | 'fps' | 'resolution' | 'bitrate' | 'loss' | 'jitter-buffer' | 'codec';
  label: string;
  text: string;
  value: number | null;
}

const NONE = '—';
const ms = (v: number) => `${Math.round(v)} ms`;

/** The overlay's rows, in order, with Japanese labels; `—` where there is no figure. */
export function formatFigures(f: StatsFigures): StatsRow[] {
  const rttText =
    f.rttMs !== null && f.pingMs !== null ? `${ms(f.rttMs)}（応答 ${ms(f.pingMs)}）` : f.rttMs !== null ? ms(f.rttMs) : f.pingMs !== null ? `応答 ${ms(f.pingMs)}` : NONE;
  const bitrate =
    f.bitrateKbps === null ? NONE : f.bitrateKbps >= 1000 ? `${(f.bitrateKbps / 1000).toFixed(2)} Mbps` : `${Math.round(f.bitrateKbps)} kbps`;
  const loss = f.lossPct === null ? NONE : `${f.lossPct.toFixed(1)}%${f.lostTotal !== null ? `（累計 ${f.lostTotal}）` : ''}`;
  return [
    { id: 'rtt', label: '往復遅延', text: rttText, value: f.rttMs ?? f.pingMs },
    { id: 'fps', label: 'フレームレート', text: f.fps === null ? NONE : `${f.fps.toFixed(f.fps < 10 ? 1 : 0)} fps`, value: f.fps },
    {
      id: 'resolution',
      label: '解像度',
      text: f.width && f.height ? `${f.width}×${f.height}` : NONE,
      value: f.width && f.height ? f.width * f.height : null,
    },
    { id: 'bitrate', label: 'ビットレート', text: bitrate, value: f.bitrateKbps },
    { id: 'loss', label: 'パケットロス', text: loss, value: f.lossPct },
    { id: 'jitter-buffer', label: 'ジッターバッファ', text: f.jitterBufferMs === null ? NONE : ms(f.jitterBufferMs), value: f.jitterBufferMs },
    { id: 'codec', label: 'コーデック', text: f.codec ?? NONE, value: null },
  ];
}
