/**
 * Reports an element's height (CSS px) whenever it changes, and 0 when it goes: the play page
 * keeps things clear of the bars that lie over the stage (the captions under the picture, the
 * keypad under the touchpad's knob).
 */
import { useEffect, type RefObject } from 'react';

export function useReportHeight(ref: RefObject<HTMLElement | null>, onHeight: ((px: number) => void) | undefined): void {
  useEffect(() => {
    const el = ref.current;
    if (!el || !onHeight) return;
    const report = () => onHeight(el.getBoundingClientRect().height);
    report();
    const ro = typeof ResizeObserver === 'function' ? new ResizeObserver(report) : null;
    ro?.observe(el);
    return () => {
      ro?.disconnect();
      onHeight(0);
    };
  }, [ref, onHeight]);
}
