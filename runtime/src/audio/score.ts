/**
 * A score (docs/vn-engine.md "Music and sound as scores") made playable, shared by the live
 * player (music.ts) and the offline loop render (loops.ts) so both play the same notes through
 * the same voices and sends: `prepareScore` validates the JSON once, `connectTracks` makes each
 * track's gain (into the music bus, with its instrument's reverb and delay sends), `scheduleNotes`
 * plays the notes of a beat range of one iteration.
 */
import type { Score } from '../types';
import type { AudioGraph } from './graph';
import { noteToHz } from './notes';
import { INSTRUMENT_SENDS, playVoice } from './voices';

export interface PreparedNote {
  beat: number;
  hz: number;
  len: number;
  vel: number;
}
export interface PreparedTrack {
  instrument: string;
  volume: number;
  notes: PreparedNote[];
}
export interface PreparedScore {
  /** Seconds per beat. */
  spb: number;
  lengthBeats: number;
  loop: boolean;
  tracks: PreparedTrack[];
}
/** A track's output: its gain (the fades) and every node to disconnect afterwards. */
export interface TrackOut {
  gain: GainNode;
  nodes: AudioNode[];
}

export function prepareScore(score: Score): PreparedScore {
  const bpm = Number.isFinite(score.bpm) && score.bpm > 10 && score.bpm < 400 ? score.bpm : 90;
  let maxEnd = 0;
  const tracks = (Array.isArray(score.tracks) ? score.tracks : []).map((tr) => {
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
    return { instrument, volume, notes };
  });
  const declared = Number(score.lengthBeats);
  const lengthBeats = Number.isFinite(declared) && declared > 0 ? declared : Math.max(4, Math.ceil(maxEnd / 4) * 4);
  return { spb: 60 / bpm, lengthBeats, loop: score.loop !== false, tracks };
}

/** Each track's gain (starting at `level`, or the track's volume) into the bus and the sends. */
export function connectTracks(graph: AudioGraph, score: PreparedScore, level?: number): TrackOut[] {
  const ctx = graph.ctx;
  return score.tracks.map((tr) => {
    const gain = ctx.createGain();
    gain.gain.value = level ?? tr.volume;
    gain.connect(graph.musicBus);
    const sends = INSTRUMENT_SENDS[tr.instrument] ?? INSTRUMENT_SENDS.piano;
    const nodes: AudioNode[] = [gain];
    if (sends.reverb > 0) {
      const s = ctx.createGain();
      s.gain.value = sends.reverb;
      gain.connect(s).connect(graph.reverbSend);
      nodes.push(s);
    }
    if (sends.delay > 0) {
      const s = ctx.createGain();
      s.gain.value = sends.delay;
      gain.connect(s).connect(graph.delaySend);
      nodes.push(s);
    }
    return { gain, nodes };
  });
}

/**
 * Plays the notes with `from` ≤ beat < `to` of one iteration whose beat 0 is at context time
 * `base`. Returns the time the last of their sounds ends (`base` if none).
 */
export function scheduleNotes(graph: AudioGraph, score: PreparedScore, outs: TrackOut[], base: number, from: number, to: number): number {
  let end = base;
  score.tracks.forEach((tr, i) => {
    for (const n of tr.notes) {
      if (n.beat < from) continue;
      if (n.beat >= to) break;
      const when = base + n.beat * score.spb;
      end = Math.max(end, playVoice(graph, tr.instrument, n.hz, when, n.len * score.spb, n.vel, outs[i].gain));
    }
  });
  return end;
}
