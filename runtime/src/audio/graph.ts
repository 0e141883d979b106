/**
 * The part of the AudioEngine that voices, scores and sfx play into: the context, the buses and
 * sends of the master chain, and the shared noise buffer. music.ts, sfx.ts and voices.ts take this
 * narrow interface instead of the AudioEngine class (which imports them), so the sound modules
 * have no import cycle. The context is a BaseAudioContext: the same code plays live (the
 * engine's AudioContext) and renders a score's loop offline (loops.ts, an OfflineAudioContext).
 */
export interface AudioGraph {
  readonly ctx: BaseAudioContext;
  readonly musicBus: GainNode;
  readonly sfxBus: GainNode;
  /** Send into the reverb (voices connect here in addition to their bus). */
  readonly reverbSend: GainNode;
  readonly delaySend: GainNode;
  /** White noise, 2 s, shared by every noise voice. */
  noiseBuffer(): AudioBuffer;
}
