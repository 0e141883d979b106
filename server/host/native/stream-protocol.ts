/**
 * The native runtime's stream between the agent and the runtime page, defined once for both ends
 * (the agent's native/stream-server.ts and the page's page/native-engine.ts; neko-style: each
 * wire message defined once). One WebSocket per session on the pages' origin (NATIVE_STREAM_PATH).
 *
 * agent → page, binary, the first byte says what follows:
 *   KIND_FRAME  a frame update of the game's window: uint32 seq, uint16 bandCount, then per band
 *               uint16 y, uint16 rows, rows × width × 4 bytes BGRX (as the X helper sends it:
 *               native/xhelper.py). The first update after a connection or a `full` holds every band.
 *   KIND_AUDIO  interleaved signed 16-bit little-endian PCM at AUDIO_RATE Hz, AUDIO_CHANNELS channels.
 * agent → page, text: NativeHello (JSON) once, first; then NativeText (JSON) for each line and
 *   menu the game shows (native/text.ts: the VN engine's `line` / `choices` / `chosen` payloads).
 * page → agent, text: a validated input message of the streaming protocol (pointer, key, wheel:
 *   lib/streaming/messages.ts, validated again by the agent), or NativeControl.
 * All integers little-endian.
 */

export const KIND_FRAME = 1;
export const KIND_AUDIO = 2;

export const AUDIO_RATE = 48_000;
export const AUDIO_CHANNELS = 2;
/** Bytes of one PCM frame (all channels of one sample time). */
export const AUDIO_FRAME_BYTES = 2 * AUDIO_CHANNELS;

export interface NativeHello {
  type: 'hello';
  width: number;
  height: number;
  sampleRate: number;
  channels: number;
}

export interface NativeText {
  type: 'text';
  event: 'line' | 'choices' | 'chosen' | 'cleared';
  payload: unknown;
}

/** page → agent: send every band next (the page has lost track of the picture). */
export interface NativeControl {
  type: 'full';
}

export interface FrameBandView {
  y: number;
  rows: number;
  /** rows × width × 4 bytes BGRX. */
  data: Uint8Array;
}

/** Bytes of a KIND_FRAME message for these bands (the kind byte included). */
export function encodeFrame(seq: number, bands: readonly FrameBandView[]): Uint8Array {
  let size = 1 + 4 + 2;
  for (const b of bands) size += 4 + b.data.byteLength;
  const out = new Uint8Array(size);
  const dv = new DataView(out.buffer);
  out[0] = KIND_FRAME;
  dv.setUint32(1, seq >>> 0, true);
  dv.setUint16(5, bands.length, true);
  let at = 7;
  for (const b of bands) {
    dv.setUint16(at, b.y, true);
    dv.setUint16(at + 2, b.rows, true);
    out.set(b.data, at + 4);
    at += 4 + b.data.byteLength;
  }
  return out;
}

/**
 * The bands of a KIND_FRAME message, as views into `msg` (no copy), or null when it is not one
 * well-formed for a `width`×`height` picture (a band out of the picture, a length that does not add up).
 */
export function decodeFrame(msg: Uint8Array, width: number, height: number): { seq: number; bands: FrameBandView[] } | null {
  if (msg.byteLength < 7 || msg[0] !== KIND_FRAME) return null;
  const dv = new DataView(msg.buffer, msg.byteOffset, msg.byteLength);
  const seq = dv.getUint32(1, true);
  const count = dv.getUint16(5, true);
  const bands: FrameBandView[] = [];
  let at = 7;
  for (let i = 0; i < count; i++) {
    if (at + 4 > msg.byteLength) return null;
    const y = dv.getUint16(at, true);
    const rows = dv.getUint16(at + 2, true);
    const len = rows * width * 4;
    if (rows === 0 || y + rows > height || at + 4 + len > msg.byteLength) return null;
    bands.push({ y, rows, data: msg.subarray(at + 4, at + 4 + len) });
    at += 4 + len;
  }
  return at === msg.byteLength ? { seq, bands } : null;
}

/** BGRX (X's 24-bit TrueColor, little-endian) → RGBA with opaque alpha, for a canvas or an image encoder. */
export function bgrxToRgba(src: Uint8Array, out: Uint8Array = new Uint8Array(src.length)): Uint8Array {
  for (let i = 0; i < src.length; i += 4) {
    out[i] = src[i + 2];
    out[i + 1] = src[i + 1];
    out[i + 2] = src[i];
    out[i + 3] = 255;
  }
  return out;
}

/** Bytes of a KIND_AUDIO message for these PCM bytes (a whole number of PCM frames). */
export function encodeAudio(pcm: Uint8Array): Uint8Array {
  const out = new Uint8Array(1 + pcm.byteLength);
  out[0] = KIND_AUDIO;
  out.set(pcm, 1);
  return out;
}
