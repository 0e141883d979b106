/**
 * Parametric sound effects (docs/vn-engine.md): oscillators, noise and envelopes into the sfx bus
 * and the reverb send of the master chain. One code for both contexts an effect plays in: the
 * build renders each effect once through it (sfx-render.ts, an OfflineAudioContext) and a session
 * plays that file, or, without one, synthesises it live (sfx-player.ts). playSfx returns when the
 * effect's last sound ends, which sizes the render and tells the live path when to let go of the
 * effect's output nodes (after SFX_TAIL_S more: the reverb's ring and the compressor's release).
 */
import type { SfxSpec, SfxType } from '../types';
import { COMPRESSOR_RELEASE_S, REVERB_S } from './chain';
import type { AudioGraph } from './graph';
import { noteToHz } from './notes';
import { playVoice } from './voices';

/** The effect types playSfx knows (an sfx of another type plays nothing). */
export const SFX_TYPES: readonly SfxType[] = ['chime', 'door', 'wave', 'train', 'page', 'footsteps', 'bell', 'wind'];

/** The engine's own click for a choice (sound.ts); the build renders it with the games' effects. */
export const CHOICE_SFX: SfxSpec = { type: 'page', volume: 0.35 };

/** Seconds after an effect's last sound until the chain is silent: the reverb, the compressor's release, a margin. */
export const SFX_TAIL_S = REVERB_S + COMPRESSOR_RELEASE_S + 0.2;

/** An effect scheduled by playSfx. */
export interface ScheduledSfx {
  /** Context seconds when its last sound ends (its echo in the reverb lasts SFX_TAIL_S more). */
  end: number;
  /** Its output nodes into the chain, to disconnect once `end` + SFX_TAIL_S has passed. */
  outs: AudioNode[];
}

const num = (v: unknown, d: number, lo = -Infinity, hi = Infinity): number => {
  const n = typeof v === 'number' ? v : typeof v === 'string' ? Number(v) : NaN;
  return Number.isFinite(n) ? Math.max(lo, Math.min(hi, n)) : d;
};

/** An effect's output: its volume into the sfx bus, and a send of it into the reverb. */
function out(engine: AudioGraph, volume: number, reverb = 0.3): { dest: GainNode; outs: AudioNode[] } {
  const g = engine.ctx.createGain();
  g.gain.value = volume;
  g.connect(engine.sfxBus);
  const outs: AudioNode[] = [g];
  if (reverb > 0) {
    const s = engine.ctx.createGain();
    s.gain.value = reverb;
    g.connect(s).connect(engine.reverbSend);
    outs.push(s);
  }
  return { dest: g, outs };
}

/** A filtered noise burst with an attack/decay envelope. Returns when it stops. */
function noiseBurst(
  engine: AudioGraph,
  dest: AudioNode,
  t: number,
  opts: { attack: number; hold?: number; decay: number; peak: number; type: BiquadFilterType; freq: number; q?: number; freqEnd?: number },
): number {
  const ctx = engine.ctx;
  const src = ctx.createBufferSource();
  src.buffer = engine.noiseBuffer();
  src.loop = true;
  const f = ctx.createBiquadFilter();
  f.type = opts.type;
  f.frequency.setValueAtTime(opts.freq, t);
  f.Q.value = opts.q ?? 0.8;
  const total = opts.attack + (opts.hold ?? 0) + opts.decay;
  if (opts.freqEnd) f.frequency.exponentialRampToValueAtTime(opts.freqEnd, t + total);
  const g = ctx.createGain();
  g.gain.setValueAtTime(0.0001, t);
  g.gain.linearRampToValueAtTime(opts.peak, t + opts.attack);
  g.gain.setValueAtTime(opts.peak, t + opts.attack + (opts.hold ?? 0));
  g.gain.exponentialRampToValueAtTime(0.0001, t + total);
  src.connect(f).connect(g).connect(dest);
  src.start(t, Math.random() * 1.5);
  src.stop(t + total + 0.05);
  src.onended = () => {
    src.disconnect();
    f.disconnect();
    g.disconnect();
  };
  return t + total + 0.05;
}

/** A pitched blip (a knock, a footfall's thud). Returns when it stops. */
function tone(engine: AudioGraph, dest: AudioNode, t: number, type: OscillatorType, f0: number, f1: number, dur: number, peak: number): number {
  const ctx = engine.ctx;
  const o = ctx.createOscillator();
  o.type = type;
  o.frequency.setValueAtTime(f0, t);
  o.frequency.exponentialRampToValueAtTime(Math.max(1, f1), t + dur);
  const g = ctx.createGain();
  g.gain.setValueAtTime(0.0001, t);
  g.gain.linearRampToValueAtTime(peak, t + 0.005);
  g.gain.exponentialRampToValueAtTime(0.0001, t + dur);
  o.connect(g).connect(dest);
  o.start(t);
  o.stop(t + dur + 0.05);
  o.onended = () => {
    o.disconnect();
    g.disconnect();
  };
  return t + dur + 0.05;
}

