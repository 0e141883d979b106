/**
 * Plays a score (docs/vn-engine.md "Music and sound as scores"). A looping score plays from its
 * loop (loops.ts: the build's rendered file, fetched in tens of ms) from the first note and costs
 * one looping node (the loop worklet's, or an AudioBufferSourceNode): the player waits for the file up to
 * FILE_WAIT_MS before it starts. Live: a look-ahead scheduler plays the notes through the voices
 * into the master chain — for a score that does not loop, while a loop's file is late (past
 * FILE_WAIT_MS), and while a loop without a file is rendered in the page. As soon as the loop is
 * ready the player hands over to it at once: the loop starts where the live notes are (the same
 * notes through the same chain, so the same sound at the same place: loop-file.ts loopPosition)
 * and the two cross-fade over HANDOVER_FADE_S, then the live voices stop. (Before, the hand-over
 * waited for the next iteration boundary, up to a whole loop — 30–60 s for the games' tracks — of
 * live voices, reverb and delay at ~8–11 % of a core; on a loaded host, where files come late,
 * that load made the next files later: docs/performance.md "thirteenth round".) Fades act on the
 * track gains (live) or the loop's gain (rendered).
 */
import type { Score } from '../types';
import { REVERB_S } from './chain';
import type { AudioGraph } from './graph';
import { loopFileName } from './loop-file';
import type { PlayingLoop } from './loop-worklet';
import type { LoopCache, LoopHeld, ReadyLoop } from './loops';
import { connectTracks, prepareScore, scheduleNotes, type PreparedScore, type TrackOut } from './score';

const LOOKAHEAD_S = 0.3;
const TICK_MS = 50;
/** How long a start waits for the loop's file before it plays live (a fetch + decode takes ~20–100 ms). */
const FILE_WAIT_MS = 1500;
/** The hand-over from live notes to the loop: it starts this far ahead (s) and the two cross-fade over HANDOVER_FADE_S. */
const HANDOVER_LEAD_S = 0.1;
const HANDOVER_FADE_S = 0.2;
/** After a live note ends, how long (s) its echo lasts: the reverb's impulse, the delay's feedback to ~-70 dB, a margin. */
const LIVE_TAIL_S = REVERB_S + 3;

/** Where rendered loops come from and where they play (the engine's master gain). */
export interface LoopPlayback {
  cache: LoopCache;
  out: AudioNode;
}

export class MusicPlayer {
  private readonly score: PreparedScore;
  /** The build's loop file for this score (loop-file.ts). */
  private readonly file: string;
  /** The live voices' track gains and sends, connected when the score first plays live (`outs`). */
  private live: TrackOut[] | null = null;
  private t0 = 0;
  private cursor = 0;
  /** Live notes are played up to this beat (Infinity: until stopped; set by the hand-over). */
  private endBeat = Infinity;
  private fadeEnd = 0;
  private timer: ReturnType<typeof setInterval> | null = null;
  private stopped = false;
  private loop: { src: PlayingLoop; gain: GainNode } | null = null;
  /** Context time when the last live note scheduled so far ends. */
  private liveEnd = 0;

  constructor(
    private readonly engine: AudioGraph,
    score: Score,
    private readonly id = '',
    private readonly playback: LoopPlayback | null = null,
  ) {
    this.score = prepareScore(score);
    this.file = loopFileName(score);
  }

  /**
   * The track gains into the bus and the chain's sends, made when the score first plays live: a
   * score played from its loop never connects to them, so the chain's reverb and delay are never
   * built for it (chain.ts).
   */
  private get outs(): TrackOut[] {
    return (this.live ??= connectTracks(this.engine, this.score, 0));
  }

  /** Disconnects the live graph, if one was made (a later live start makes it again). */
  private disconnectLive(): void {
    for (const o of this.live ?? []) for (const n of o.nodes) n.disconnect();
    this.live = null;
  }

  /** Its live voices' graph is connected to the chain (the engine keeps the chain's sends while it is). */
  get liveConnected(): boolean {
    return this.live !== null;
  }

  /** How the loop playing is held (loops.ts LoopHeld), null while none plays. */
  held: LoopHeld | null = null;

  /** Beats of the score played by live notes so far (0: it played from its loop from the first note). */
  get liveBeats(): number {
    return this.cursor;
  }

  /** How the music plays: live (notes still being played), from its loop, or not yet (waiting for the loop's file). */
  get mode(): 'loop' | 'live' | null {
    return this.timer ? 'live' : this.loop ? 'loop' : this.cursor > 0 ? 'live' : null;
  }

  start(fadeIn: number): void {
    const cached = this.playback && this.score.loop ? this.playback.cache.peek(this.id) : undefined;
    if (cached) return this.startFromLoop(cached, fadeIn);
    if (!this.playback || !this.score.loop || cached === null) return this.startLive(fadeIn);
    const pending = this.playback.cache.get(this.id, this.score, this.file);
    // the file (if the build made one) is fetched and decoded quickly: wait for it, then play
    // from the buffer; without a file, play live now and hand over when the page has rendered it
    let started = false;
    const live = (): void => {
      if (started || this.stopped) return;
      started = true;
      this.startLive(fadeIn);
      void pending.loop.then((r) => r && this.handOver(r));
    };
    const timer = setTimeout(live, FILE_WAIT_MS);
    void pending.file.then((fromFile) => {
      if (!fromFile) {
        clearTimeout(timer);
        return live();
      }
      void pending.loop.then((r) => {
        clearTimeout(timer);
        if (started || this.stopped) return; // live already: it hands over
        started = true;
        if (r) this.startFromLoop(r, fadeIn);
        else this.startLive(fadeIn);
      });
    });
  }

