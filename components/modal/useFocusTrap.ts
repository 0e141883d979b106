/**
 * Keyboard focus for a modal dialog (issue 12, WAI-ARIA dialog pattern): while `active`, focus
 * stays inside `ref` (Tab past the last control goes to the first, Shift+Tab before the first
 * goes to the last, and focus that lands outside — a click on the page behind, a control that
 * unmounted — is brought back); when the dialog opens, it takes focus itself (so a screen reader
 * reads its name first); when it closes, focus goes back to the control that had it before.
 * Used by ModalLayer; kept apart so the trap is tested on its own (useFocusTrap.test.tsx).
 */
import { useEffect, useRef, type RefObject } from 'react';

const FOCUSABLE = [
  'a[href]',
  'area[href]',
  'button:not([disabled])',
  'input:not([disabled]):not([type="hidden"])',
  'select:not([disabled])',
  'textarea:not([disabled])',
  'iframe',
  '[contenteditable="true"]',
  '[tabindex]:not([tabindex="-1"])',
].join(',');

/** Whether the element is rendered (not display:none / visibility:hidden / [hidden] / inert). */
function shown(el: HTMLElement): boolean {
  if (el.closest('[hidden], [inert]')) return false;
  for (let node: HTMLElement | null = el; node; node = node.parentElement) {
    const style = getComputedStyle(node);
    if (style.display === 'none') return false;
    if (node === el && style.visibility === 'hidden') return false;
  }
  return true;
}

/** The Tab stops inside `root`, in document order. */
export function tabStops(root: HTMLElement): HTMLElement[] {
  return Array.from(root.querySelectorAll<HTMLElement>(FOCUSABLE)).filter((el) => el.tabIndex >= 0 && shown(el));
}

/**
 * Traps focus in `ref` while `active`. The container should be focusable (tabIndex -1): it is
 * focused on opening, and is where focus goes when the dialog has no control at all.
 */
export function useFocusTrap(ref: RefObject<HTMLElement | null>, active: boolean) {
  const opener = useRef<HTMLElement | null>(null);

  useEffect(() => {
    if (!active) return;
    const root = ref.current;
    if (!root) return;
    const before = document.activeElement;
    opener.current = before instanceof HTMLElement && before !== document.body && !root.contains(before) ? before : null;
    if (!root.contains(document.activeElement)) root.focus({ preventScroll: true });

    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Tab' || e.altKey || e.ctrlKey || e.metaKey) return;
      const stops = tabStops(root);
      if (stops.length === 0) {
        e.preventDefault();
        root.focus();
        return;
      }
      const first = stops[0];
      const last = stops[stops.length - 1];
      const current = document.activeElement;
      const inside = current instanceof HTMLElement && root.contains(current);
      if (e.shiftKey && (!inside || current === first || current === root)) {
        e.preventDefault();
        last.focus();
      } else if (!e.shiftKey && (!inside || current === last)) {
        e.preventDefault();
        first.focus();
      }
    };
    // Focus that leaves the dialog (not by Tab) comes back to it.
    const onFocusIn = (e: FocusEvent) => {
      if (e.target instanceof Node && !root.contains(e.target)) root.focus({ preventScroll: true });
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('focusin', onFocusIn);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('focusin', onFocusIn);
      const back = opener.current;
      opener.current = null;
      // Back to the control that opened the dialog, when it is still on the page; else wherever
      // the browser puts it (the body), never left on the fading dialog.
      if (back && back.isConnected) back.focus({ preventScroll: true });
      else if (root.contains(document.activeElement)) (document.activeElement as HTMLElement).blur();
    };
  }, [ref, active]);

  // A dialog whose content changes while open (one modal replacing another) loses the focused
  // control: the container takes focus again.
  useEffect(() => {
    if (!active) return;
    const root = ref.current;
    if (!root || typeof MutationObserver === 'undefined') return;
    const observer = new MutationObserver(() => {
      if (!root.contains(document.activeElement)) root.focus({ preventScroll: true });
    });
    observer.observe(root, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, [ref, active]);
}
