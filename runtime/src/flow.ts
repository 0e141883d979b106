/**
 * The story flow: runs the ink story — pulls the next line, applies its tags (docs/vn-engine.md)
 * to the stage and the sound, shows the line, offers the choices, takes the player's choice, and
 * says when the story has ended. It owns the choices on offer and the ending the story named; the
 * rest it reaches through a narrow host (FlowHost), which the Engine satisfies. It also tells the
 * page's text relay what the player's transcript needs: `line`, `choices`, `chosen`, and `cleared`
 * when the screen shows no line any more (docs/play-text.md).
 */
import type { Story } from 'inkjs';
import type { Menus } from './menus';
import type { Reader } from './reader';
import type { SoundCues } from './sound';
import type { Stage, VisualCommand } from './stage';
import { parseTag } from './tags';
import type { Choice, EngineEvent, ErrorInfo, GameData } from './types';

export interface FlowHost {
  readonly game: GameData;
  readonly story: Story;
  readonly stage: Stage;
  readonly reader: Reader;
  readonly sound: SoundCues;
  readonly menus: Pick<Menus, 'focusId'>;
  windowHidden: boolean;
  dirty: boolean;
  skipping(): boolean;
  emit(name: EngineEvent, payload: unknown): void;
  fail(code: ErrorInfo['code'], message: string): void;
  autosave(): void;
  /** A visual change whose art is not ready yet: hold the transition (and the line) for it. */
  holdForArt(): void;
  ensureGlyphs(text: string): void;
  /** The story has no more lines or choices. */
  finish(): void;
}

export class StoryFlow {
  choices: Choice[] = [];
  /** The `ending:` tag's id, once the story named one. */
  endingId: string | null = null;
  private sceneJustChanged = false;
  /** Whether the player holds the choices on offer (the last `choices` event told them). */
  private choicesTold = false;
  /** Whether the player's caption holds a line (a `line` or `chosen` told since the last `cleared`). */
  private lineTold = false;

  constructor(private readonly host: FlowHost) {}

  /**
   * The screen shows no line any more (the ending card, the error screen, the title, a new play):
   * the choices are gone — the player's offer withdrawn (`choices` with none) — then `cleared`,
   * each told once. The one path for Engine.finish, Engine.fail and reset().
   */
  clear(): void {
    this.choices = [];
    if (this.choicesTold) this.host.emit('choices', []);
    this.choicesTold = false;
    if (this.lineTold) this.host.emit('cleared', null);
    this.lineTold = false;
  }

  /** A new play: what the screen showed is cleared (clear()), and no ending named yet. */
  reset(): void {
    this.clear();
    this.endingId = null;
  }

  /** Runs the story to the next line of text, choices, or the end. */
  next(): void {
    const h = this.host;
    const story = h.story;
    h.reader.resetAuto();
    h.windowHidden = false;
    for (let guard = 0; guard < 10000; guard++) {
      if (story.canContinue) {
        let text: string;
        try {
          text = story.Continue() ?? '';
        } catch (e) {
          h.fail('story_error', e instanceof Error ? e.message : String(e));
          return;
        }
        const speaker = this.applyTags(story.currentTags ?? []);
        text = text.replace(/\s+$/u, '').replace(/^\s+/u, '');
        if (!text) continue;
        this.showLine(text, speaker);
        return;
      }
      if (story.currentChoices.length > 0) {
        this.showLine('', null, true);
        return;
      }
      h.finish();
      return;
    }
    h.fail('story_error', 'the story never produced a line');
  }

  /** Shows a line (empty: only the choices), typing after the transition it came with. */
  showLine(text: string, speaker: string | null, instant = false): void {
    const h = this.host;
    const def = speaker ? h.game.characters[speaker] : undefined;
    const name = speaker ? (def?.name ?? speaker) : null;
    const t = h.stage.transition;
    let start = performance.now();
    if (t && t.kind === 'fade') start = t.start + t.dur * 0.9;
    else if (t && this.sceneJustChanged) start = t.start + t.dur * 0.5;
    this.sceneJustChanged = false;
    h.reader.show(speaker, name, def?.color ?? null, text, start, instant || h.skipping());
    if (text) {
      this.lineTold = true;
      h.emit('line', { speaker, name, text, lineCount: h.reader.lineCount });
      h.ensureGlyphs(text);
      if (h.reader.lineCount % 10 === 0) h.autosave();
    }
    this.choices = !h.story.canContinue ? h.story.currentChoices.map((c) => ({ index: c.index, text: c.text.trim() })) : [];
    this.choicesTold = false;
    if (this.choices.length) {
      h.menus.focusId = `choice:${this.choices[0].index}`;
      h.ensureGlyphs(this.choices.map((c) => c.text).join(''));
    }
    h.dirty = true;
  }

  /** Applies one line's tags. Returns the speaker. */
  private applyTags(tags: string[]): string | null {
    const h = this.host;
    let speaker: string | null = null;
    const visual: VisualCommand[] = [];
    for (const raw of tags) {
      const cmd = parseTag(raw);
      if (!cmd) {
        console.warn('[yumecast] unknown tag:', raw);
        continue;
      }
      switch (cmd.tag) {
        case 'transition':
          h.stage.pendingTransition = cmd.kind;
          break;
        case 'scene':
        case 'char':
        case 'hide':
          visual.push(cmd);
          break;
        case 'speaker':
          speaker = cmd.id;
          break;
        case 'bgm':
          if (cmd.track) h.sound.playBgm(cmd.track);
          else h.sound.stopBgm();
          break;
        case 'se':
          if (!h.skipping()) h.sound.playSe(cmd.sfx);
          break;
        case 'effect':
          h.stage.effect(cmd.effect);
          break;
        case 'ending':
          this.endingId = cmd.id;
          break;
      }
    }
    if (visual.length) {
      if (h.stage.apply(visual, h.game, h.skipping())) {
        this.sceneJustChanged = true;
        h.autosave();
      }
      h.holdForArt();
    }
    return speaker;
  }

  /**
   * Every frame (Engine.tick): the `choices` event when the player's offer must change. The list
   * once the choices are shown — when the line before them has typed out (Engine.visibleChoices),
   * the moment the picture shows them and the keys 1..9 pick them; none while a screen (save, load,
   * settings…) covers them, where the digit keys pick a save slot, not a choice; the list again
   * when the screen closes.
   */
  tellChoices(shown: boolean): void {
    const offer = shown && this.choices.length > 0;
    if (offer === this.choicesTold) return;
    this.choicesTold = offer;
    this.host.emit('choices', offer ? this.choices.map((c) => ({ ...c })) : []);
  }

  /** The player took `choice` (one of the visible choices). */
  choose(choice: Choice): void {
    const h = this.host;
    h.reader.addChoice(choice.text);
    this.lineTold = true;
    h.emit('chosen', { index: choice.index, text: choice.text });
    try {
      h.story.ChooseChoiceIndex(choice.index);
    } catch (e) {
      h.fail('story_error', e instanceof Error ? e.message : String(e));
      return;
    }
    this.choices = [];
    // The `chosen` line ends the offer on the player's side.
    this.choicesTold = false;
    h.menus.focusId = null;
    h.sound.playSe('__choice');
    this.next();
    h.autosave();
  }
}
