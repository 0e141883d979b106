/**
 * Synth voices for the score instruments: small subtractive/FM patches with ADSR envelopes.
 * Each call schedules one note at `when` (AudioContext time) for `dur` seconds into `out`.
 */
import type { AudioGraph } from './graph';

export interface VoiceSends {
  reverb: number;
  delay: number;
}

/** How much of each instrument goes to the reverb and the delay. */
export const INSTRUMENT_SENDS: Record<string, VoiceSends> = {
  piano: { reverb: 0.35, delay: 0.12 },
  pad: { reverb: 0.55, delay: 0.05 },
  bell: { reverb: 0.5, delay: 0.28 },
  bass: { reverb: 0.06, delay: 0 },
  pluck: { reverb: 0.3, delay: 0.22 },
  strings: { reverb: 0.5, delay: 0.04 },
};

function osc(ctx: BaseAudioContext, type: OscillatorType, freq: number, detuneCents = 0): OscillatorNode {
  const o = ctx.createOscillator();
  o.type = type;
  o.frequency.value = freq;
  o.detune.value = detuneCents;
  return o;
}

function cleanup(nodes: AudioNode[], last: OscillatorNode | AudioBufferSourceNode): void {
  last.onended = () => {
    for (const n of nodes) {
      try {
        n.disconnect();
      } catch {
        /* already gone */
      }
    }
  };
}

