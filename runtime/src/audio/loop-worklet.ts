/**
 * Music loops played from their 16-bit samples by an AudioWorklet (issue 11: memory per session).
 * A decoded loop is a float32 AudioBuffer, twice the WAV's bytes (a 54 s track: 20.7 MB), and
 * decoding it left as much again of garbage resident; here the WAV's own Int16 samples are handed
 * (transferred, not copied) to the worklet's scope and converted as they play: half the memory,
 * and no decode.
 *
 * In the worklet's scope (one per AudioContext): `loops`, the samples by key (put / drop through
 * the control node's port: loops.ts LoopCache owns what is held), a control processor that only
 * takes those messages, and one `yumecast-loop` processor per playing loop, which plays its
 * samples from `startFrame` (context frames), from `offsetFrame` (0: its start) to `loopEnd` and then over
 * [loopStart, loopEnd) (frames of the loop) until `stop`, then ends (its node can go).
 */
import { loopPosition } from './loop-file';

const PROCESSOR = `
const loops = new Map();
registerProcessor('yumecast-loops', class extends AudioWorkletProcessor {
  constructor() {
    super();
    this.port.onmessage = (e) => {
      const m = e.data;
      if (m.put !== undefined) loops.set(m.put, m.samples);
      if (m.drop !== undefined) loops.delete(m.drop);
    };
  }
  process() { return false; }
});
registerProcessor('yumecast-loop', class extends AudioWorkletProcessor {
  constructor(options) {
    super();
    const o = options.processorOptions;
    this.key = o.key; this.a = o.loopStart; this.b = o.loopEnd; this.start = o.startFrame;
    this.stop = Infinity; this.pos = o.offsetFrame || 0; this.s = null;
    this.port.onmessage = (e) => { if (e.data.stopFrame !== undefined) this.stop = e.data.stopFrame; };
  }
  process(inputs, outputs) {
    const f0 = currentFrame;
    if (f0 >= this.stop) { this.s = null; return false; }
    const s = this.s || (this.s = loops.get(this.key) || null);
    if (!s) return true;
    const L = outputs[0][0], R = outputs[0][1] || L, n = L.length;
    const k = 1 / 32768;
    for (let i = 0; i < n; i++) {
      const f = f0 + i;
      if (f < this.start || f >= this.stop) continue;
      const j = this.pos << 1;
      L[i] = s[j] * k; R[i] = s[j + 1] * k;
      if (++this.pos >= this.b) this.pos = this.a;
    }
    return true;
  }
});
`;

/** A loop playing: `out` goes into the music's gain; `stop(at)` ends it at context time `at`. */
export interface PlayingLoop {
  out: AudioNode;
  stop(at: number): void;
}

/** The worklet of one AudioContext: the samples it holds, and the loops it plays. */
export class LoopWorklet {
  private constructor(
    private readonly ctx: BaseAudioContext,
    private readonly control: AudioWorkletNode,
  ) {}

  private static readonly made = new WeakMap<BaseAudioContext, Promise<LoopWorklet | null>>();

  /** The context's worklet (loaded once), or null where AudioWorklet is unavailable. */
  static for(ctx: BaseAudioContext): Promise<LoopWorklet | null> {
    let p = LoopWorklet.made.get(ctx);
    if (!p) {
      p = (async () => {
        if (!ctx.audioWorklet || typeof AudioWorkletNode === 'undefined') return null;
        const url = URL.createObjectURL(new Blob([PROCESSOR], { type: 'text/javascript' }));
        try {
          await ctx.audioWorklet.addModule(url);
        } finally {
          URL.revokeObjectURL(url);
        }
        return new LoopWorklet(ctx, new AudioWorkletNode(ctx, 'yumecast-loops', { numberOfInputs: 1, numberOfOutputs: 0 }));
      })().catch((e: unknown) => {
        console.warn('[yumecast] the loop worklet did not load: loops play from buffers', e);
        return null;
      });
      LoopWorklet.made.set(ctx, p);
    }
    return p;
  }

  /** Hands `samples` to the worklet under `key` (transferred: the page's copy is gone after). */
  put(key: string, samples: Int16Array): void {
    this.control.port.postMessage({ put: key, samples }, [samples.buffer]);
  }

  /** The worklet lets go of `key`'s samples (a loop still playing them keeps them until it ends). */
  drop(key: string): void {
    this.control.port.postMessage({ drop: key });
  }

  /** Plays `key` from context time `when` (its first pass from frame 0, then the loop window). */
  /** `loop`: its window in frames; `offset`: seconds into the music (loops.ts ReadyLoop.play). */
  play(key: string, loop: { loopStart: number; loopEnd: number }, when: number, offset = 0): PlayingLoop {
    const offsetFrame = Math.round(loopPosition(offset * this.ctx.sampleRate, loop.loopStart, loop.loopEnd));
    const node = new AudioWorkletNode(this.ctx, 'yumecast-loop', {
      numberOfInputs: 0,
      numberOfOutputs: 1,
      outputChannelCount: [2],
      processorOptions: { key, loopStart: loop.loopStart, loopEnd: loop.loopEnd, startFrame: Math.round(when * this.ctx.sampleRate), offsetFrame },
    });
    return {
      out: node,
      stop: (at) => node.port.postMessage({ stopFrame: Math.round(at * this.ctx.sampleRate) }),
    };
  }
}
