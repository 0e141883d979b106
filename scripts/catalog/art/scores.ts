/**
 * Music and sound effects of the two titles added with the catalogue, in the score format of
 * docs/vn-engine.md: chord progressions and hand-written melodies, arranged by `compose` in
 * scripts/art/music.ts; sound effects are the engine's parametric sfx.
 */
import type { Sfx, TrackSpec } from '../../art/music';

export const CATALOG_TRACKS: Record<string, Record<string, TrackSpec>> = {
  'amayadori-cafe': {
    // あまやどり: the café's theme, a gentle piano tune for rainy afternoons
    amayadori: {
      bpm: 78,
      beatsPerBar: 4,
      chords: ['F', 'Am7', 'Dm7', 'C', 'Bb', 'C', 'F', 'F', 'Dm', 'Am', 'Bb', 'F/A', 'Gm7', 'C7', 'F', 'F'],
      melody:
        'A4:1 C5:1 F5:1.5 E5:.5 | E5:2 C5:1 A4:1 | D5:1 F5:1 A5:1.5 G5:.5 | G5:3 r:1 |' +
        'F5:1 D5:1 Bb4:1 D5:1 | E5:1.5 F5:.5 G5:2 | A5:1 G5:.5 F5:.5 C5:2 | F5:3 r:1 |' +
        'D5:1 E5:1 F5:1 A5:1 | C6:2 B5:1 A5:1 | Bb5:1.5 A5:.5 G5:1 F5:1 | A5:3 r:1 |' +
        'G5:1 Bb5:1 D6:1 C6:.5 Bb5:.5 | A5:1.5 G5:.5 E5:1 C5:1 | F5:4 | C5:1 A4:1 F4:2',
      melodyInstrument: 'piano',
      melodyVolume: 0.72,
      double: { instrument: 'bell', shift: 12, volume: 0.14 },
      arp: { instrument: 'piano', style: 'slow', volume: 0.26 },
      pad: { instrument: 'pad', volume: 0.22 },
      bass: { style: 'half', volume: 0.5 },
    },
    // 謎: a curious pizzicato walk for investigating the arcade
    nazo: {
      bpm: 92,
      beatsPerBar: 4,
      chords: ['Dm', 'Dm', 'Bb', 'A', 'Dm', 'Gm', 'A7', 'A7', 'F', 'C', 'Dm', 'Bb', 'Gm', 'A', 'Dm', 'A7'],
      melody:
        'D5:.5 F5:.5 A5:1 G5:.5 F5:.5 E5:1 | F5:1 D5:1 r:2 | D5:.5 F5:.5 Bb5:1 A5:.5 G5:.5 F5:1 | E5:2 C#5:2 |' +
        'D5:.5 E5:.5 F5:.5 G5:.5 A5:1 D6:1 | C6:1 Bb5:1 G5:2 | A5:1 G5:.5 F5:.5 E5:1 C#5:1 | E5:3 r:1 |' +
        'F5:.5 A5:.5 C6:1 A5:1 F5:1 | E5:.5 G5:.5 C6:1 G5:2 | F5:1 E5:.5 D5:.5 A4:2 | Bb4:1 D5:1 F5:2 |' +
        'G5:1.5 F5:.5 D5:1 Bb4:1 | C#5:1 E5:1 A5:2 | D5:1 F5:1 A5:1 D6:1 | C#6:3 r:1',
      melodyInstrument: 'pluck',
      melodyVolume: 0.66,
      arp: { instrument: 'bell', style: 'ostinato', volume: 0.18 },
      pad: { instrument: 'pad', volume: 0.2 },
      bass: { style: 'walk', volume: 0.58 },
    },
    // 思い出: fifty years ago, a bus stop in the rain
    omoide: {
      bpm: 64,
      beatsPerBar: 4,
      chords: ['Am', 'Em/G', 'F', 'C/E', 'Dm', 'Am/C', 'Bm7b5', 'E7', 'Am', 'F', 'G', 'C', 'F', 'Dm7', 'Esus4', 'E'],
      melody:
        'A4:1.5 B4:.5 C5:1 E5:1 | B4:2 G4:2 | A4:1 C5:1 F5:1.5 E5:.5 | E5:3 r:1 |' +
        'F5:1.5 E5:.5 D5:1 A4:1 | C5:1.5 B4:.5 A4:2 | B4:1 D5:1 F5:1 E5:1 | G#4:3 r:1 |' +
        'A4:1 C5:1 E5:1.5 A5:.5 | A5:2 F5:1 C5:1 | D5:1.5 E5:.5 G5:1 B5:1 | C6:3 r:1 |' +
        'A5:1.5 G5:.5 F5:1 C5:1 | D5:1 F5:1 A5:1.5 G5:.5 | E5:2 D5:1 B4:1 | G#4:3 r:1',
      melodyInstrument: 'strings',
      melodyVolume: 0.62,
      arp: { instrument: 'piano', style: 'eighths', volume: 0.26 },
      pad: { instrument: 'pad', volume: 0.2 },
      bass: { style: 'whole', volume: 0.48 },
    },
    // 雨あがり: the ending theme
    ameagari: {
      bpm: 90,
      beatsPerBar: 4,
      chords: ['C', 'G/B', 'Am', 'F', 'C/G', 'F', 'Dm7', 'G', 'C', 'E7', 'Am', 'C/G', 'F', 'G', 'C', 'C'],
      melody:
        'E5:1 G5:1 C6:1.5 B5:.5 | B5:1 G5:1 D5:2 | C5:1 E5:1 A5:1.5 G5:.5 | F5:2 A5:2 |' +
        'G5:1.5 E5:.5 C5:1 E5:1 | F5:1 A5:1 C6:2 | D6:1.5 C6:.5 A5:1 F5:1 | G5:3 r:1 |' +
        'E5:.5 F5:.5 G5:1 C6:1 G5:1 | G#5:1 B5:1 E6:2 | C6:1.5 B5:.5 A5:1 E5:1 | G5:2 E5:1 C5:1 |' +
        'A5:1 C6:1 F6:1.5 E6:.5 | D6:1 B5:1 G5:1 D6:1 | C6:4 | r:4',
      melodyInstrument: 'piano',
      melodyVolume: 0.72,
      double: { instrument: 'strings', shift: -12, volume: 0.3 },
      arp: { instrument: 'pluck', style: 'eighths', volume: 0.28 },
      pad: { instrument: 'pad', volume: 0.22 },
      bass: { style: 'pop', volume: 0.55 },
    },
  },
  'shizuka-no-umi-postman': {
    // 月の郵便: the post office's theme, bouncy and bright
    tsuki_no_yubin: {
      bpm: 120,
      beatsPerBar: 4,
      chords: ['G', 'D/F#', 'Em', 'C', 'G', 'Em', 'A7', 'D7', 'C', 'D', 'Bm', 'Em', 'C', 'D7', 'G', 'G'],
      melody:
        'D5:.5 G5:.5 B5:.5 G5:.5 D5:1 B4:1 | A4:.5 D5:.5 F#5:.5 A5:.5 F#5:2 | G5:.5 E5:.5 B4:.5 E5:.5 G5:1 B5:1 | A5:1 G5:.5 E5:.5 C5:2 |' +
        'B4:.5 D5:.5 G5:1 B5:1 D6:1 | C6:1 B5:.5 G5:.5 E5:2 | C#5:.5 E5:.5 A5:.5 G5:.5 E5:1 C#5:1 | D5:3 r:1 |' +
        'E5:.5 G5:.5 C6:1 B5:.5 A5:.5 G5:1 | F#5:.5 A5:.5 D6:1 C6:.5 B5:.5 A5:1 | B5:1 F#5:1 D5:1 B4:1 | E5:1.5 F#5:.5 G5:2 |' +
        'C6:1 A5:1 E5:1 G5:1 | F#5:1 A5:1 C6:1 D6:1 | B5:.5 A5:.5 G5:1 D5:1 B4:1 | G4:2 r:2',
      melodyInstrument: 'pluck',
      melodyVolume: 0.7,
      double: { instrument: 'bell', shift: 12, volume: 0.16 },
      arp: { instrument: 'piano', style: 'offbeat', volume: 0.26 },
      pad: { instrument: 'pad', volume: 0.16 },
      bass: { style: 'pop', volume: 0.6 },
    },
    // うさぎ探し: a tiptoeing search, staccato over a walking bass
    usagi_sagashi: {
      bpm: 126,
      beatsPerBar: 4,
      chords: ['F', 'Dm', 'Gm7', 'C7', 'F', 'Dm', 'Gm7', 'C7', 'Bb', 'C', 'Am', 'Dm', 'Gm7', 'C7', 'F', 'C7'],
      melody:
        'C5:.5 r:.5 F5:.5 r:.5 A5:.5 G5:.5 F5:1 | D5:.5 r:.5 F5:.5 r:.5 A5:2 | Bb5:.5 A5:.5 G5:.5 F5:.5 D5:1 G5:1 | E5:1 C5:1 r:2 |' +
        'C5:.5 r:.5 F5:.5 r:.5 A5:.5 Bb5:.5 C6:1 | D6:1 C6:.5 A5:.5 F5:2 | G5:.5 Bb5:.5 D6:.5 C6:.5 Bb5:1 G5:1 | C6:3 r:1 |' +
        'D5:.5 F5:.5 Bb5:1 A5:.5 G5:.5 F5:1 | E5:.5 G5:.5 C6:1 Bb5:.5 A5:.5 G5:1 | A5:1 E5:1 C5:1 E5:1 | F5:1.5 E5:.5 D5:2 |' +
        'G5:.5 A5:.5 Bb5:1 D6:1 C6:1 | Bb5:.5 A5:.5 G5:.5 E5:.5 C5:2 | F5:.5 r:.5 A5:.5 r:.5 C6:1 r:1 | E5:1 G5:1 Bb5:1 r:1',
      melodyInstrument: 'pluck',
      melodyVolume: 0.68,
      arp: { instrument: 'bell', style: 'offbeat', volume: 0.16 },
      bass: { style: 'walk', volume: 0.6 },
    },
    // しずか: the silent sea, a slow music-box waltz
    shizuka: {
      bpm: 72,
      beatsPerBar: 3,
      chords: ['Em', 'C', 'G', 'D', 'Em', 'Am', 'B7', 'B7', 'C', 'G', 'Am', 'Em', 'C', 'D', 'Em', 'Em'],
      melody:
        'B4:1 E5:1 G5:1 | G5:2 E5:1 | D5:1 G5:1 B5:1 | A5:3 | G5:1 F#5:1 E5:1 | C5:1.5 E5:.5 A5:1 | F#5:1 D#5:1 B4:1 | B4:3 |' +
        'C5:1 E5:1 G5:1 | B5:2 D5:1 | C5:1 E5:1 A5:1 | G5:2 E5:1 | E5:1 G5:1 C6:1 | B5:1 A5:1 F#5:1 | E5:3 | r:3',
      melodyInstrument: 'bell',
      melodyVolume: 0.55,
      arp: { instrument: 'pluck', style: 'waltz', volume: 0.22 },
      pad: { instrument: 'pad', volume: 0.3 },
      bass: { style: 'waltz', volume: 0.5 },
    },
    // 地球の出: the ending theme, the Earth hanging in a black sky
    chikyu_no_de: {
      bpm: 84,
      beatsPerBar: 4,
      chords: ['D', 'Bm', 'G', 'A', 'F#m', 'Bm', 'Em7', 'A7', 'G', 'A', 'F#m', 'Bm', 'Em7', 'A7', 'D', 'D'],
      melody:
        'F#5:1 A5:1 D6:1.5 C#6:.5 | B5:2 F#5:1 D5:1 | G5:1 B5:1 D6:1 B5:1 | A5:3 r:1 |' +
        'C#6:1.5 A5:.5 F#5:1 C#5:1 | D5:1 F#5:1 B5:2 | G5:1.5 F#5:.5 E5:1 B4:1 | C#5:1 E5:1 A5:2 |' +
        'B5:1 G5:1 D5:1 G5:1 | A5:1 C#6:1 E6:2 | C#6:1.5 B5:.5 A5:1 F#5:1 | D6:3 r:1 |' +
        'G5:1 B5:1 E6:1.5 D6:.5 | C#6:1 A5:1 E5:1 G5:1 | F#5:4 | r:4',
      melodyInstrument: 'strings',
      melodyVolume: 0.68,
      double: { instrument: 'bell', shift: 12, volume: 0.16 },
      arp: { instrument: 'piano', style: 'eighths', volume: 0.28 },
      pad: { instrument: 'pad', volume: 0.24 },
      bass: { style: 'half', volume: 0.52 },
    },
  },
};

export const CATALOG_SFX: Record<string, Record<string, Sfx>> = {
  'amayadori-cafe': {
    doorbell: { type: 'chime', volume: 0.4, duration: 1.2, notes: ['G6', 'E6', 'C6'], interval: 0.09 },
    footsteps: { type: 'footsteps', volume: 0.4, duration: 2, count: 6, interval: 0.34 },
    wind: { type: 'wind', volume: 0.3, duration: 4 },
    page: { type: 'page', volume: 0.45, duration: 0.4 },
  },
  'shizuka-no-umi-postman': {
    chime: { type: 'chime', volume: 0.4, duration: 1.6, notes: ['C6', 'G5', 'E6'], interval: 0.3 },
    page: { type: 'page', volume: 0.5, duration: 0.4 },
    door: { type: 'door', volume: 0.5, duration: 1.4 },
    footsteps: { type: 'footsteps', volume: 0.35, duration: 2, count: 5, interval: 0.5 },
    beep: { type: 'bell', volume: 0.25, duration: 0.25, pitch: 'A6', count: 3, interval: 0.12 },
  },
};