/** Schedules one note. Returns the time its sound ends. */
export function playVoice(
  engine: AudioGraph,
  instrument: string,
  freq: number,
  when: number,
  dur: number,
  vel: number,
  out: AudioNode,
): number {
  const ctx = engine.ctx;
  const t = Math.max(when, ctx.currentTime);
  const v = Math.max(0, Math.min(1, vel));
  dur = Math.max(0.03, dur);
  switch (instrument) {
    case 'pad': {
      const att = Math.min(0.9, dur * 0.35);
      const rel = 1.4;
      const end = t + dur;
      const g = ctx.createGain();
      const f = ctx.createBiquadFilter();
      f.type = 'lowpass';
      f.frequency.value = Math.min(2400, freq * 3.2);
      f.Q.value = 0.6;
      const oscs = [osc(ctx, 'sawtooth', freq, -7), osc(ctx, 'sawtooth', freq, 7), osc(ctx, 'triangle', freq / 2)];
      const mix = ctx.createGain();
      mix.gain.value = 0.33;
      for (const o of oscs) o.connect(mix);
      mix.connect(f).connect(g).connect(out);
      const peak = 0.22 * v;
      g.gain.setValueAtTime(0, t);
      g.gain.linearRampToValueAtTime(peak, t + att);
      g.gain.setTargetAtTime(peak * 0.8, t + att, 0.6);
      g.gain.setTargetAtTime(0, end, rel / 4);
      for (const o of oscs) {
        o.start(t);
        o.stop(end + rel + 0.1);
      }
      cleanup([g, f, mix, ...oscs], oscs[0]);
      return end + rel;
    }
    case 'bell': {
      const len = Math.max(dur, 2.4);
      const g = ctx.createGain();
      const car = osc(ctx, 'sine', freq);
      const mod = osc(ctx, 'sine', freq * 3.5);
      const modGain = ctx.createGain();
      modGain.gain.setValueAtTime(freq * 1.6, t);
      modGain.gain.setTargetAtTime(0, t, 0.5);
      mod.connect(modGain).connect(car.frequency);
      const partial = osc(ctx, 'sine', freq * 2.76);
      const pg = ctx.createGain();
      pg.gain.setValueAtTime(0.18 * v, t);
      pg.gain.setTargetAtTime(0, t, 0.25);
      partial.connect(pg).connect(out);
      car.connect(g).connect(out);
      g.gain.setValueAtTime(0, t);
      g.gain.linearRampToValueAtTime(0.32 * v, t + 0.003);
      g.gain.setTargetAtTime(0, t + 0.003, len / 4.5);
      for (const o of [car, mod, partial]) {
        o.start(t);
        o.stop(t + len + 0.1);
      }
      cleanup([g, modGain, pg, car, mod, partial], car);
      return t + len;
    }
    case 'bass': {
      const rel = 0.18;
      const end = t + dur;
      const g = ctx.createGain();
      const f = ctx.createBiquadFilter();
      f.type = 'lowpass';
      f.frequency.value = 420;
      f.Q.value = 0.9;
      const a = osc(ctx, 'sine', freq);
      const b = osc(ctx, 'triangle', freq);
      const bg = ctx.createGain();
      bg.gain.value = 0.5;
      a.connect(f);
      b.connect(bg).connect(f);
      f.connect(g).connect(out);
      const peak = 0.42 * v;
      g.gain.setValueAtTime(0, t);
      g.gain.linearRampToValueAtTime(peak, t + 0.012);
      g.gain.setTargetAtTime(peak * 0.7, t + 0.012, 0.15);
      g.gain.setTargetAtTime(0, end, rel / 3);
      for (const o of [a, b]) {
        o.start(t);
        o.stop(end + rel + 0.1);
      }
      cleanup([g, f, bg, a, b], a);
      return end + rel;
    }
    case 'pluck': {
      const len = Math.min(Math.max(dur, 0.25), 1.2);
      const g = ctx.createGain();
      const f = ctx.createBiquadFilter();
      f.type = 'lowpass';
      f.Q.value = 2;
      f.frequency.setValueAtTime(Math.min(9000, freq * 10), t);
      f.frequency.setTargetAtTime(freq * 1.5, t, 0.08);
      const a = osc(ctx, 'sawtooth', freq);
      const b = osc(ctx, 'square', freq, 4);
      const bg = ctx.createGain();
      bg.gain.value = 0.35;
      a.connect(f);
      b.connect(bg).connect(f);
      f.connect(g).connect(out);
      g.gain.setValueAtTime(0, t);
      g.gain.linearRampToValueAtTime(0.2 * v, t + 0.004);
      g.gain.setTargetAtTime(0, t + 0.004, len / 4);
      for (const o of [a, b]) {
        o.start(t);
        o.stop(t + len + 0.1);
      }
      cleanup([g, f, bg, a, b], a);
      return t + len;
    }
    case 'strings': {
      const att = Math.min(0.35, dur * 0.4);
      const rel = 0.7;
      const end = t + dur;
      const g = ctx.createGain();
      const f = ctx.createBiquadFilter();
      f.type = 'lowpass';
      f.frequency.value = Math.min(3200, freq * 5);
      f.Q.value = 0.5;
      const lfo = osc(ctx, 'sine', 5.3);
      const lfoGain = ctx.createGain();
      lfoGain.gain.setValueAtTime(0, t);
      lfoGain.gain.linearRampToValueAtTime(6, t + Math.min(0.6, dur));
      lfo.connect(lfoGain);
      const oscs = [osc(ctx, 'sawtooth', freq, -9), osc(ctx, 'sawtooth', freq, 0), osc(ctx, 'sawtooth', freq, 9)];
      const mix = ctx.createGain();
      mix.gain.value = 0.3;
      for (const o of oscs) {
        lfoGain.connect(o.detune);
        o.connect(mix);
      }
      mix.connect(f).connect(g).connect(out);
      const peak = 0.2 * v;
      g.gain.setValueAtTime(0, t);
      g.gain.linearRampToValueAtTime(peak, t + att);
      g.gain.setTargetAtTime(peak * 0.85, t + att, 0.4);
      g.gain.setTargetAtTime(0, end, rel / 4);
      for (const o of [...oscs, lfo]) {
        o.start(t);
        o.stop(end + rel + 0.1);
      }
      cleanup([g, f, mix, lfoGain, lfo, ...oscs], oscs[0]);
      return end + rel;
    }
    case 'piano':
    default: {
      const rel = 0.35;
      const end = t + dur;
      const g = ctx.createGain();
      const f = ctx.createBiquadFilter();
      f.type = 'lowpass';
      f.Q.value = 0.4;
      f.frequency.setValueAtTime(Math.min(9000, freq * 9), t);
      f.frequency.setTargetAtTime(Math.min(5000, freq * 2.5), t, 0.4);
      const a = osc(ctx, 'triangle', freq);
      const b = osc(ctx, 'sine', freq * 2, 3);
      const c = osc(ctx, 'sine', freq, -4);
      const bg = ctx.createGain();
      bg.gain.setValueAtTime(0.35, t);
      bg.gain.setTargetAtTime(0.05, t, 0.3);
      a.connect(f);
      c.connect(f);
      b.connect(bg).connect(f);
      f.connect(g).connect(out);
      const peak = 0.26 * v;
      g.gain.setValueAtTime(0, t);
      g.gain.linearRampToValueAtTime(peak, t + 0.005);
      g.gain.setTargetAtTime(peak * 0.12, t + 0.005, 0.9);
      g.gain.setTargetAtTime(0, end, rel / 4);
      for (const o of [a, b, c]) {
        o.start(t);
        o.stop(end + rel + 0.1);
      }
      cleanup([g, f, bg, a, b, c], a);
      return end + rel;
    }
  }
}
