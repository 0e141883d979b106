/**
 * A session's sound effects: from the build's files, or synthesised live (issue 11: a live effect
 * runs the sfx bus, the convolver reverb and the compressor on the audio thread, ~4 % of a core
 * more while a player reads on). The build renders every effect of the games once with the live
 * code and chain (sfx-render.ts) as `sfx/<name>.wav` (loop-file.ts: the name is a hash of the
 * spec); here an effect's file is fetched relative to the runtime page, decoded and played by an
 * AudioBufferSourceNode into the engine's master gain (after the chain, like the music loops: the
 * file holds the chain's sound already), a few ms after the cue. The buffer is let go when it
 * ends (a session's memory matters more than a decode; the browser's HTTP cache keeps the bytes).
 *
 * No file (a spec edited since the build, a game built without them), a file that does not decode,
 * no base (the engine's `loopsBase: null`) or the page's `?sfx=live` (the host's HOST_SFX_FILES=0):
 * the effect is synthesised live as before (sfx.ts), and a missing file is not asked for again.
 * `counts` tells how each effect played (getState().audio.sfx).
 */
import { fetchBytes } from '../fetch-bytes';
import type { SfxSpec } from '../types';
import type { AudioGraph } from './graph';
import { LOOP_SAMPLE_RATE, SFX_DIR, sfxFileName } from './loop-file';
import { playSfx, SFX_TAIL_S, type ScheduledSfx } from './sfx';

export class SfxPlayer {
  /** Effects played from their file, and synthesised live. */
  readonly counts = { file: 0, live: 0 };
  /** Context seconds when the last live effect's echo has rung out (the engine keeps the chain's sends until then). */
  liveUntil = 0;
  /** Files found missing or unreadable this session: those effects play live. */
  private readonly missing = new Set<string>();

  /**
   * `graph`: the live chain; `out`: where a file plays (after the chain); `base`: the URL the
   * build's sfx/ folder is relative to (null: always live).
   */
  constructor(
    private readonly graph: AudioGraph,
    private readonly out: AudioNode,
    private readonly base: string | null,
  ) {}

  play(spec: SfxSpec): void {
    const base = this.graph.ctx.sampleRate === LOOP_SAMPLE_RATE ? this.base : null;
    const name = base === null ? null : sfxFileName(spec);
    if (base === null || name === null || this.missing.has(name)) {
      this.live(spec);
      return;
    }
    void this.fromFile(new URL(`${SFX_DIR}/${name}`, base).href).then((played) => {
      if (played) return;
      this.missing.add(name);
      this.live(spec);
    });
  }

  /** Plays the effect's file now; false if there is none or it does not decode. */
  private async fromFile(url: string): Promise<boolean> {
    const ctx = this.graph.ctx;
    try {
      // fetched by a worker: the page's DevTools session would keep a copy of every play's body (fetch-bytes.ts)
      const bytes = await fetchBytes(url);
      if (!bytes) return false;
      const buffer = await ctx.decodeAudioData(bytes);
      const src = ctx.createBufferSource();
      src.buffer = buffer;
      src.connect(this.out);
      src.onended = () => src.disconnect();
      src.start();
      this.counts.file++;
      return true;
    } catch (e) {
      console.warn('[yumecast] sfx file unreadable, playing it live', e);
      return false;
    }
  }

  private live(spec: SfxSpec): void {
    let scheduled: ScheduledSfx | null = null;
    try {
      scheduled = playSfx(this.graph, spec);
    } catch (e) {
      console.warn('[yumecast] sfx failed', e);
    }
    if (!scheduled) return;
    this.counts.live++;
    const { end, outs } = scheduled;
    const quiet = end + SFX_TAIL_S;
    this.liveUntil = Math.max(this.liveUntil, quiet);
    setTimeout(() => outs.forEach((n) => n.disconnect()), (quiet - this.graph.ctx.currentTime) * 1000);
  }
}
