/**
 * The page side of the build's audio render (runtime/build-loops.ts): bundled on its own and run in
 * a blank headless Chromium page, it renders one looping score (loops.ts renderLoop) or one sound
 * effect (sfx-render.ts renderSfx) with the engine's own code — the same chain, voices, notes and
 * effects the session would play — and returns the WAV (loop-file.ts) as base64 for the build to
 * write. Not part of the runtime page's bundle.
 */
import type { Score, SfxSpec } from '../types';
import { encodeWav, LOOP_SAMPLE_RATE } from './loop-file';
import { renderLoop } from './loops';
import { prepareScore } from './score';
import { renderSfx } from './sfx-render';

/** What the build asks for: a looping score's loop, or a sound effect. */
export type RenderJob = { kind: 'loop'; score: Score } | { kind: 'sfx'; spec: SfxSpec };

async function channelsOf(job: RenderJob): Promise<Float32Array[] | null> {
  if (job.kind === 'sfx') return renderSfx(job.spec, LOOP_SAMPLE_RATE);
  const loop = await renderLoop(prepareScore(job.score), LOOP_SAMPLE_RATE);
  const b = loop?.buffer;
  return b ? Array.from({ length: b.numberOfChannels }, (_, c) => b.getChannelData(c)) : null;
}

/** The job's WAV as base64 (null: nothing to render — the score stays live, an unknown effect type). */
async function renderFile(job: RenderJob): Promise<string | null> {
  const channels = await channelsOf(job);
  if (!channels) return null;
  const bytes = encodeWav(channels, LOOP_SAMPLE_RATE);
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin);
}

(globalThis as { yumecastRenderFile?: typeof renderFile }).yumecastRenderFile = renderFile;
