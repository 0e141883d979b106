/**
 * The page side of the build's loop render (runtime/build-loops.ts): bundled on its own and run in
 * a blank headless Chromium page, it renders one looping score with the engine's own code
 * (loops.ts renderLoop: the same chain, voices and notes the session would play) and returns the
 * WAV (loop-file.ts) as base64 for the build to write. Not part of the runtime page's bundle.
 */
import type { Score } from '../types';
import { encodeWav, LOOP_SAMPLE_RATE } from './loop-file';
import { renderLoop } from './loops';
import { prepareScore } from './score';

async function renderLoopFile(score: Score): Promise<string | null> {
  const loop = await renderLoop(prepareScore(score), LOOP_SAMPLE_RATE);
  if (!loop) return null;
  const b = loop.buffer;
  const bytes = encodeWav(Array.from({ length: b.numberOfChannels }, (_, c) => b.getChannelData(c)), b.sampleRate);
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin);
}

(globalThis as { yumecastRenderLoopFile?: typeof renderLoopFile }).yumecastRenderLoopFile = renderLoopFile;
