/** Plays a score (docs/vn-engine.md "Music and sound as scores") with a look-ahead scheduler. */
import type { Score } from '../types';
import type { AudioGraph } from './graph';
import { noteToHz } from './notes';
import { INSTRUMENT_SENDS, playVoice } from './voices';

interface PreparedNote {
  beat: number;
  hz: number;
  len: number;
  vel: number;
}
interface PreparedTrack {
  instrument: string;
  volume: number;
  notes: PreparedNote[];
  gain: GainNode;
  nodes: AudioNode[];
}

const LOOKAHEAD_S = 0.3;
const TICK_MS = 50;

export class MusicPlayer {
  private readonly tracks: PreparedTrack[];
  private readonly spb: number;
  private readonly lengthBeats: number;
  private readonly loop: boolean;
  private t0 = 0;
  private cursor = 0;
  private timer: ReturnType<typeof setInterval> | null = null;
  private stopped = false;

  constructor(
    private readonly engine: AudioGraph,
    score: Score,
  ) {
    const bpm = Number.isFinite(score.bpm) && score.bpm > 10 && score.bpm < 400 ? score.bpm : 90;
    this.spb = 60 / bpm;
    this.loop = score.loop !== false;
    const ctx = engine.ctx;
    let maxEnd = 0;
    this.tracks = (Array.isArray(score.tracks) ? score.tracks : []).map((tr) => {
      const notes: PreparedNote[] = [];
      for (const n of Array.isArray(tr.notes) ? tr.notes : []) {
        if (!Array.isArray(n) || n.length < 3) continue;
        const beat = Number(n[0]);
        const hz = noteToHz(n[1] as string | number);
        const len = Number(n[2]);
        const vel = n[3] === undefined ? 0.8 : Number(n[3]);
        if (!Number.isFinite(beat) || beat < 0 || hz === null || !(len > 0) || !Number.isFinite(vel)) continue;
        notes.push({ beat, hz, len, vel });
        maxEnd = Math.max(maxEnd, beat + len);
      }
      notes.sort((a, b) => a.beat - b.beat);
      const instrument = String(tr.instrument || 'piano');
      const volume = Math.max(0, Math.min(1, Number(tr.volume ?? 0.7)));
      const gain = ctx.createGain();
      gain.gain.value = 0;
      gain.connect(engine.musicBus);
      const sends = INSTRUMENT_SENDS[instrument] ?? INSTRUMENT_SENDS.piano;
      const nodes: AudioNode[] = [gain];
      if (sends.reverb > 0) {
        const s = ctx.createGain();
        s.gain.value = sends.reverb;
        gain.connect(s).connect(engine.reverbSend);
        nodes.push(s);
      }
      if (sends.delay > 0) {
        const s = ctx.createGain();
        s.gain.value = sends.delay;
        gain.connect(s).connect(engine.delaySend);
        nodes.push(s);
      }
      return { instrument, volume, notes, gain, nodes };
    });
    const declared = Number(score.lengthBeats);
    this.lengthBeats = Number.isFinite(declared) && declared > 0 ? declared : Math.max(4, Math.ceil(maxEnd / 4) * 4);
  }

  start(fadeIn: number): void {
    const now = this.engine.ctx.currentTime;
    this.t0 = now + 0.08;
    for (const tr of this.tracks) {
      tr.gain.gain.cancelScheduledValues(now);
      tr.gain.gain.setValueAtTime(fadeIn > 0 ? 0.0001 : tr.volume, now);
      if (fadeIn > 0) tr.gain.gain.linearRampToValueAtTime(tr.volume, now + fadeIn);
    }
    this.tick();
    this.timer = setInterval(() => this.tick(), TICK_MS);
  }

  private tick(): void {
    if (this.stopped) return;
    const ctx = this.engine.ctx;
    const horizonBeat = (ctx.currentTime + LOOKAHEAD_S - this.t0) / this.spb;
    if (!this.loop && this.cursor >= this.lengthBeats) {
      if (this.timer) clearInterval(this.timer);
      this.timer = null;
      return;
    }
    // If the page was throttled, never try to catch up more than a beat of missed notes.
    if (horizonBeat - this.cursor > 8) this.cursor = horizonBeat - 1;
    while (this.cursor < horizonBeat) {
      const iteration = Math.floor(this.cursor / this.lengthBeats);
      if (!this.loop && iteration > 0) break;
      const base = iteration * this.lengthBeats;
      const from = this.cursor - base;
      const to = Math.min(horizonBeat - base, this.lengthBeats);
      for (const tr of this.tracks) {
        for (const n of tr.notes) {
          if (n.beat < from) continue;
          if (n.beat >= to) break;
          const when = this.t0 + (base + n.beat) * this.spb;
          playVoice(this.engine, tr.instrument, n.hz, when, n.len * this.spb, n.vel, tr.gain);
        }
      }
      this.cursor = base + to;
    }
  }

  stop(fadeOut: number): void {
    if (this.stopped) return;
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    const now = this.engine.ctx.currentTime;
    for (const tr of this.tracks) {
      const g = tr.gain.gain;
      g.cancelScheduledValues(now);
      g.setValueAtTime(g.value, now);
      g.linearRampToValueAtTime(0, now + Math.max(0.02, fadeOut));
    }
    // Disconnect once the tails have faded.
    setTimeout(
      () => {
        for (const tr of this.tracks) for (const n of tr.nodes) n.disconnect();
      },
      (Math.max(0.02, fadeOut) + 3) * 1000,
    );
  }
}
