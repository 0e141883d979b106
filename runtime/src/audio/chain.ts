/**
 * The master chain, built by one piece of code for both contexts that play scores: the engine's
 * live AudioContext (engine.ts) and the OfflineAudioContext that renders a looping score once
 * (loops.ts), so a rendered loop sounds exactly like the live synthesis. Music bus + sfx bus +
 * reverb send (a convolver with a synthetic 1.8 s stereo impulse) + delay send (feedback delay
 * with a darkening filter) → compressor (`out`). The engine connects `out` to its master gain;
 * the offline renders (a loop, a sound effect) connect it to their destination (offlineGraph).
 * The impulse and the noise are seeded, so every context gets the same samples (the impulse is
 * made once per page and shared).
 *
 * The sends are built when something first connects to them (`lazySends`: the engine's live
 * context; an offline render builds them at once, it uses them). Issue 11, memory per session: the
 * convolver holds its impulse as FFT stages, ~16 MB in Blink's buffer partition and ~11 MB of
 * malloc per context (measured, Debian Chromium 156), while a host session plays its music from
 * the build's loops and its effects from the build's files, which join after the compressor: the
 * live reverb and delay only serve a score or an effect the build did not render. When the last
 * live sound has rung out the engine lets them go (`release`, engine.ts; built again on the next
 * live sound): a loaded host's late loop file starts the music live for a few seconds
 * (music.ts), and the reverb it built then would otherwise stay for the rest of the session.
 */
import type { AudioGraph } from './graph';

/** Seconds: the reverb's impulse (how long a sound rings on in it). */
export const REVERB_S = 1.8;
/** Seconds: the compressor's release. */
export const COMPRESSOR_RELEASE_S = 0.25;

export interface MasterChain {
  readonly musicBus: GainNode;
  readonly sfxBus: GainNode;
  /** Send into the reverb (voices connect here in addition to their bus); built on first use. */
  readonly reverbSend: GainNode;
  /** Send into the feedback delay; built on first use. */
  readonly delaySend: GainNode;
  /** The compressor everything ends in. */
  readonly out: AudioNode;
  /** Which sends have been built (getState().audio.sends). */
  readonly built: { reverb: boolean; delay: boolean };
  /** Disconnects the reverb and the delay and lets go of them (nothing live may feed them now); the next read of a send builds it again. */
  release(): void;
}

/** A send and every node behind it (to disconnect on release). */
interface Send {
  send: GainNode;
  nodes: AudioNode[];
}

/**
 * The chain of a context. `lazySends`: the reverb and the delay (and the impulse) are made when
 * `reverbSend` / `delaySend` is first read (see the file header); else at once.
 */
export function buildMasterChain(ctx: BaseAudioContext, opts: { lazySends?: boolean } = {}): MasterChain {
  const comp = ctx.createDynamicsCompressor();
  comp.threshold.value = -14;
  comp.knee.value = 12;
  comp.ratio.value = 4;
  comp.attack.value = 0.004;
  comp.release.value = COMPRESSOR_RELEASE_S;

  const musicBus = ctx.createGain();
  musicBus.gain.value = 0.7;
  const sfxBus = ctx.createGain();
  sfxBus.gain.value = 0.9;
  musicBus.connect(comp);
  sfxBus.connect(comp);

  let reverbSend: Send | null = null;
  let delaySend: Send | null = null;
  const reverb = (): GainNode => (reverbSend ??= buildReverb(ctx, comp)).send;
  const delay = (): GainNode => (delaySend ??= buildDelay(ctx, comp)).send;
  if (!opts.lazySends) {
    reverb();
    delay();
  }
  return {
    musicBus,
    sfxBus,
    out: comp,
    get reverbSend() {
      return reverb();
    },
    get delaySend() {
      return delay();
    },
    get built() {
      return { reverb: reverbSend !== null, delay: delaySend !== null };
    },
    release() {
      for (const n of [...(reverbSend?.nodes ?? []), ...(delaySend?.nodes ?? [])]) n.disconnect();
      reverbSend = delaySend = null;
    },
  };
}

