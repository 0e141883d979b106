/**
 * A sound effect rendered once, at build time (issue 11: every live effect ran the sfx bus, the
 * convolver reverb and the compressor on the session's audio thread, ~4 % of a core more while a
 * player read on). The build (runtime/build-loops.ts → render-entry.ts) renders each effect of the
 * games here, in an OfflineAudioContext at LOOP_SAMPLE_RATE through the same master chain
 * (chain.ts offlineGraph) and the same playSfx code as live play, so the file sounds exactly like
 * the live effect: its volume, the sfx bus, the reverb send and the compressor are in it. The
 * session plays the file after its own chain (sfx-player.ts).
 *
 * The length: playSfx tells when the effect's last sound ends (a first pass into a one-frame
 * context, which renders nothing), the render runs SFX_TAIL_S past it (the reverb's ring, the
 * compressor's release, a margin), and the trailing near-silence is cut off.
 */
import type { SfxSpec } from '../types';
import { offlineGraph } from './chain';
import { playSfx, SFX_TAIL_S } from './sfx';

/** Samples below this (-80 dBFS, about three 16-bit steps) at the end of a render are cut off. */
const SILENCE = 1e-4;
/** Seconds kept after the last sample above SILENCE. */
const KEEP_S = 0.01;

/** The effect's channels (stereo, trimmed), or null for an unknown type or no OfflineAudioContext. */
export async function renderSfx(spec: SfxSpec, sampleRate: number): Promise<Float32Array[] | null> {
  const probe = offlineGraph(1, sampleRate);
  const scheduled = probe && playSfx(probe, spec);
  if (!scheduled) return null;
  const graph = offlineGraph(Math.ceil((scheduled.end + SFX_TAIL_S) * sampleRate), sampleRate);
  if (!graph || !playSfx(graph, spec)) return null;
  const buffer = await graph.ctx.startRendering();
  const channels = Array.from({ length: buffer.numberOfChannels }, (_, c) => buffer.getChannelData(c));
  const frames = Math.min(buffer.length, lastSound(channels) + 1 + Math.round(KEEP_S * sampleRate));
  return channels.map((ch) => ch.subarray(0, Math.max(1, frames)));
}

/** The index of the last frame louder than SILENCE in any channel (-1: none). */
function lastSound(channels: Float32Array[]): number {
  let last = -1;
  for (const ch of channels) {
    for (let i = ch.length - 1; i > last; i--) {
      if (Math.abs(ch[i]) > SILENCE) {
        last = i;
        break;
      }
    }
  }
  return last;
}