/** A struck metal bell with an FM spectrum that dies within `ring` seconds. Returns when it stops. */
function strike(engine: AudioGraph, dest: AudioNode, t: number, hz: number, ring: number): number {
  const ctx = engine.ctx;
  const car = ctx.createOscillator();
  car.frequency.value = hz;
  const mod = ctx.createOscillator();
  mod.frequency.value = hz * 2.41;
  const mg = ctx.createGain();
  mg.gain.setValueAtTime(hz * 1.2, t);
  mg.gain.exponentialRampToValueAtTime(hz * 0.1, t + ring);
  mod.connect(mg).connect(car.frequency);
  const g = ctx.createGain();
  g.gain.setValueAtTime(0.0001, t);
  g.gain.linearRampToValueAtTime(0.35, t + 0.003);
  g.gain.exponentialRampToValueAtTime(0.0001, t + ring);
  car.connect(g).connect(dest);
  for (const o of [car, mod]) {
    o.start(t);
    o.stop(t + ring + 0.05);
  }
  car.onended = () => {
    for (const n of [car, mod, mg, g]) n.disconnect();
  };
  return t + ring + 0.05;
}

/** Schedules an effect to start now (+20 ms); null for an unknown type (nothing plays). */
export function playSfx(engine: AudioGraph, spec: SfxSpec): ScheduledSfx | null {
  const t = engine.ctx.currentTime + 0.02;
  const vol = num(spec.volume, 0.8, 0, 1);
  let o: ReturnType<typeof out>;
  let end = t;
  const ends = (at: number): void => {
    end = Math.max(end, at);
  };
  switch (spec.type) {
    case 'chime': {
      // A station / door chime: a few bell tones.
      const notes = (Array.isArray(spec.notes) && spec.notes.length ? spec.notes : ['E5', 'C5', 'D5', 'G4', 'G4', 'D5', 'E5', 'C5'])
        .map((n) => noteToHz(n as string | number))
        .filter((n): n is number => n !== null);
      const step = num(spec.interval, 0.42, 0.05, 3);
      o = out(engine, vol, 0.5);
      notes.forEach((hz, i) => ends(playVoice(engine, 'bell', hz, t + i * step, step * 1.5, 0.7, o.dest)));
      break;
    }
    case 'bell': {
      // Struck bell(s): a temple/school bell, or a crossing bell with count > 1.
      const hz = noteToHz(spec.pitch ?? 'A4') ?? 440;
      const count = Math.round(num(spec.count, 1, 1, 32));
      const step = num(spec.interval, 0.45, 0.05, 5);
      const ring = num(spec.duration, 2.5, 0.1, 10);
      o = out(engine, vol, ring < 1.2 ? 0.25 : 0.55);
      for (let i = 0; i < count; i++) {
        if (ring < 1.2) {
          // a short strike (railway crossing, alarm): bright, quickly damped
          ends(strike(engine, o.dest, t + i * step, hz, ring));
        } else {
          ends(playVoice(engine, 'bell', hz, t + i * step, ring, 0.9, o.dest));
          ends(playVoice(engine, 'bell', hz * 0.5, t + i * step, ring, 0.35, o.dest));
        }
      }
      break;
    }
    case 'door': {
      // A sliding door: a rolling swoosh, then a wooden knock.
      o = out(engine, vol, 0.2);
      const d = num(spec.duration, 0.7, 0.1, 4);
      ends(noiseBurst(engine, o.dest, t, { attack: 0.08, hold: d * 0.4, decay: d * 0.5, peak: 0.35, type: 'bandpass', freq: 700, freqEnd: 350, q: 1.2 }));
      ends(noiseBurst(engine, o.dest, t, { attack: 0.1, hold: d * 0.5, decay: d * 0.4, peak: 0.25, type: 'lowpass', freq: 180 }));
      ends(tone(engine, o.dest, t + d, 'triangle', 160, 70, 0.25, 0.5));
      ends(noiseBurst(engine, o.dest, t + d, { attack: 0.002, decay: 0.12, peak: 0.4, type: 'lowpass', freq: 900 }));
      break;
    }
    case 'wave': {
      // The sea: a few swells of filtered noise.
      const count = Math.round(num(spec.count, 2, 1, 8));
      const d = num(spec.duration, 3.2, 0.5, 12);
      o = out(engine, vol, 0.35);
      for (let i = 0; i < count; i++) {
        const s = t + i * d * 0.75;
        ends(noiseBurst(engine, o.dest, s, { attack: d * 0.45, decay: d * 0.55, peak: 0.45, type: 'lowpass', freq: 350, freqEnd: 1600, q: 0.5 }));
        ends(noiseBurst(engine, o.dest, s + d * 0.35, { attack: d * 0.15, decay: d * 0.5, peak: 0.12, type: 'highpass', freq: 3000, q: 0.4 }));
      }
      break;
    }
    case 'train': {
      // A train passing: rumble, the "tatan-tatan" of the rails, and a far horn.
      const d = num(spec.duration, 4, 1, 15);
      o = out(engine, vol, 0.25);
      ends(noiseBurst(engine, o.dest, t, { attack: d * 0.35, hold: d * 0.2, decay: d * 0.45, peak: 0.5, type: 'lowpass', freq: 140, q: 0.7 }));
      const clack = num(spec.interval, 0.55, 0.15, 2);
      for (let s = 0.2; s < d - 0.3; s += clack * 2) {
        const env = Math.sin((Math.PI * s) / d);
        for (const off of [0, 0.13]) {
          ends(noiseBurst(engine, o.dest, t + s + off, { attack: 0.003, decay: 0.09, peak: 0.35 * env + 0.02, type: 'bandpass', freq: 1100, q: 1.5 }));
          ends(tone(engine, o.dest, t + s + off, 'sine', 120, 60, 0.1, 0.25 * env));
        }
      }
      if (spec.horn !== false) ends(horn(engine, o.dest, t));
      break;
    }
    case 'page': {
      o = out(engine, vol, 0.15);
      ends(noiseBurst(engine, o.dest, t, { attack: 0.04, decay: 0.22, peak: 0.35, type: 'highpass', freq: 2500, freqEnd: 5000, q: 0.5 }));
      ends(noiseBurst(engine, o.dest, t + 0.05, { attack: 0.02, decay: 0.12, peak: 0.15, type: 'bandpass', freq: 1200, q: 1 }));
      break;
    }
    case 'footsteps': {
      const count = Math.round(num(spec.count, 4, 1, 24));
      const step = num(spec.interval, 0.42, 0.1, 2);
      o = out(engine, vol, 0.2);
      for (let i = 0; i < count; i++) {
        const s = t + i * step + (i % 2 ? 0.02 : 0);
        const p = 0.5 * (0.8 + 0.2 * ((i * 7) % 3) / 2);
        ends(tone(engine, o.dest, s, 'sine', 110, 55, 0.09, p));
        ends(noiseBurst(engine, o.dest, s, { attack: 0.003, decay: 0.08, peak: p * 0.6, type: 'bandpass', freq: 600 + (i % 2) * 150, q: 1.1 }));
      }
      break;
    }
    case 'wind': {
      o = out(engine, vol, 0.4);
      ends(wind(engine, o.dest, t, num(spec.duration, 4, 0.5, 15)));
      break;
    }
    default:
      console.warn('[yumecast] unknown sfx type', spec.type);
      return null;
  }
  return { end, outs: o.outs };
}

