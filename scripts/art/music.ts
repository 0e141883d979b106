/**
 * Music as scores (the format of docs/vn-engine.md): every track is written here as a chord
 * progression plus a hand-written melody; the accompaniment (pad, arpeggios, bass) is derived
 * from the chords. Output: games/<id>/music/<trackId>.json.
 *
 * Note names in the output use sharps only ("C#4", never "Db4"); flats in the source are
 * converted.
 */

export type Instrument = 'piano' | 'pad' | 'bell' | 'bass' | 'pluck' | 'strings';
export type Note = [number, string, number, number];
export interface ScoreTrack {
  instrument: Instrument;
  volume: number;
  notes: Note[];
}
export interface Score {
  bpm: number;
  loop: boolean;
  beatsPerBar: number;
  tracks: ScoreTrack[];
  lengthBeats: number;
}

const NAMES = ['C', 'C#', 'D', 'D#', 'E', 'F', 'F#', 'G', 'G#', 'A', 'A#', 'B'];
const PC: Record<string, number> = {
  C: 0, 'C#': 1, Db: 1, D: 2, 'D#': 3, Eb: 3, E: 4, 'E#': 5, Fb: 4, F: 5, 'F#': 6, Gb: 6, G: 7, 'G#': 8, Ab: 8, A: 9, 'A#': 10, Bb: 10, B: 11, Cb: 11, 'B#': 0,
};

