/**
 * Note names and frequencies: what scores (music.ts) and sfx specs (sfx.ts) write as "C4", "F#3",
 * "Bb5", a MIDI number or Hz, turned into Hz. Pure functions, no Web Audio, so every sound module
 * can use them without depending on the AudioEngine.
 */

const SEMITONES: Record<string, number> = { C: 0, D: 2, E: 4, F: 5, G: 7, A: 9, B: 11 };

/** "C4", "F#3", "Bb5", "a4" → Hz; a number: a MIDI note (< 128) or Hz. null if not a note. */
export function noteToHz(note: string | number): number | null {
  if (typeof note === 'number') {
    if (!Number.isFinite(note) || note <= 0) return null;
    return note < 128 ? 440 * Math.pow(2, (note - 69) / 12) : note;
  }
  const m = /^\s*([A-Ga-g])([#♯b♭]*)(-?\d)\s*$/.exec(note);
  if (!m) {
    const n = Number(note);
    return Number.isFinite(n) ? noteToHz(n) : null;
  }
  let semi = SEMITONES[m[1].toUpperCase()];
  for (const c of m[2]) semi += c === '#' || c === '♯' ? 1 : -1;
  const midi = 12 * (parseInt(m[3], 10) + 1) + semi;
  return 440 * Math.pow(2, (midi - 69) / 12);
}
