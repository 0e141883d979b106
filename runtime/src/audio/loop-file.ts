/**
 * The rendered audio files: one home for what the build (runtime/build-loops.ts, which renders
 * every looping score and every sound effect once in headless Chromium) and the runtime page
 * (loops.ts and sfx-player.ts, which fetch them) must agree on (issue 11: rendering a loop in the
 * session cost ~8 s of CPU and left the music synthesised live for its first minute, ~20 % of a
 * core; every live sound effect ran the reverb and compressor on the page's audio thread).
 *
 * - The name: a hash of the score's or the sfx spec's JSON (as parsed: literals only, so Node and
 *   Chromium print it the same — a prepared score holds computed floats, which two V8 versions
 *   may round differently), so an edited score or spec never plays a stale file: the page then
 *   finds no file and renders (a loop) or synthesises (an effect) in the page as before.
 * - The format: 16-bit PCM WAV, stereo, at LOOP_SAMPLE_RATE (the engine's context rate, so
 *   decodeAudioData does not resample). 16 bits are plenty: the sound leaves the host as Opus.
 * - Written by `encodeWav` (the build), read back without a decode by `wavSamples` (the page's
 *   worklet loops, loop-worklet.ts); `interleave16` is the one float → 16-bit conversion.
 * - How a loop plays: its first pass from the start, then over [loopStart, loopEnd) (loops.ts);
 *   `loopPosition` maps a time in the music to a place in the samples (a hand-over from live notes).
 * - Where: `loops/<name>.wav` and `sfx/<name>.wav` next to the runtime's index.html
 *   (/runtime/loops/, /runtime/sfx/ on the host).
 */
import type { Score, SfxSpec } from '../types';

export const LOOP_SAMPLE_RATE = 48000;
/** Bump when the file's layout changes (not for the synthesis: the build keys its cache on the sound code). */
const LOOP_FORMAT = 1;
/** The loops' folder, relative to the runtime's index.html. */
export const LOOPS_DIR = 'loops';

/**
 * Where `offset` into the music (its first note at 0) falls in a loop's samples: the first pass
 * until `loopEnd`, then within [loopStart, loopEnd). Any unit, the same for all three.
 */
export function loopPosition(offset: number, loopStart: number, loopEnd: number): number {
  if (!(offset > 0)) return 0;
  if (offset < loopEnd || !(loopEnd > loopStart)) return offset;
  return loopStart + ((offset - loopStart) % (loopEnd - loopStart));
}

/** The folder of the rendered sound effects, relative to the runtime's index.html. */
export const SFX_DIR = 'sfx';

/** The file name (without folder) of a score's rendered loop. */
export function loopFileName(score: Score): string {
  return hashedName(`${LOOP_FORMAT}:${LOOP_SAMPLE_RATE}:${JSON.stringify(score)}`);
}

/** The file name (without folder) of a rendered sound effect (sfx-render.ts). */
export function sfxFileName(spec: SfxSpec): string {
  return hashedName(`sfx:${LOOP_FORMAT}:${LOOP_SAMPLE_RATE}:${JSON.stringify(spec)}`);
}

function hashedName(text: string): string {
  return `${fnv1a(text, 0x811c9dc5)}${fnv1a(text, 0x01000193 ^ 0x5bd1e995)}.wav`;
}

/** 32-bit FNV-1a over UTF-16 code units, as 8 hex digits (the same in Node and the browser). */
function fnv1a(text: string, seed: number): string {
  let h = seed >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
}

/** The channels as interleaved 16-bit samples (L R L R …), clipped to [-1, 1]. */
export function interleave16(channels: Float32Array[]): Int16Array {
  const nch = channels.length;
  const frames = channels[0]?.length ?? 0;
  const out = new Int16Array(frames * nch);
  for (let f = 0; f < frames; f++) {
    for (let c = 0; c < nch; c++) {
      const s = Math.max(-1, Math.min(1, channels[c][f]));
      out[f * nch + c] = s < 0 ? Math.round(s * 0x8000) : Math.round(s * 0x7fff);
    }
  }
  return out;
}

/** Interleaves the channels into 16-bit little-endian PCM with a RIFF/WAVE header. */
export function encodeWav(channels: Float32Array[], sampleRate: number): Uint8Array {
  const nch = channels.length;
  const samples = interleave16(channels);
  const dataBytes = samples.length * 2;
  const out = new Uint8Array(44 + dataBytes);
  const v = new DataView(out.buffer);
  const ascii = (at: number, s: string): void => {
    for (let i = 0; i < s.length; i++) out[at + i] = s.charCodeAt(i);
  };
  ascii(0, 'RIFF');
  v.setUint32(4, 36 + dataBytes, true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  v.setUint32(16, 16, true);
  v.setUint16(20, 1, true); // PCM
  v.setUint16(22, nch, true);
  v.setUint32(24, sampleRate, true);
  v.setUint32(28, sampleRate * nch * 2, true);
  v.setUint16(32, nch * 2, true);
  v.setUint16(34, 16, true);
  ascii(36, 'data');
  v.setUint32(40, dataBytes, true);
  for (let i = 0; i < samples.length; i++) v.setInt16(44 + 2 * i, samples[i], true);
  return out;
}

/** The WAV's samples as 16-bit stereo (a view on `bytes`, no copy), or null if it is not that. */
export function wavSamples(bytes: ArrayBuffer): { samples: Int16Array; frames: number; sampleRate: number } | null {
  const v = new DataView(bytes);
  if (bytes.byteLength < 44 || v.getUint32(0, false) !== 0x52494646 || v.getUint32(8, false) !== 0x57415645) return null;
  let o = 12;
  let fmt = -1;
  while (o + 8 <= bytes.byteLength) {
    const id = v.getUint32(o, false);
    const n = v.getUint32(o + 4, true);
    if (id === 0x666d7420) fmt = o + 8; // 'fmt '
    if (id === 0x64617461 && fmt >= 0) {
      // 'data'
      const channels = v.getUint16(fmt + 2, true);
      const bits = v.getUint16(fmt + 14, true);
      if (v.getUint16(fmt, true) !== 1 || channels !== 2 || bits !== 16 || (o + 8) % 2) return null;
      const frames = Math.floor(Math.min(n, bytes.byteLength - o - 8) / 4);
      return { samples: new Int16Array(bytes, o + 8, frames * 2), frames, sampleRate: v.getUint32(fmt + 4, true) };
    }
    o += 8 + n + (n & 1);
  }
  return null;
}
