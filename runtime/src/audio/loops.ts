/**
 * Looping music, rendered once instead of synthesised live (issue 11: the live voices + reverb +
 * delay cost ~15 % of a core all the time). A looping score is rendered in an
 * OfflineAudioContext through the same master chain (chain.ts) and the same notes and voices
 * (score.ts) as the live path: one iteration plus its tail `H` (the longest sound past the loop's
 * end + the reverb's and the delay's decay), with the second iteration's first `H` seconds
 * scheduled too. The buffer is played from 0 (the first pass: no earlier tails, like a live
 * start) and loops over [H, L + H): a whole period of the steady state, in which the previous
 * iteration's tails are already mixed in, so the loop point is seamless. Music played from a
 * buffer joins the live chain after its compressor (the engine's master gain), so the live
 * convolver and delay get no music input and go quiet.
 *
 * The build renders every looping score of the games this way in headless Chromium
 * (runtime/build-loops.ts) and ships it as a WAV named by the score's hash (loop-file.ts): the
 * LoopCache fetches that file and renders in the page only when there is none (a score edited
 * since the build, a game added without one).
 *
 * How a loop is held (issue 11: memory per session): by default decoded into a float AudioBuffer
 * played by an AudioBufferSourceNode (~21 MB for a 54 s track, and the garbage of each decode);
 * with `?loops=pcm` (the host's HOST_MUSIC_LOOPS=pcm) as the file's own 16-bit samples, handed to
 * an AudioWorklet that plays them (loop-worklet.ts: ~10 MB, no decode). pcm takes a session's
 * renderer 19–53 MB down but costs 2–4 % of a core more (the whole audio graph then renders on
 * the worklet's thread), and this machine runs out of CPU long before memory: docs/performance.md
 * "fourth round". Loops are cached per track id for the session, at most CACHE_SIZE of them (48 kHz, the context's rate: Opus is 48 kHz and
 * another rate would cost a resampler on every block). One: the track playing; a session's memory
 * matters more than fetching a track the story comes back to (docs/host.md "Runtime model"). Loops
 * longer than MAX_LOOP_S stay live.
 */
import { fetchBytes } from '../fetch-bytes';
import { offlineGraph, REVERB_S } from './chain';
import { LOOP_SAMPLE_RATE, LOOPS_DIR, interleave16, loopPosition, wavSamples } from './loop-file';
import { LoopWorklet, type PlayingLoop } from './loop-worklet';
import { connectTracks, scheduleNotes, type PreparedScore } from './score';

export interface RenderedLoop {
  buffer: AudioBuffer;
  /** Seconds: the source loops over [loopStart, loopEnd) after playing from 0. */
  loopStart: number;
  loopEnd: number;
}

/** Reverb impulse (1.8 s) + the feedback delay to about -70 dB (0.32 per 0.36 s) + margin. */
const CHAIN_TAIL_S = REVERB_S + 3 + 0.2;
const MAX_LOOP_S = 120;
const CACHE_SIZE = 1;
/** The offline render adds notes this far (s) ahead, in steps of this length. */
const CHUNK_S = 1;

/** A loop's length and tail (s), or null when the score stays live (not a loop, too short or long). */
export function loopWindow(score: PreparedScore): { loopS: number; tail: number } | null {
  const loopS = score.lengthBeats * score.spb;
  if (!score.loop || !(loopS > 0.25) || loopS > MAX_LOOP_S) return null;
  // the tail: how far the first iteration's sounds (and their echoes) reach past its end
  const tail = Math.min(loopS, Math.max(0, tailOf(score) - loopS) + CHAIN_TAIL_S);
  return { loopS, tail };
}

