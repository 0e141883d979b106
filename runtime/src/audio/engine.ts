/**
 * The sound side: one AudioContext, a master chain (chain.ts: music bus + sfx bus → reverb/delay
 * sends → compressor → master gain), published through a MediaStreamAudioDestinationNode (and,
 * for development, optionally the speakers). Music is synthesised from score JSON (music.ts; a
 * looping score plays from its loop, rendered at build time or once in the page, loops.ts), sfx
 * from their files rendered at build time, else live from their parametric specs (sfx-player.ts);
 * nothing is downloaded but those JSON files and the build's WAVs. Note names →
 * Hz are in notes.ts; what the sound modules play into is the AudioGraph interface (graph.ts).
 */
import type { Score, SfxSpec } from '../types';
import type { AudioGraph } from './graph';
import { buildMasterChain, makeNoise, type MasterChain } from './chain';
import { LoopCache, type LoopHeld } from './loops';
import { MusicPlayer } from './music';
import { SfxPlayer } from './sfx-player';
import { pageOptions } from '../page-options';

/**
 * The context of a page whose sound only leaves through the stream (a host's: the page's
 * `?sink=none`; HOST_AUDIO_DEVICE=1 = the device as before): no output device (Chromium ≥ 110: it
 * renders on its own timer in the page; the browser's audio service has nothing to do), rendered
 * in blocks of 1024 frames (21 ms, `playback`) instead of 480 (10 ms, `interactive`): half the
 * render thread's wake-ups, for ~11 ms more delay before a sound reaches the stream (next to the
 * Opus packet's 60 ms and the player's jitter buffer). ~3 % of a core per session less,
 * docs/performance.md "Issue 11, seventh round".
 */
const STREAM_ONLY = { sinkId: { type: 'none' }, latencyHint: 'playback' } as AudioContextOptions;
/** While the chain's sends are built, how often (ms) the engine looks whether anything live still needs them. */
const SENDS_CHECK_MS = 2000;
/** The sends go once nothing live has needed them for this long (s): effects a few seconds apart do not rebuild the reverb each time. */
const SENDS_IDLE_S = 8;

/**
 * What the engine (engine.ts, sound.ts, status.ts) asks of its sound: cues to play and the figures
 * getState() reports. The page's AudioEngine is one; the light runtime in Node brings its own
 * (runtime/node/, docs/light-runtime.md), so the engine's modules never need WebAudio.
 */
export type EngineSound = Pick<AudioEngine, 'output' | 'resume' | 'sendsBuilt' | 'playMusic' | 'stopMusic' | 'musicMode' | 'musicLiveBeats' | 'loopHeld' | 'playSfx' | 'sfxPlayed'> & {
  readonly ctx: Pick<AudioContext, 'state' | 'currentTime'>;
};

export class AudioEngine implements AudioGraph {
  readonly ctx: AudioContext;
  /** Where the context plays besides the stream: the output device, or none (getState().audio.output). */
  output: 'device' | 'none';
  readonly master: GainNode;
  readonly musicBus: GainNode;
  readonly sfxBus: GainNode;
  readonly streamDest: MediaStreamAudioDestinationNode;
  private noise: AudioBuffer | null = null;
  private current: { id: string; player: MusicPlayer } | null = null;
  private monitoring = false;
  private readonly loops: LoopCache;
  private readonly sfx: SfxPlayer;
  /** The master chain; its reverb and delay are built when a live voice first needs them (chain.ts). */
  private readonly chain: MasterChain;
  /** Music players whose live voices may still be connected (the current one, and ones fading out). */
  private readonly players = new Set<MusicPlayer>();
  /** Looks every SENDS_CHECK_MS, while the sends are built, whether they can go (releaseIdleSends). */
  private sendsTimer: ReturnType<typeof setInterval> | null = null;
  /** The sends are built on first use and let go when idle (HOST_AUDIO_SENDS=lazy); `eager`: built at once and kept, as before. */
  private readonly lazySends: boolean;
  /** Context time since which nothing live has needed the sends (null: something does). */
  private sendsIdleSince: number | null = null;

  /**
   * `loopsBase`: the URL the build's loops/ and sfx/ folders are relative to (default the page's;
   * null: render loops in the page, play sfx live); `loops`: how loops are held (loops.ts LoopHeld;
   * default the page's `?loops=pcm`, else buffer); `sfx`: `live` plays every effect live (default
   * the page's `?sfx=live`, else from the build's files: sfx-player.ts).
   */
  constructor(opts: { volume?: number; monitor?: boolean; loopsBase?: string | null; loops?: LoopHeld; sfx?: 'file' | 'live'; sink?: 'device' | 'none'; sends?: 'lazy' | 'eager' } = {}) {
    // 48 kHz: the WebRTC audio (Opus) is 48 kHz, another rate would cost a resampler
    const sink = opts.sink ?? pageOptions().sink;
    this.ctx = new AudioContext({ latencyHint: 'interactive', sampleRate: 48000, ...(sink === 'none' ? STREAM_ONLY : {}) });
    // what the context took, not what was asked (a browser without sinkId options has a device)
    this.output = typeof (this.ctx as { sinkId?: unknown }).sinkId === 'object' ? 'none' : 'device';
    const ctx = this.ctx;
    this.master = ctx.createGain();
    this.master.gain.value = opts.volume ?? 0.8;
    this.lazySends = (opts.sends ?? pageOptions().sends) === 'lazy';
    const chain = (this.chain = buildMasterChain(ctx, { lazySends: this.lazySends }));
    this.musicBus = chain.musicBus;
    this.sfxBus = chain.sfxBus;
    chain.out.connect(this.master);
    const held = opts.loops ?? pageOptions().loops;
    const base = opts.loopsBase !== undefined ? opts.loopsBase : typeof document === 'undefined' ? null : document.baseURI;
    this.loops = new LoopCache(ctx, base, held);
    this.sfx = new SfxPlayer(this, this.master, (opts.sfx ?? pageOptions().sfx) === 'live' ? null : base);

    this.streamDest = ctx.createMediaStreamDestination();
    this.master.connect(this.streamDest);
    if (opts.monitor) this.setMonitor(true);
  }

