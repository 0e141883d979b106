/**
 * The sound side: one AudioContext, a master chain (music bus + sfx bus → reverb/delay sends →
 * compressor → master gain), published through a MediaStreamAudioDestinationNode (and, for
 * development, optionally the speakers). Music is synthesised from score JSON, sfx from
 * parametric specs; nothing is downloaded but those small JSON files. Note names → Hz are in
 * notes.ts; what the sound modules play into is the AudioGraph interface (graph.ts).
 */
import type { Score, SfxSpec } from '../types';
import type { AudioGraph } from './graph';
import { MusicPlayer } from './music';
import { playSfx } from './sfx';

export class AudioEngine implements AudioGraph {
  readonly ctx: AudioContext;
  readonly master: GainNode;
  readonly musicBus: GainNode;
  readonly sfxBus: GainNode;
  /** Send into the reverb (voices connect here in addition to their bus). */
  readonly reverbSend: GainNode;
  readonly delaySend: GainNode;
  readonly streamDest: MediaStreamAudioDestinationNode;
  private noise: AudioBuffer | null = null;
  private current: { id: string; player: MusicPlayer } | null = null;
  private monitoring = false;

  constructor(opts: { volume?: number; monitor?: boolean } = {}) {
    this.ctx = new AudioContext({ latencyHint: 'interactive', sampleRate: 48000 });
    const ctx = this.ctx;
    this.master = ctx.createGain();
    this.master.gain.value = opts.volume ?? 0.8;
    const comp = ctx.createDynamicsCompressor();
    comp.threshold.value = -14;
    comp.knee.value = 12;
    comp.ratio.value = 4;
    comp.attack.value = 0.004;
    comp.release.value = 0.25;

    this.musicBus = ctx.createGain();
    this.musicBus.gain.value = 0.7;
    this.sfxBus = ctx.createGain();
    this.sfxBus.gain.value = 0.9;

    // Reverb: a synthetic decaying-noise impulse response.
    const reverb = ctx.createConvolver();
    reverb.buffer = this.makeImpulse(1.8, 2.6);
    const reverbReturn = ctx.createGain();
    reverbReturn.gain.value = 0.55;
    this.reverbSend = ctx.createGain();
    this.reverbSend.gain.value = 1;
    this.reverbSend.connect(reverb).connect(reverbReturn).connect(comp);

    // Feedback delay with a darkening filter in the loop.
    const delay = ctx.createDelay(1.5);
    delay.delayTime.value = 0.36;
    const fb = ctx.createGain();
    fb.gain.value = 0.32;
    const lp = ctx.createBiquadFilter();
    lp.type = 'lowpass';
    lp.frequency.value = 2600;
    this.delaySend = ctx.createGain();
    this.delaySend.gain.value = 1;
    const delayReturn = ctx.createGain();
    delayReturn.gain.value = 0.3;
    this.delaySend.connect(delay);
    delay.connect(lp).connect(fb).connect(delay);
    lp.connect(delayReturn).connect(comp);

    this.musicBus.connect(comp);
    this.sfxBus.connect(comp);
    comp.connect(this.master);

    this.streamDest = ctx.createMediaStreamDestination();
    this.master.connect(this.streamDest);
    if (opts.monitor) this.setMonitor(true);
  }

  /** Also play through the speakers of this machine (development). */
  setMonitor(on: boolean): void {
    if (on === this.monitoring) return;
    this.monitoring = on;
    if (on) this.master.connect(this.ctx.destination);
    else this.master.disconnect(this.ctx.destination);
  }

  setVolume(v: number): void {
    this.master.gain.setTargetAtTime(Math.max(0, Math.min(1, v)), this.ctx.currentTime, 0.05);
  }

  /** Autoplay policies may start the context suspended; call on any input. */
  resume(): void {
    if (this.ctx.state === 'suspended') void this.ctx.resume().catch(() => undefined);
  }

  get now(): number {
    return this.ctx.currentTime;
  }

  /** White noise, 2 s, shared by every noise voice. */
  noiseBuffer(): AudioBuffer {
    if (!this.noise) {
      const len = this.ctx.sampleRate * 2;
      const buf = this.ctx.createBuffer(1, len, this.ctx.sampleRate);
      const d = buf.getChannelData(0);
      let seed = 12345;
      for (let i = 0; i < len; i++) {
        seed = (seed * 1664525 + 1013904223) >>> 0;
        d[i] = (seed / 4294967296) * 2 - 1;
      }
      this.noise = buf;
    }
    return this.noise;
  }

  private makeImpulse(seconds: number, decay: number): AudioBuffer {
    const rate = this.ctx.sampleRate;
    const len = Math.floor(rate * seconds);
    const buf = this.ctx.createBuffer(2, len, rate);
    let seed = 987654321;
    for (let ch = 0; ch < 2; ch++) {
      const d = buf.getChannelData(ch);
      for (let i = 0; i < len; i++) {
        seed = (seed * 1664525 + 1013904223) >>> 0;
        const r = (seed / 4294967296) * 2 - 1;
        const t = i / len;
        // a short pre-delay, then an exponential tail
        d[i] = i < rate * 0.012 ? 0 : r * Math.pow(1 - t, decay);
      }
    }
    return buf;
  }

  /** Starts (looping) a track, crossfading from the one playing. Same id: keeps playing. */
  playMusic(id: string, score: Score, fadeIn = 1.2): void {
    if (this.current?.id === id) return;
    this.stopMusic(1.5);
    const player = new MusicPlayer(this, score);
    player.start(fadeIn);
    this.current = { id, player };
  }

  stopMusic(fadeOut = 1.5): void {
    if (!this.current) return;
    this.current.player.stop(fadeOut);
    this.current = null;
  }

  get musicId(): string | null {
    return this.current?.id ?? null;
  }

  playSfx(spec: SfxSpec): void {
    try {
      playSfx(this, spec);
    } catch (e) {
      console.warn('[yumecast] sfx failed', e);
    }
  }

  close(): void {
    this.stopMusic(0.05);
    void this.ctx.close().catch(() => undefined);
  }
}