/** Renders a looping score (null: it stays live, or no OfflineAudioContext). */
export async function renderLoop(score: PreparedScore, sampleRate: number): Promise<RenderedLoop | null> {
  const w = loopWindow(score);
  if (!w) return null;
  const { loopS, tail } = w;
  const graph = offlineGraph(Math.ceil((loopS + tail) * sampleRate), sampleRate);
  if (!graph) return null;
  const ctx = graph.ctx;
  const outs = connectTracks(graph, score);
  // Like the live scheduler, the notes go in a little ahead of the render (every node waiting
  // to start would be processed on every block): the render pauses each CHUNK_S to add the next.
  const endBeat = (loopS + tail) / score.spb;
  const schedule = (fromS: number, toS: number): void => {
    const from = Math.min(fromS / score.spb, endBeat);
    const to = Math.min(toS / score.spb, endBeat);
    if (from < score.lengthBeats) scheduleNotes(graph, score, outs, 0, from, Math.min(to, score.lengthBeats));
    if (to > score.lengthBeats) scheduleNotes(graph, score, outs, loopS, Math.max(0, from - score.lengthBeats), to - score.lengthBeats);
  };
  schedule(0, 2 * CHUNK_S);
  for (let t = CHUNK_S; t < loopS + tail; t += CHUNK_S) {
    const at = t;
    void ctx.suspend(at).then(() => {
      schedule(at + CHUNK_S, at + 2 * CHUNK_S);
      void ctx.resume();
    });
  }
  const buffer = await ctx.startRendering();
  return { buffer, loopStart: tail, loopEnd: tail + loopS };
}

/** When the last sound of one iteration ends (s from its start), from the voices' lengths. */
function tailOf(score: PreparedScore): number {
  let end = 0;
  for (const tr of score.tracks) {
    for (const n of tr.notes) {
      const t = n.beat * score.spb;
      const d = Math.max(0.03, n.len * score.spb);
      // voices.ts: the longest release is the pad's 1.4 s; a bell rings at least 2.4 s
      end = Math.max(end, t + Math.max(d, 2.4) + 1.6);
    }
  }
  return end;
}

/** A loop ready to play, from the worklet's 16-bit samples (`pcm`) or a decoded float buffer. */
export interface ReadyLoop {
  held: LoopHeld;
  /**
   * Starts it at context time `when`: the first pass from its start, then the loop window; with
   * `offset`, from that many seconds into the music (its first note at 0), as a live rendition
   * of the score would be there then (music.ts hands over from live notes this way).
   */
  play(when: number, offset?: number): PlayingLoop;
  /** Lets go of its samples (the cache dropped it; a loop playing them plays on to its stop). */
  release(): void;
}

/** How loops are held: `buffer` (AudioBuffer, the default) or `pcm` (loop-worklet.ts; the page's `?loops=pcm`): see the header. */
export type LoopHeld = 'pcm' | 'buffer';

function bufferLoop(ctx: BaseAudioContext, r: RenderedLoop): ReadyLoop {
  let buffer: AudioBuffer | null = r.buffer;
  return {
    held: 'buffer',
    play(when, offset = 0) {
      const src = ctx.createBufferSource();
      src.buffer = buffer;
      src.loop = true;
      src.loopStart = r.loopStart;
      src.loopEnd = r.loopEnd;
      src.start(when, loopPosition(offset, r.loopStart, r.loopEnd));
      return { out: src, stop: (at) => src.stop(at) };
    },
    release() {
      buffer = null;
    },
  };
}

let pcmKeys = 0;

function pcmLoop(worklet: LoopWorklet, id: string, samples: Int16Array, sampleRate: number, loopStartS: number, loopEndS: number): ReadyLoop {
  const key = `${id}#${++pcmKeys}`;
  worklet.put(key, samples);
  const window = { loopStart: Math.round(loopStartS * sampleRate), loopEnd: Math.round(loopEndS * sampleRate) };
  return {
    held: 'pcm',
    play: (when, offset = 0) => worklet.play(key, window, when, offset),
    release: () => worklet.drop(key),
  };
}

/**
 * The build's file for a score, ready to play (null: no file, or not the length the score needs —
 * the caller renders). `base` is the runtime page's URL, `name` the file's (loop-file.ts
 * loopFileName). With the worklet, the file's samples are used as they are (no decode).
 */
