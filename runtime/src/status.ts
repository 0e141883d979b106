/**
 * getState(): the engine's state as tests and the host read it (EngineState in types.ts), made
 * from the engine and its parts. Read-only; the page (main.ts) adds its own frame count, quality
 * and draw time.
 */
import type { Engine } from './engine';
import type { EngineState } from './types';

export function engineState(e: Engine): EngineState {
  const now = performance.now();
  const line = e.reader.line;
  const focusId = e.menus.focusId;
  return {
    ready: e.ready,
    gameId: e.gameId,
    sessionId: e.sessionId,
    screen: e.screen,
    overlay: e.overlay,
    scene: e.stage.scene,
    characters: e.stage.chars.map((c) => ({ id: c.id, expression: c.expr, position: c.pos })),
    speaker: line?.speaker ?? null,
    speakerName: line?.name ?? null,
    text: line?.text ?? '',
    visibleText: line ? line.chars.slice(0, e.reader.visibleCount(now)).join('') : '',
    typing: e.reader.typing(now),
    choices: e.visibleChoices().map((c) => ({ ...c })),
    focusedChoice: focusId?.startsWith('choice:') ? Number(focusId.slice(7)) : -1,
    ending: e.screen === 'ending' ? e.flow.endingId : null,
    endingTitle: e.screen === 'ending' ? (e.endingTitle() ?? 'おわり') : null,
    endingsReached: [...e.endingsReached],
    bgm: e.sound.bgm,
    effects: [...e.stage.weather.keys()],
    auto: e.auto,
    skip: e.skip,
    lineCount: e.reader.lineCount,
    frame: e.frame,
    quality: e.quality,
    saves: [...e.saves.entries()].sort((a, b) => a[0] - b[0]).map(([slot, s]) => ({ slot, savedAt: s.savedAt, text: s.text })),
    error: e.error,
    fontsReady: e.fontsReady,
    audio: { state: e.audio.ctx.state, currentTime: e.audio.ctx.currentTime, music: e.audio.musicMode, liveBeats: e.audio.musicLiveBeats, loop: e.audio.loopHeld, output: e.audio.output, sfx: e.audio.sfxPlayed, sends: e.audio.sendsBuilt },
    art: e.assets?.art.stats(e.stage.artHolds),
  };
}
