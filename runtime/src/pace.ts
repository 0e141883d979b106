/**
 * How often the engine's picture needs drawing, for the frame scheduler (frames.ts), in its two
 * modes (docs/vn-engine.md "Frames"):
 * - `steadyFps`: the draw rate of the `steady` mode (the behaviour before issue 11): 30 fps while
 *   something moves, 15 with a toast / auto / skip, 12 while waiting (the idle animations move).
 * - `nextChangeAt`: in the `change` mode, when the picture next changes by itself if no input
 *   comes: now while something moves, while typing the next character's time rounded up to a
 *   TYPING_FPS grid (a frame every ~62 ms with the characters due by then), the toast's end,
 *   the auto mode's next line, the skip mode's next step; Infinity when the picture is still
 *   (the idle animations are held still then: draw/common.ts `idle`).
 */
import type { Engine } from './engine';

/** How fast the next frames need drawing: 30 fps while something moves, less while waiting. */
export function steadyFps(e: Engine, now: number): number {
  if (e.stage.animating(now)) return 30;
  if (e.screen === 'story' && e.reader.typing(now)) return 30;
  if (e.screen === 'ending' && now - e.endingStart < 2000) return 30;
  if (e.menus.toast || e.auto || e.skipping()) return 15;
  // the click-to-continue indicator bobs; the title's focus glow pulses
  return 12;
}

/** The ending card fades in over this long (draw/screens.ts drawEnding; its prompt at 1200 ms). */
const ENDING_ANIM_MS = 1700;
/**
 * `change`: typing is drawn at most this many frames a second (several characters a frame at
 * the usual speeds); the characters keep their times, a frame shows the ones due by then.
 */
export const TYPING_FPS = 16;
/** The skip mode's step (Engine.tick: one line per 60 ms). */
const SKIP_STEP_MS = 61;

/**
 * When (performance.now ms) the picture changes next without input: `now` = draw again as soon as
 * the frame rate allows, Infinity = not until something happens (input, a load, a timer the
 * engine sets `dirty` from).
 */
export function nextChangeAt(e: Engine, now: number): number {
  if (e.dirty) return now;
  const t = e.stage.transition;
  // a transition held for its art waits on the old picture (the art's arrival wakes the loop)
  if (t && t.start > now && !e.stage.weather.size && !e.stage.titleWeather) return t.start;
  if (e.stage.animating(now)) return now;
  let next = Infinity;
  if (e.screen === 'boot') next = Math.min(next, (Math.floor(now / 400) + 1) * 400); // NOW LOADING dots
  if (e.screen === 'ending' && now - e.endingStart < ENDING_ANIM_MS) return now;
  const toast = e.menus.toast;
  if (toast) next = Math.min(next, toast.until + 1);
  const line = e.reader.line;
  if (e.screen === 'story' && !e.overlay && line) {
    if (e.reader.typing(now)) next = Math.min(next, typingFrameAt(e, now));
    else if (!e.choices.length) {
      if (e.skipping()) next = Math.min(next, now + SKIP_STEP_MS);
      else if (e.auto) next = Math.min(next, e.reader.autoNextAt ?? now);
    }
  }
  return next;
}

/**
 * `change`, while typing: the next character's time rounded up to the typing frame grid (every
 * 1000 / TYPING_FPS ms from the line's start), so one frame shows all the characters due by then.
 */
function typingFrameAt(e: Engine, now: number): number {
  const c = e.reader.nextCharAt(now);
  const start = e.reader.line?.start;
  if (!Number.isFinite(c) || start === undefined) return c;
  const step = 1000 / TYPING_FPS;
  return start + Math.ceil((c - start) / step - 1e-9) * step;
}
