/**
 * The story's sound cues (the `bgm` and `se` tags, the choice click) → the AudioEngine: fetches a
 * score or sfx spec (assets.ts) and plays it, and remembers which music the story asked for (it is
 * saved with the play and reported by getState).
 */
import type { Assets } from './assets';
import type { EngineSound } from './audio/engine';
import { CHOICE_SFX } from './audio/sfx';

export class SoundCues {
  /** The music the story asked for (also while its score is still loading). */
  bgm: string | null = null;
  /** Set with the game's content (before anything plays). */
  assets: Pick<Assets, 'score' | 'sfxSpec'> | null = null;

  constructor(readonly audio: EngineSound) {}

  playBgm(id: string): void {
    this.bgm = id;
    void this.assets!.score(id).then((score) => {
      if (!score) {
        console.warn('[yumecast] unknown music', id);
        return;
      }
      if (this.bgm === id) this.audio.playMusic(id, score);
    });
  }

  stopBgm(fade = 1.5): void {
    this.bgm = null;
    this.audio.stopMusic(fade);
  }

  /** An sfx of the game; `__choice` is the engine's own click for a choice (CHOICE_SFX: the build renders it with the games' effects). */
  playSe(id: string): void {
    if (id === '__choice') {
      this.audio.playSfx(CHOICE_SFX);
      return;
    }
    void this.assets!.sfxSpec(id).then((spec) => {
      if (spec) this.audio.playSfx(spec);
      else console.warn('[yumecast] unknown sfx', id);
    });
  }
}
