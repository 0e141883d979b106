/**
 * The play page's top row (back link, transcript button, control bar) steps aside when it lies
 * over the picture: on a phone in landscape, in fullscreen, in any window wider than 16:9 the
 * picture fills the height and the row covered its top 44 px for the whole game. After
 * CONTROLS_HIDE_AFTER_MS without pointer activity the row fades out there; any pointer move or
 * touch brings it back (the touch still plays the game: in a visual novel a tap anywhere reads
 * on, so the first tap is not swallowed). Where the picture is letterboxed below the row (a phone
 * in portrait, a 1366×900 window) or the row reaches only a sliver of it (a 1280×800 window), it
 * stays. A row holding keyboard focus (:focus-visible) or the mouse stays too, so a keyboard user
 * never tabs into hidden controls and a resting mouse never clicks an unseen one. The hidden row
 * lets taps through to the game only on a screen without hover (a phone: PlayerView's TopRow);
 * with a mouse, the move that reaches a control brings the row back before its click.
 */
import { useEffect, useState, type RefObject } from 'react';

export const CONTROLS_HIDE_AFTER_MS = 3000;

/** The displayed picture's top edge (px) in a box drawn with `object-fit: contain`. */
export function pictureTop(box: { top: number; width: number; height: number }, aspect: number): number {
  const drawnHeight = box.width / aspect;
  return drawnHeight < box.height ? box.top + (box.height - drawnHeight) / 2 : box.top;
}

/**
 * The row lies over the picture: more than half of its height reaches into it. A sliver (a
 * 1280×800 window: the picture starts 40 px down, the row ends at 44) is not worth hiding the
 * controls for.
 */
export function rowCoversPicture(row: HTMLElement | null, video: HTMLVideoElement | null): boolean {
  if (!row || !video) return false;
  const box = video.getBoundingClientRect();
  if (box.width <= 0 || box.height <= 0) return false;
  const aspect = video.videoWidth > 0 && video.videoHeight > 0 ? video.videoWidth / video.videoHeight : 16 / 9;
  const own = row.getBoundingClientRect();
  return own.bottom - pictureTop(box, aspect) > own.height / 2;
}

/** Someone is at the row: a keyboard user focused in it, or a mouse resting over it. */
function inUse(row: HTMLElement | null): boolean {
  if (!row) return false;
  try {
    return !!row.querySelector(':focus-visible') || row.matches(':hover');
  } catch {
    return false; // a browser without these selectors: hide as usual
  }
}

/** True while the row should be hidden; `active` is false until the picture plays. */
export function useAutoHideControls(row: RefObject<HTMLElement | null>, video: RefObject<HTMLVideoElement | null>, active: boolean): boolean {
  const [hidden, setHidden] = useState(false);
  useEffect(() => {
    if (!active) return;
    let timer = 0;
    // what was last set: a pointer move while shown (most of them) sets no state
    let isHidden = false;
    const show = (next: boolean) => {
      if (next !== isHidden) setHidden(next);
      isHidden = next;
    };
    const wake = () => {
      show(false);
      window.clearTimeout(timer);
      timer = window.setTimeout(() => {
        if (inUse(row.current)) return wake();
        show(rowCoversPicture(row.current, video.current));
      }, CONTROLS_HIDE_AFTER_MS);
    };
    timer = window.setTimeout(wake, 0);
    const events = ['pointermove', 'pointerdown', 'resize', 'focusin'] as const;
    for (const e of events) window.addEventListener(e, wake, { passive: true, capture: true });
    return () => {
      window.clearTimeout(timer);
      for (const e of events) window.removeEventListener(e, wake, { capture: true });
      setHidden(false);
    };
  }, [active, row, video]);
  return active && hidden;
}