  /** Also play through the speakers of this machine (development; a context made without a device gets the default one). */
  setMonitor(on: boolean): void {
    if (on === this.monitoring) return;
    this.monitoring = on;
    const withSink = this.ctx as AudioContext & { setSinkId?: (id: string) => Promise<void> };
    if (on && this.output === 'none' && withSink.setSinkId) {
      withSink.setSinkId('').then(
        () => (this.output = 'device'),
        (err: unknown) => console.warn('[yumecast] no output device for the monitor', err),
      );
    }
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

  /** Send into the reverb (live voices connect here besides their bus): built on first use, let go when no live sound needs it. */
  get reverbSend(): GainNode {
    this.watchSends();
    return this.chain.reverbSend;
  }

  /** Send into the delay: built on first use, let go with the reverb. */
  get delaySend(): GainNode {
    this.watchSends();
    return this.chain.delaySend;
  }

  private watchSends(): void {
    if (this.lazySends) this.sendsTimer ??= setInterval(() => this.releaseIdleSends(), SENDS_CHECK_MS);
  }

  /**
   * Lets go of the chain's reverb and delay (~27 MB: chain.ts) once no music player has had live
   * voices connected and no live effect has rung for SENDS_IDLE_S; the next live sound builds them again.
   */
  private releaseIdleSends(): void {
    this.prunePlayers();
    const now = this.ctx.currentTime;
    if ([...this.players].some((p) => p.liveConnected) || now < this.sfx.liveUntil) {
      this.sendsIdleSince = null;
      return;
    }
    this.sendsIdleSince ??= now;
    if (now - this.sendsIdleSince < SENDS_IDLE_S) return;
    this.sendsIdleSince = null;
    this.chain.release();
    if (this.sendsTimer) clearInterval(this.sendsTimer);
    this.sendsTimer = null;
  }

  /** Keeps the current player and those whose live voices are still connected (a stopped one otherwise goes, with its loop). */
  private prunePlayers(): void {
    for (const p of this.players) if (!p.liveConnected && p !== this.current?.player) this.players.delete(p);
  }

  /** Which of the chain's sends a live sound has needed so far (getState().audio.sends). */
  get sendsBuilt(): { reverb: boolean; delay: boolean } {
    return this.chain.built;
  }

  /** White noise, 2 s, shared by every noise voice. */
  noiseBuffer(): AudioBuffer {
    return (this.noise ??= makeNoise(this.ctx));
  }

  /** Starts (looping) a track, crossfading from the one playing. Same id: keeps playing. */
  playMusic(id: string, score: Score, fadeIn = 1.2): void {
    if (this.current?.id === id) return;
    this.stopMusic(1.5);
    const player = new MusicPlayer(this, score, id, { cache: this.loops, out: this.master });
    player.start(fadeIn);
    this.current = { id, player };
    this.prunePlayers();
    this.players.add(player);
  }

  stopMusic(fadeOut = 1.5): void {
    if (!this.current) return;
    this.current.player.stop(fadeOut);
    this.current = null;
  }

  get musicId(): string | null {
    return this.current?.id ?? null;
  }

  /** How the music plays: from its rendered loop (loops.ts), synthesised live, or none (also while its loop's file loads). */
  get musicMode(): 'loop' | 'live' | null {
    return this.current?.player.mode ?? null;
  }

  /** Beats of the track playing now that were played by live notes (getState().audio.liveBeats). */
  get musicLiveBeats(): number {
    return this.current?.player.liveBeats ?? 0;
  }

  /** How the loop playing now is held (loops.ts LoopHeld), null without one. */
  get loopHeld(): LoopHeld | null {
    return this.current?.player.mode === 'loop' ? this.current.player.held : null;
  }

  /** Plays an effect from the build's file, else live (sfx-player.ts). */
  playSfx(spec: SfxSpec): void {
    this.sfx.play(spec);
  }

  /** How many effects played from their file and how many live. */
  get sfxPlayed(): { file: number; live: number } {
    return { ...this.sfx.counts };
  }

  close(): void {
    if (this.sendsTimer) clearInterval(this.sendsTimer);
    this.sendsTimer = null;
    this.stopMusic(0.05);
    void this.ctx.close().catch(() => undefined);
  }
}