async function fetchLoop(ctx: BaseAudioContext, score: PreparedScore, base: string, name: string, id: string, worklet: LoopWorklet | null): Promise<ReadyLoop | null> {
  const w = loopWindow(score);
  if (!w || ctx.sampleRate !== LOOP_SAMPLE_RATE) return null;
  // fetched by a worker: the page's DevTools session would keep a copy of the body (fetch-bytes.ts)
  const bytes = await fetchBytes(new URL(`${LOOPS_DIR}/${name}`, base).href);
  if (!bytes) return null;
  const frames = Math.ceil((w.loopS + w.tail) * ctx.sampleRate);
  if (worklet) {
    const pcm = wavSamples(bytes);
    if (!pcm || pcm.sampleRate !== ctx.sampleRate || Math.abs(pcm.frames - frames) > 1) return null;
    return pcmLoop(worklet, id, pcm.samples, ctx.sampleRate, w.tail, w.tail + w.loopS);
  }
  const buffer = await ctx.decodeAudioData(bytes);
  if (buffer.numberOfChannels !== 2 || Math.abs(buffer.length - frames) > 1) return null;
  return bufferLoop(ctx, { buffer, loopStart: w.tail, loopEnd: w.tail + w.loopS });
}

/** A loop being got: `loop` settles when it is ready; `file` tells early whether it comes from the build's file. */
export interface PendingLoop {
  loop: Promise<ReadyLoop | null>;
  file: Promise<boolean>;
}

/** The session's loops by track id (least recently used dropped past CACHE_SIZE). */
export class LoopCache {
  private readonly loops = new Map<string, PendingLoop>();
  private readonly ready = new Map<string, ReadyLoop | null>();
  private readonly worklet: Promise<LoopWorklet | null>;

  /**
   * `base`: the URL the build's loops/ folder is relative to (null: always render in the page);
   * `held`: how loops are held (LoopHeld).
   */
  constructor(
    private readonly ctx: BaseAudioContext,
    private readonly base: string | null,
    held: LoopHeld = 'buffer',
  ) {
    this.worklet = held === 'pcm' ? LoopWorklet.for(ctx) : Promise.resolve(null);
  }

  /** The loop if already got (undefined: not yet; null: this score stays live). */
  peek(id: string): ReadyLoop | null | undefined {
    const r = this.ready.get(id);
    if (r !== undefined) this.touch(id);
    return r;
  }

  /** `file`: the build's file name for the score (loop-file.ts loopFileName). */
  get(id: string, score: PreparedScore, file: string): PendingLoop {
    let p = this.loops.get(id);
    if (!p) {
      const base = this.base;
      const fromFile = base
        ? this.worklet
            .then((worklet) => fetchLoop(this.ctx, score, base, file, id, worklet))
            .catch((e: unknown) => {
              console.warn('[yumecast] music loop file unreadable, rendering it', e);
              return null;
            })
        : Promise.resolve(null);
      const loop = fromFile.then(
        (r) =>
          r ??
          this.render(id, score).catch((e: unknown) => {
            console.warn('[yumecast] music render failed, playing live', e);
            return null;
          }),
      );
      const entry: PendingLoop = { loop, file: fromFile.then((r) => r !== null) };
      p = entry;
      this.loops.set(id, entry);
      void loop.then((r) => {
        if (this.loops.get(id) === entry) this.ready.set(id, r);
        else r?.release();
      });
    }
    this.touch(id);
    return p;
  }

  /** Renders the loop in the page (no file for it), held as the cache holds loops. */
  private async render(id: string, score: PreparedScore): Promise<ReadyLoop | null> {
    const r = await renderLoop(score, this.ctx.sampleRate);
    if (!r) return null;
    const worklet = await this.worklet;
    return worklet ? pcmLoop(worklet, id, interleave16([r.buffer.getChannelData(0), r.buffer.getChannelData(1)]), r.buffer.sampleRate, r.loopStart, r.loopEnd) : bufferLoop(this.ctx, r);
  }

  private touch(id: string): void {
    const p = this.loops.get(id);
    if (!p) return;
    this.loops.delete(id);
    this.loops.set(id, p);
    while (this.loops.size > CACHE_SIZE) {
      const oldest = this.loops.keys().next().value as string;
      this.ready.get(oldest)?.release();
      this.loops.delete(oldest);
      this.ready.delete(oldest);
    }
  }
}
