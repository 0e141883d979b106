/**
 * The light runtime's sound until it has its own (docs/light-runtime.md, slice 3: the build's
 * loops and effects mixed in the process and sent as Opus): the story's cues are taken and
 * nothing is played (getState() reports the story's music from the engine's own `bgm`). Its
 * `output` is `none`, as a host page's sound that only leaves through the stream, and its clock
 * is the process's.
 */
import type { EngineSound } from '../src/audio/engine';

export class SilentSound implements EngineSound {
  readonly output = 'none' as const;
  private readonly t0 = performance.now();

  get ctx(): EngineSound['ctx'] {
    return { state: 'running', currentTime: (performance.now() - this.t0) / 1000 };
  }
  resume(): void {}
  get sendsBuilt(): { reverb: boolean; delay: boolean } {
    return { reverb: false, delay: false };
  }
  playMusic(): void {}
  stopMusic(): void {}
  /** Nothing plays: no loop, no live voices (the story's music is still reported by getState().bgm). */
  get musicMode(): null {
    return null;
  }
  get musicLiveBeats(): number {
    return 0;
  }
  get loopHeld(): null {
    return null;
  }
  playSfx(): void {}
  /** Effects the story cued (none is heard: counted as neither from a file nor live). */
  get sfxPlayed(): { file: number; live: number } {
    return { file: 0, live: 0 };
  }
}