/** A train's far two-tone horn. Returns when it stops. */
function horn(engine: AudioGraph, dest: AudioNode, t: number): number {
  for (const hz of [392, 466]) {
    const o = engine.ctx.createOscillator();
    o.type = 'sawtooth';
    o.frequency.value = hz;
    const f = engine.ctx.createBiquadFilter();
    f.type = 'lowpass';
    f.frequency.value = 1400;
    const g = engine.ctx.createGain();
    g.gain.setValueAtTime(0.0001, t + 0.1);
    g.gain.linearRampToValueAtTime(0.06, t + 0.2);
    g.gain.setValueAtTime(0.06, t + 0.9);
    g.gain.exponentialRampToValueAtTime(0.0001, t + 1.3);
    o.connect(f).connect(g).connect(dest);
    o.start(t + 0.1);
    o.stop(t + 1.4);
  }
  return t + 1.4;
}

/** Wind: band-passed noise swept by a slow LFO, swelling over `d` seconds. Returns when it stops. */
function wind(engine: AudioGraph, dest: AudioNode, t: number, d: number): number {
  const ctx = engine.ctx;
  const src = ctx.createBufferSource();
  src.buffer = engine.noiseBuffer();
  src.loop = true;
  const f = ctx.createBiquadFilter();
  f.type = 'bandpass';
  f.frequency.value = 600;
  f.Q.value = 2.5;
  const lfo = ctx.createOscillator();
  lfo.frequency.value = 0.35;
  const lg = ctx.createGain();
  lg.gain.value = 350;
  lfo.connect(lg).connect(f.frequency);
  const g = ctx.createGain();
  g.gain.setValueAtTime(0.0001, t);
  g.gain.linearRampToValueAtTime(0.5, t + d * 0.35);
  g.gain.linearRampToValueAtTime(0.35, t + d * 0.65);
  g.gain.linearRampToValueAtTime(0.0001, t + d);
  src.connect(f).connect(g).connect(dest);
  src.start(t);
  lfo.start(t);
  src.stop(t + d + 0.05);
  lfo.stop(t + d + 0.05);
  return t + d + 0.05;
}