export function midi(name: string): number {
  const m = /^([A-G](?:#|b)?)(-?\d)$/.exec(name);
  if (!m || PC[m[1]] === undefined) throw new Error(`bad note ${name}`);
  return PC[m[1]] + (parseInt(m[2], 10) + 1) * 12;
}

export function noteName(m: number): string {
  return NAMES[((m % 12) + 12) % 12] + (Math.floor(m / 12) - 1);
}

const QUALITIES: Record<string, number[]> = {
  '': [0, 4, 7],
  m: [0, 3, 7],
  '7': [0, 4, 7, 10],
  maj7: [0, 4, 7, 11],
  m7: [0, 3, 7, 10],
  sus4: [0, 5, 7],
  sus2: [0, 2, 7],
  add9: [0, 4, 7, 14],
  dim: [0, 3, 6],
  m7b5: [0, 3, 6, 10],
};

interface Chord {
  root: number;
  bass: number;
  intervals: number[];
}

export function parseChord(sym: string): Chord {
  const m = /^([A-G](?:#|b)?)(maj7|m7b5|m7|m|7|sus4|sus2|add9|dim)?(?:\/([A-G](?:#|b)?))?$/.exec(sym);
  if (!m) throw new Error(`bad chord ${sym}`);
  const root = PC[m[1]];
  return { root, bass: m[3] ? PC[m[3]] : root, intervals: QUALITIES[m[2] ?? ''] };
}

/** A close voicing whose lowest note is between E3 and D#4. */
function voicing(c: Chord, low = 52): number[] {
  let base = c.root + 48;
  while (base < low) base += 12;
  while (base >= low + 12) base -= 12;
  return c.intervals.map((i) => base + i);
}

function bassNote(c: Chord): number {
  let b = c.bass + 36;
  if (b < 38) b += 12; // keep the bass between D2 and C#3
  return b;
}

/** Parse "E5:1 D5:.5 r:1 | ..." into notes; checks each bar's length. */
export function parseMelody(src: string, beatsPerBar: number, start = 0): Note[] {
  const notes: Note[] = [];
  const bars = src.split('|').map((b) => b.trim()).filter(Boolean);
  let t = start;
  bars.forEach((bar, i) => {
    let sum = 0;
    for (const tok of bar.split(/\s+/)) {
      const [name, lenS] = tok.split(':');
      const len = parseFloat(lenS);
      if (!(len > 0)) throw new Error(`bad token ${tok}`);
      if (name !== 'r') {
        const accent = Math.abs((t + sum) % beatsPerBar) < 1e-6 ? 0.85 : 0.72;
        notes.push([round(t + sum), noteName(midi(name)), len, accent]);
      }
      sum += len;
    }
    if (Math.abs(sum - beatsPerBar) > 1e-6) throw new Error(`bar ${i + 1} has ${sum} beats: ${bar}`);
    t += beatsPerBar;
  });
  return notes;
}

function round(v: number): number {
  return Math.round(v * 1000) / 1000;
}

export type BassStyle = 'whole' | 'half' | 'pop' | 'waltz' | 'walk' | 'pulse';
export type ArpStyle = 'eighths' | 'waltz' | 'offbeat' | 'slow' | 'ostinato' | 'none';

export interface TrackSpec {
  bpm: number;
  beatsPerBar: number;
  /** one entry per bar; two chords in a bar are separated by a space */
  chords: string[];
  melody: string;
  melodyInstrument: Instrument;
  melodyVolume?: number;
  /** a second instrument doubling the melody an octave up/down (semitones) */
  double?: { instrument: Instrument; shift: number; volume: number };
  pad?: { instrument: Instrument; volume: number };
  arp?: { instrument: Instrument; style: ArpStyle; volume: number };
  bass: { style: BassStyle; volume: number };
}

export function compose(spec: TrackSpec): Score {
  const bpb = spec.beatsPerBar;
  const bars = spec.chords.length;
  const lengthBeats = bars * bpb;
  const melody = parseMelody(spec.melody, bpb);
  const pad: Note[] = [];
  const arp: Note[] = [];
  const bass: Note[] = [];
  // flatten chords into [start, length, chord]
  const seq: Array<[number, number, Chord]> = [];
  spec.chords.forEach((bar, i) => {
    const parts = bar.trim().split(/\s+/);
    const len = bpb / parts.length;
    parts.forEach((sym, k) => seq.push([i * bpb + k * len, len, parseChord(sym)]));
  });
  seq.forEach(([start, len, c], idx) => {
    const v = voicing(c);
    for (const m of v) pad.push([round(start), noteName(m), len, 0.5]);
    const b = bassNote(c);
    const next = seq[(idx + 1) % seq.length][2];
    switch (spec.bass.style) {
      case 'whole':
        bass.push([round(start), noteName(b), len, 0.75]);
        break;
      case 'half':
        for (let t = 0; t < len; t += 2) bass.push([round(start + t), noteName(t === 0 ? b : b + 7), Math.min(2, len - t), t === 0 ? 0.8 : 0.65]);
        break;
      case 'pulse':
        for (let t = 0; t < len; t += 1) bass.push([round(start + t), noteName(b), 0.9, t === 0 ? 0.8 : 0.55]);
        break;
      case 'pop': {
        const pat: Array<[number, number, number]> = [
          [0, 0, 1.5],
          [1.5, 7, 0.5],
          [2, 12, 1],
          [3, 7, 1],
        ];
        for (const [t, iv, l] of pat) if (t < len) bass.push([round(start + t), noteName(b + iv), Math.min(l, len - t), t === 0 ? 0.85 : 0.6]);
        break;
      }
      case 'waltz':
        bass.push([round(start), noteName(b), 1, 0.8]);
        break;
      case 'walk': {
        const third = b + c.intervals[1];
        const fifth = b + 7;
        const target = bassNote(next);
        const approach = target > b ? target - 1 : target + 1;
        const line = len >= 4 ? [b, third, fifth, approach] : [b, len >= 2 ? fifth : b];
        line.forEach((m, k) => bass.push([round(start + k), noteName(m), 0.95, k === 0 ? 0.8 : 0.62]));
        break;
      }
    }
    if (spec.arp && spec.arp.style !== 'none') {
      const up = [...v, v[0] + 12, v[1] + 12];
      const order = [0, 1, 2, 3, 4, 3, 2, 1];
      switch (spec.arp.style) {
        case 'eighths':
          for (let k = 0; k < len * 2; k++) arp.push([round(start + k / 2), noteName(up[order[k % order.length]] + 12), 0.5, k % 2 === 0 ? 0.55 : 0.4]);
          break;
        case 'slow':
          for (let k = 0; k < len; k++) arp.push([round(start + k), noteName(up[order[k % order.length]] + 12), 1.5, 0.45]);
          break;
        case 'waltz':
          for (let k = 1; k < len; k++) for (const m of v) arp.push([round(start + k), noteName(m + 12), 0.8, 0.42]);
          break;
        case 'offbeat':
          for (let k = 0.5; k < len; k += 1) for (const m of v) arp.push([round(start + k), noteName(m + 12), 0.35, 0.45]);
          break;
        case 'ostinato': {
          const o = [0, 2, 4, 2, 1, 2, 4, 2];
          for (let k = 0; k < len * 2; k++) arp.push([round(start + k / 2), noteName(up[o[k % o.length]] + 12), 0.45, k % 4 === 0 ? 0.5 : 0.36]);
          break;
        }
      }
    }
  });
  const tracks: ScoreTrack[] = [{ instrument: spec.melodyInstrument, volume: spec.melodyVolume ?? 0.7, notes: melody }];
  if (spec.double) {
    const d = spec.double;
    tracks.push({
      instrument: d.instrument,
      volume: d.volume,
      notes: melody.map(([t, nm, l, vel]) => [t, noteName(midi(nm) + d.shift), l, round(vel * 0.8)] as Note),
    });
  }
  if (spec.arp && spec.arp.style !== 'none') tracks.push({ instrument: spec.arp.instrument, volume: spec.arp.volume, notes: arp });
  if (spec.pad) tracks.push({ instrument: spec.pad.instrument, volume: spec.pad.volume, notes: pad });
  tracks.push({ instrument: 'bass', volume: spec.bass.volume, notes: bass });
  return { bpm: spec.bpm, loop: true, beatsPerBar: bpb, tracks, lengthBeats };
}

// ---------------------------------------------------------------------------------------------
// the tracks

export const TRACKS: Record<string, Record<string, TrackSpec>> = {
  'hajimari-no-eki': {
    // 夏の終わり: the main theme, nostalgic, a descending canon-like bass
    natsu_no_owari: {
      bpm: 80,
      beatsPerBar: 4,
      chords: ['D', 'A/C#', 'Bm', 'F#m/A', 'G', 'D/F#', 'Em', 'A', 'D', 'A/C#', 'Bm', 'F#m/A', 'G', 'A', 'D', 'D'],
      melody:
        'F#5:1.5 E5:.5 D5:1 A4:1 | C#5:1.5 D5:.5 E5:2 | D5:1.5 C#5:.5 B4:1 F#4:1 | A4:3 r:1 |' +
        'B4:1 D5:1 G5:1.5 F#5:.5 | F#5:1 E5:1 D5:2 | E5:1 G5:1 B5:1.5 A5:.5 | A5:3 r:1 |' +
        'A5:1.5 F#5:.5 D5:1 F#5:1 | E5:1.5 C#5:.5 A4:2 | B4:1 D5:1 F#5:1.5 E5:.5 | C#5:3 r:1 |' +
        'D5:1 B4:1 G5:1.5 F#5:.5 | E5:1 F#5:.5 E5:.5 C#5:2 | D5:4 | A4:1 F#4:1 D4:2',
      melodyInstrument: 'piano',
      melodyVolume: 0.75,
      double: { instrument: 'bell', shift: 12, volume: 0.18 },
      arp: { instrument: 'pluck', style: 'eighths', volume: 0.32 },
      pad: { instrument: 'pad', volume: 0.28 },
      bass: { style: 'half', volume: 0.55 },
    },
    // ひなた商店: the cheerful town theme
    hinata_shoten: {
      bpm: 116,
      beatsPerBar: 4,
      chords: ['G', 'Em', 'C', 'D', 'G', 'Em', 'Am7', 'D7', 'C', 'D', 'Bm', 'Em', 'Am7', 'D7', 'G', 'G'],
      melody:
        'B4:.5 D5:.5 G5:.5 D5:.5 B4:1 G4:1 | E5:.5 D5:.5 B4:.5 G4:.5 E4:2 | E4:.5 G4:.5 C5:.5 E5:.5 D5:1 C5:1 | A4:1.5 B4:.5 A4:2 |' +
        'B4:.5 D5:.5 G5:.5 A5:.5 B5:1 A5:.5 G5:.5 | E5:1.5 G5:.5 B4:2 | C5:.5 B4:.5 A4:.5 C5:.5 E5:1 D5:.5 C5:.5 | D5:2 F#4:1 A4:1 |' +
        'G5:.5 E5:.5 C5:.5 E5:.5 G5:1 E5:1 | F#5:.5 E5:.5 D5:.5 E5:.5 F#5:1 A5:1 | B5:1 A5:.5 F#5:.5 D5:2 | E5:.5 F#5:.5 G5:.5 E5:.5 B4:2 |' +
        'C5:1 E5:1 A5:1 G5:.5 E5:.5 | F#5:1 D5:.5 C5:.5 A4:2 | G5:.5 D5:.5 B4:.5 D5:.5 G5:2 | G4:1 r:3',
      melodyInstrument: 'pluck',
      melodyVolume: 0.7,
      double: { instrument: 'bell', shift: 12, volume: 0.16 },
      arp: { instrument: 'piano', style: 'offbeat', volume: 0.3 },
      pad: { instrument: 'pad', volume: 0.18 },
      bass: { style: 'pop', volume: 0.6 },
    },
    // 夜のホーム: quiet and sad
    yoru_no_hoomu: {
      bpm: 66,
      beatsPerBar: 4,
      chords: ['Am', 'F', 'C', 'G', 'Am', 'Dm', 'E7', 'E7', 'F', 'G', 'Em', 'Am', 'Dm', 'G', 'Esus4', 'E'],
      melody:
        'E5:2 C5:1 B4:1 | A4:3 C5:1 | G4:2 E4:1 G4:1 | D5:3 r:1 |' +
        'E5:2 A5:1 G5:1 | F5:2 E5:1 D5:1 | E5:1 D5:1 B4:1 G#4:1 | B4:3 r:1 |' +
        'C5:1.5 D5:.5 E5:1 F5:1 | G5:2 F5:1 E5:1 | E5:1.5 D5:.5 B4:2 | C5:3 r:1 |' +
        'F5:2 E5:1 D5:1 | D5:2 C5:1 B4:1 | A4:2 B4:1 A4:1 | G#4:3 r:1',
      melodyInstrument: 'strings',
      melodyVolume: 0.6,
      arp: { instrument: 'piano', style: 'eighths', volume: 0.3 },
      pad: { instrument: 'pad', volume: 0.22 },
      bass: { style: 'whole', volume: 0.5 },
    },
    // はじまり: the ending theme, bright and open
    hajimari: {
      bpm: 88,
      beatsPerBar: 4,
      chords: ['G', 'D/F#', 'Em', 'C', 'G', 'D7', 'C', 'D', 'Em', 'Bm', 'C', 'G/B', 'Am', 'D7', 'G', 'G'],
      melody:
        'D5:1 G5:1 B5:1.5 A5:.5 | A5:2 F#5:1 D5:1 | E5:1 G5:1 B5:1.5 A5:.5 | G5:3 E5:1 |' +
        'D5:1 G5:1 B5:1 D6:1 | C6:1 B5:1 A5:2 | G5:1 E5:1 C5:1 E5:1 | F#5:3 r:1 |' +
        'G5:1.5 F#5:.5 E5:1 B4:1 | D5:1.5 C#5:.5 B4:2 | C5:1 E5:1 G5:1 C6:1 | B5:2 A5:1 G5:1 |' +
        'A5:1.5 G5:.5 E5:1 C5:1 | D5:1 F#5:1 A5:1 C6:1 | B5:4 | G5:2 r:2',
      melodyInstrument: 'strings',
      melodyVolume: 0.7,
      double: { instrument: 'bell', shift: 0, volume: 0.22 },
      arp: { instrument: 'piano', style: 'eighths', volume: 0.32 },
      pad: { instrument: 'pad', volume: 0.25 },
      bass: { style: 'half', volume: 0.55 },
    },
  },
  'hoshifuru-toshokan': {
    // 星のワルツ: the library's theme, a music-box waltz
    hoshi_no_waltz: {
      bpm: 104,
      beatsPerBar: 3,
      chords: ['D', 'D', 'Bm', 'Bm', 'G', 'A', 'D', 'A', 'D', 'F#m', 'G', 'Em', 'D', 'A', 'D', 'D', 'G', 'A', 'F#m', 'Bm', 'Em', 'A', 'D', 'D'],
      melody:
        'A4:1 D5:1 F#5:1 | A5:2 F#5:1 | B5:1 A5:1 F#5:1 | D5:3 | G5:1 B5:1 G5:1 | E5:2 C#5:1 | D5:1 F#5:1 A5:1 | E5:3 |' +
        'A4:1 D5:1 F#5:1 | A5:2 C#6:1 | B5:1.5 A5:.5 G5:1 | E5:3 | F#5:1 A5:1 D6:1 | C#6:1.5 B5:.5 A5:1 | D6:3 | r:3 |' +
        'B5:1 D6:1 B5:1 | A5:2 E5:1 | F#5:1 A5:1 C#6:1 | B5:3 | G5:1 B5:1 E6:1 | C#6:1.5 B5:.5 A5:1 | D6:2 A5:1 | D5:3',
      melodyInstrument: 'bell',
      melodyVolume: 0.6,
      double: { instrument: 'strings', shift: -12, volume: 0.2 },
      arp: { instrument: 'pluck', style: 'waltz', volume: 0.28 },
      pad: { instrument: 'pad', volume: 0.2 },
      bass: { style: 'waltz', volume: 0.55 },
    },
    // 迷い星: mysterious, for searching the stacks
    mayoi_boshi: {
      bpm: 76,
      beatsPerBar: 4,
      chords: ['Dm', 'G', 'Dm', 'G', 'Bb', 'C', 'Am', 'Am', 'Dm', 'G', 'F', 'C', 'Bb', 'Gm', 'A', 'A'],
      melody:
        'D5:1 F5:1 A5:2 | B5:1.5 A5:.5 G5:2 | F5:1 E5:1 D5:1 A4:1 | B4:3 r:1 |' +
        'D5:1 F5:1 Bb5:1.5 A5:.5 | G5:2 E5:2 | A5:1 G5:1 E5:1 C5:1 | E5:3 r:1 |' +
        'A5:1.5 G5:.5 F5:1 D5:1 | B5:1.5 A5:.5 G5:1 D5:1 | C6:2 A5:1 F5:1 | G5:3 r:1 |' +
        'F5:1 D5:1 Bb4:1 D5:1 | G5:1.5 F5:.5 D5:2 | E5:1 C#5:1 A4:1 C#5:1 | E5:3 r:1',
      melodyInstrument: 'bell',
      melodyVolume: 0.55,
      arp: { instrument: 'pluck', style: 'ostinato', volume: 0.3 },
      pad: { instrument: 'pad', volume: 0.3 },
      bass: { style: 'whole', volume: 0.5 },
    },
    // 忘れられた一冊: sad
    wasureta_issatsu: {
      bpm: 62,
      beatsPerBar: 4,
      chords: ['Em', 'C', 'G', 'D', 'Em', 'Am', 'B7', 'B7', 'C', 'D', 'Bm', 'Em', 'Am', 'D', 'Bsus4', 'B'],
      melody:
        'B4:2 G4:1 E4:1 | E5:2 D5:1 C5:1 | B4:1.5 A4:.5 G4:2 | A4:3 r:1 |' +
        'B4:2 E5:1 G5:1 | A5:2 G5:1 E5:1 | F#5:1 D#5:1 B4:1 A4:1 | F#4:3 r:1 |' +
        'G4:1 C5:1 E5:1.5 D5:.5 | D5:1 F#5:1 A5:2 | B5:1.5 A5:.5 F#5:1 D5:1 | E5:3 r:1 |' +
        'C5:1.5 B4:.5 A4:1 C5:1 | D5:1.5 E5:.5 F#5:2 | E5:2 F#5:1 E5:1 | D#5:3 r:1',
      melodyInstrument: 'piano',
      melodyVolume: 0.7,
      double: { instrument: 'strings', shift: 0, volume: 0.25 },
      arp: { instrument: 'piano', style: 'slow', volume: 0.28 },
      pad: { instrument: 'strings', volume: 0.18 },
      bass: { style: 'whole', volume: 0.5 },
    },
    // つづき: the ending theme
    tsuzuki: {
      bpm: 84,
      beatsPerBar: 4,
      chords: ['C', 'G/B', 'Am', 'Em/G', 'F', 'C/E', 'Dm7', 'G', 'C', 'E7/G#', 'Am', 'C/G', 'F', 'G', 'C', 'C'],
      melody:
        'E5:1 G5:1 C6:1.5 B5:.5 | B5:2 G5:1 D5:1 | C6:1 B5:1 A5:1.5 E5:.5 | G5:3 r:1 |' +
        'A5:1 C6:1 F6:1.5 E6:.5 | E6:2 C6:1 G5:1 | F5:1 A5:1 C6:1 A5:1 | B5:2 D6:2 |' +
        'E6:1.5 D6:.5 C6:1 G5:1 | G#5:1 B5:1 E6:1.5 D6:.5 | C6:1 A5:1 E5:1 A5:1 | G5:3 E5:1 |' +
        'F5:1 A5:1 C6:1 F6:1 | D6:1.5 C6:.5 B5:1 D6:1 | C6:4 | r:4',
      melodyInstrument: 'bell',
      melodyVolume: 0.55,
      double: { instrument: 'strings', shift: -12, volume: 0.35 },
      arp: { instrument: 'piano', style: 'eighths', volume: 0.3 },
      pad: { instrument: 'pad', volume: 0.22 },
      bass: { style: 'half', volume: 0.55 },
    },
  },
  'sakurairo-signal': {
    // 桜色シグナル: the main theme, mellow piano with sevenths
    sakura_signal: {
      bpm: 76,
      beatsPerBar: 4,
      chords: ['Amaj7', 'F#m7', 'Dmaj7', 'E', 'C#m7', 'F#m7', 'Bm7', 'E7', 'Amaj7', 'C#7', 'F#m7', 'E', 'Dmaj7', 'E/D', 'Bm7 E7', 'A'],
      melody:
        'E5:1 G#5:1 C#6:1.5 B5:.5 | A5:2 E5:1 C#5:1 | F#5:1.5 E5:.5 C#5:1 A4:1 | B4:3 r:1 |' +
        'G#5:1.5 E5:.5 B4:1 C#5:1 | A5:1.5 G#5:.5 E5:2 | D5:1 F#5:1 A5:1 C#6:1 | B5:2 G#5:1 D5:1 |' +
        'C#6:1.5 B5:.5 A5:1 E5:1 | G#5:1 F5:1 C#5:1 B4:1 | A5:1.5 G#5:.5 F#5:1 C#5:1 | B4:1 E5:1 G#5:2 |' +
        'A5:1 F#5:1 C#6:1.5 A5:.5 | B5:2 G#5:1 E5:1 | D6:1 C#6:.5 B5:.5 G#5:2 | A5:3 r:1',
      melodyInstrument: 'piano',
      melodyVolume: 0.75,
      arp: { instrument: 'piano', style: 'slow', volume: 0.3 },
      pad: { instrument: 'pad', volume: 0.25 },
      bass: { style: 'half', volume: 0.5 },
    },
    // 夜の散歩: a light walk with a walking bass
    yoru_no_sanpo: {
      bpm: 96,
      beatsPerBar: 4,
      chords: ['Dmaj7', 'Bm7', 'Em7', 'A7', 'F#m7', 'Bm7', 'Em7', 'A7', 'Gmaj7', 'F#m7', 'Em7', 'A7', 'Dmaj7', 'B7', 'Em7 A7', 'Dmaj7'],
      melody:
        'F#5:.5 A5:.5 C#6:1 A5:1 F#5:1 | D5:1.5 B4:.5 A4:2 | G4:.5 B4:.5 D5:.5 E5:.5 G5:1 F#5:1 | E5:2 C#5:1 A4:1 |' +
        'A4:.5 C#5:.5 E5:1 C#5:1 A4:1 | B4:1.5 D5:.5 F#5:2 | G5:1 F#5:.5 E5:.5 D5:1 B4:1 | C#5:3 r:1 |' +
        'B4:.5 D5:.5 F#5:1 G5:1 B5:1 | A5:1.5 E5:.5 C#5:2 | D5:.5 E5:.5 G5:1 B5:1 A5:1 | G5:2 E5:1 C#5:1 |' +
        'D5:1 F#5:1 A5:1 C#6:1 | D#6:1.5 B5:.5 A5:1 F#5:1 | G5:1 E5:1 C#5:1 A4:1 | D5:3 r:1',
      melodyInstrument: 'pluck',
      melodyVolume: 0.7,
      double: { instrument: 'bell', shift: 12, volume: 0.12 },
      arp: { instrument: 'piano', style: 'offbeat', volume: 0.26 },
      pad: { instrument: 'pad', volume: 0.16 },
      bass: { style: 'walk', volume: 0.6 },
    },
    // 言えなかったこと: sad
    ienakatta: {
      bpm: 64,
      beatsPerBar: 4,
      chords: ['F#m', 'D', 'A', 'E', 'F#m', 'Bm', 'C#7', 'C#7', 'D', 'E', 'C#m', 'F#m', 'Bm', 'E', 'C#sus4', 'C#'],
      melody:
        'C#5:2 A4:1 F#4:1 | F#5:2 E5:1 D5:1 | C#5:1.5 B4:.5 A4:2 | B4:3 r:1 |' +
        'A4:1 C#5:1 F#5:1.5 E5:.5 | D5:2 C#5:1 B4:1 | F5:1 G#5:1 B5:1 G#5:1 | F5:3 r:1 |' +
        'A5:1.5 F#5:.5 D5:2 | G#5:1.5 E5:.5 B4:2 | C#5:1 E5:1 G#5:1.5 F#5:.5 | F#5:3 r:1 |' +
        'D5:1.5 E5:.5 F#5:1 B5:1 | G#5:2 E5:1 B4:1 | F#5:2 G#5:1 F#5:1 | F5:3 r:1',
      melodyInstrument: 'strings',
      melodyVolume: 0.6,
      arp: { instrument: 'piano', style: 'eighths', volume: 0.28 },
      pad: { instrument: 'pad', volume: 0.2 },
      bass: { style: 'whole', volume: 0.5 },
    },
    // 朝焼け: the ending theme, a sunrise
    asayake: {
      bpm: 84,
      beatsPerBar: 4,
      chords: ['D', 'A/C#', 'Bm', 'G', 'D/F#', 'G', 'Em7', 'A', 'D', 'A/C#', 'Bm', 'F#m7', 'G', 'A', 'D', 'D'],
      melody:
        'A4:1 D5:1 F#5:1.5 E5:.5 | E5:2 C#5:1 A4:1 | B4:1 D5:1 F#5:1.5 A5:.5 | G5:3 r:1 |' +
        'F#5:1 A5:1 D6:1.5 C#6:.5 | B5:2 G5:1 D5:1 | E5:1 G5:1 B5:1 D6:1 | C#6:3 r:1 |' +
        'D6:1.5 C#6:.5 A5:1 F#5:1 | E5:1.5 F#5:.5 A5:2 | B5:1 A5:1 F#5:1 D5:1 | C#5:1.5 D5:.5 E5:2 |' +
        'D5:1 G5:1 B5:1.5 A5:.5 | A5:1 C#6:1 E6:1.5 D6:.5 | D6:4 | r:4',
      melodyInstrument: 'strings',
      melodyVolume: 0.7,
      double: { instrument: 'bell', shift: 0, volume: 0.2 },
      arp: { instrument: 'piano', style: 'eighths', volume: 0.3 },
      pad: { instrument: 'pad', volume: 0.25 },
      bass: { style: 'half', volume: 0.55 },
    },
  },
};

// ---------------------------------------------------------------------------------------------
// sound effects (parametric; the engine synthesises them)

export type SfxType = 'chime' | 'door' | 'wave' | 'train' | 'page' | 'footsteps' | 'bell' | 'wind';
export interface Sfx {
  type: SfxType;
  /** 0..1 */
  volume: number;
  /** seconds */
  duration: number;
  [key: string]: unknown;
}

export const SFX: Record<string, Record<string, Sfx>> = {
  'hajimari-no-eki': {
    chime: { type: 'chime', volume: 0.45, duration: 2.4, notes: ['E5', 'C5', 'D5', 'G4'], interval: 0.5 },
    train: { type: 'train', volume: 0.55, duration: 5, interval: 0.5, horn: true },
    wave: { type: 'wave', volume: 0.5, duration: 3.5, count: 2 },
    footsteps: { type: 'footsteps', volume: 0.45, duration: 2, count: 6, interval: 0.28 },
    wind: { type: 'wind', volume: 0.4, duration: 3.5 },
    crossing: { type: 'bell', volume: 0.35, duration: 0.5, pitch: 'A5', count: 8, interval: 0.5 },
  },
  'hoshifuru-toshokan': {
    starfall: { type: 'chime', volume: 0.4, duration: 1.4, notes: ['B6', 'F#6', 'D#6', 'B5', 'F#5'], interval: 0.12 },
    page: { type: 'page', volume: 0.5, duration: 0.4 },
    door: { type: 'door', volume: 0.5, duration: 1.2 },
    clock: { type: 'bell', volume: 0.35, duration: 3, pitch: 'E4', count: 3, interval: 1.4 },
    alarm: { type: 'bell', volume: 0.3, duration: 0.3, pitch: 'C6', count: 8, interval: 0.16 },
    footsteps: { type: 'footsteps', volume: 0.4, duration: 2, count: 5, interval: 0.42 },
    wind: { type: 'wind', volume: 0.35, duration: 3 },
  },
  'sakurairo-signal': {
    crossing: { type: 'bell', volume: 0.35, duration: 0.5, pitch: 'A5', count: 10, interval: 0.5 },
    train: { type: 'train', volume: 0.55, duration: 5, interval: 0.45, horn: true },
    door: { type: 'chime', volume: 0.35, duration: 1.2, notes: ['F#5', 'D5', 'A4', 'D5', 'E5', 'A5'], interval: 0.2 },
    footsteps: { type: 'footsteps', volume: 0.4, duration: 2, count: 5, interval: 0.45 },
    wind: { type: 'wind', volume: 0.35, duration: 3 },
    shutter: { type: 'page', volume: 0.45, duration: 0.2 },
  },
};