/** Reverb: a synthetic decaying-noise impulse response, into `comp`; returns its send. */
function buildReverb(ctx: BaseAudioContext, comp: AudioNode): Send {
  const reverb = ctx.createConvolver();
  reverb.buffer = makeImpulse(ctx, REVERB_S, 2.6);
  const reverbReturn = ctx.createGain();
  reverbReturn.gain.value = 0.55;
  const send = ctx.createGain();
  send.gain.value = 1;
  send.connect(reverb).connect(reverbReturn).connect(comp);
  return { send, nodes: [send, reverb, reverbReturn] };
}

/** Feedback delay with a darkening filter in the loop, into `comp`; returns its send. */
function buildDelay(ctx: BaseAudioContext, comp: AudioNode): Send {
  const delay = ctx.createDelay(1.5);
  delay.delayTime.value = 0.36;
  const fb = ctx.createGain();
  fb.gain.value = 0.32;
  const lp = ctx.createBiquadFilter();
  lp.type = 'lowpass';
  lp.frequency.value = 2600;
  const send = ctx.createGain();
  send.gain.value = 1;
  const delayReturn = ctx.createGain();
  delayReturn.gain.value = 0.3;
  send.connect(delay);
  delay.connect(lp).connect(fb).connect(delay);
  lp.connect(delayReturn).connect(comp);
  return { send, nodes: [send, delay, lp, fb, delayReturn] };
}

type OfflineCtor = new (channels: number, length: number, sampleRate: number) => OfflineAudioContext;

/**
 * A stereo OfflineAudioContext of `frames` frames with the master chain into its destination, as
 * the graph the sound code plays into (loops.ts renderLoop, sfx-render.ts); null where there is
 * no OfflineAudioContext.
 */
export function offlineGraph(frames: number, sampleRate: number): (AudioGraph & { ctx: OfflineAudioContext }) | null {
  const Offline = (globalThis as { OfflineAudioContext?: OfflineCtor }).OfflineAudioContext;
  if (!Offline) return null;
  const ctx = new Offline(2, frames, sampleRate);
  const chain = buildMasterChain(ctx);
  chain.out.connect(ctx.destination);
  let noise: AudioBuffer | null = null;
  return { ctx, ...chain, noiseBuffer: () => (noise ??= makeNoise(ctx)) };
}

/** White noise, 2 s (seeded). */
export function makeNoise(ctx: BaseAudioContext): AudioBuffer {
  const len = ctx.sampleRate * 2;
  const buf = ctx.createBuffer(1, len, ctx.sampleRate);
  const d = buf.getChannelData(0);
  let seed = 12345;
  for (let i = 0; i < len; i++) {
    seed = (seed * 1664525 + 1013904223) >>> 0;
    d[i] = (seed / 4294967296) * 2 - 1;
  }
  return buf;
}

/**
 * The reverb's impulse by sample rate: made once per page and shared by every context (an
 * AudioBuffer is not tied to the context that made it), so rendering a loop at a session's start
 * does not compute it again on the page's thread (~10-35 ms). Read-only once made.
 */
const impulses = new Map<string, AudioBuffer>();

function makeImpulse(ctx: BaseAudioContext, seconds: number, decay: number): AudioBuffer {
  const key = `${ctx.sampleRate}/${seconds}/${decay}`;
  let buf = impulses.get(key);
  if (!buf) impulses.set(key, (buf = computeImpulse(ctx, seconds, decay)));
  return buf;
}

function computeImpulse(ctx: BaseAudioContext, seconds: number, decay: number): AudioBuffer {
  const rate = ctx.sampleRate;
  const len = Math.floor(rate * seconds);
  const buf = ctx.createBuffer(2, len, rate);
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