  private startFromLoop(r: ReadyLoop, fadeIn: number): void {
    this.t0 = this.engine.ctx.currentTime + 0.08;
    this.playLoop(r, this.t0, fadeIn, 0);
    this.endBeat = 0;
    this.disconnectLive();
  }

  private startLive(fadeIn: number): void {
    const now = this.engine.ctx.currentTime;
    this.t0 = now + 0.08;
    this.fadeEnd = now + Math.max(0, fadeIn);
    this.score.tracks.forEach((tr, i) => {
      const g = this.outs[i].gain.gain;
      g.cancelScheduledValues(now);
      g.setValueAtTime(fadeIn > 0 ? 0.0001 : tr.volume, now);
      if (fadeIn > 0) g.linearRampToValueAtTime(tr.volume, now + fadeIn);
    });
    this.tick();
    this.timer = setInterval(() => this.tick(), TICK_MS);
  }

  /**
   * The loop is ready while live notes play: the loop starts at once where they are (after a
   * fade-in still running) and the two cross-fade; the live notes stop after the fade.
   */
  private handOver(r: ReadyLoop): void {
    if (this.stopped || this.loop) return;
    const ctx = this.engine.ctx;
    const at = Math.max(ctx.currentTime + HANDOVER_LEAD_S, this.fadeEnd, this.t0);
    const end = at + HANDOVER_FADE_S;
    // no live note starts after the fade; the ones already scheduled are faded out with it
    this.endBeat = Math.max(this.cursor, (end - this.t0) / this.score.spb);
    this.score.tracks.forEach((tr, i) => {
      const g = this.outs[i].gain.gain;
      g.cancelScheduledValues(at);
      g.setValueAtTime(tr.volume, at);
      g.linearRampToValueAtTime(0, end);
    });
    this.playLoop(r, at, HANDOVER_FADE_S, at - this.t0);
    // the live voices' graph leaves once the fade is over (their tails were faded with it)
    setTimeout(() => this.disconnectLive(), (end - ctx.currentTime + 1) * 1000);
  }

  /** Plays the loop from context time `when`, `offset` s into the music, its gain rising from 0 over `fade` s (0: at once). */
  private playLoop(r: ReadyLoop, when: number, fade: number, offset: number): void {
    const ctx = this.engine.ctx;
    const src = r.play(when, offset);
    const gain = ctx.createGain();
    const now = ctx.currentTime;
    gain.gain.setValueAtTime(fade > 0 ? 0.0001 : 1, now);
    if (fade > 0) {
      gain.gain.setValueAtTime(0.0001, Math.max(now, when));
      gain.gain.linearRampToValueAtTime(1, Math.max(now, when) + fade);
    }
    src.out.connect(gain).connect(this.playback!.out);
    this.loop = { src, gain };
    this.held = r.held;
  }

  private tick(): void {
    if (this.stopped) return;
    const ctx = this.engine.ctx;
    const L = this.score.lengthBeats;
    const horizonBeat = Math.min((ctx.currentTime + LOOKAHEAD_S - this.t0) / this.score.spb, this.endBeat);
    if ((!this.score.loop && this.cursor >= L) || this.cursor >= this.endBeat) {
      if (this.timer) clearInterval(this.timer);
      this.timer = null;
      // a score that does not loop has played its last note: its graph goes once that has rung out
      if (!this.score.loop && !this.loop) setTimeout(() => this.disconnectLive(), (this.liveEnd - ctx.currentTime + LIVE_TAIL_S) * 1000);
      return;
    }
    // If the page was throttled, never try to catch up more than a beat of missed notes.
    if (horizonBeat - this.cursor > 8) this.cursor = horizonBeat - 1;
    while (this.cursor < horizonBeat) {
      const iteration = Math.floor(this.cursor / L);
      if (!this.score.loop && iteration > 0) break;
      const base = iteration * L;
      const from = this.cursor - base;
      const to = Math.min(horizonBeat - base, L);
      this.liveEnd = Math.max(this.liveEnd, scheduleNotes(this.engine, this.score, this.outs, this.t0 + base * this.score.spb, from, to));
      this.cursor = base + to;
    }
  }

  stop(fadeOut: number): void {
    if (this.stopped) return;
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    const now = this.engine.ctx.currentTime;
    const fade = Math.max(0.02, fadeOut);
    const gains = (this.live ?? []).map((o) => o.gain.gain);
    if (this.loop) gains.push(this.loop.gain.gain);
    for (const g of gains) {
      g.cancelScheduledValues(now);
      g.setValueAtTime(g.value, now);
      g.linearRampToValueAtTime(0, now + fade);
    }
    this.loop?.src.stop(now + fade + 0.05);
    // Disconnect once the tails have faded.
    setTimeout(
      () => {
        this.disconnectLive();
        this.loop?.src.out.disconnect();
        this.loop?.gain.disconnect();
      },
      (fade + 3) * 1000,
    );
  }
}
