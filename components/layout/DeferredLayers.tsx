/**
 * The modal and toast layers, out of every page's first load (issue 12, docs/web-performance.md).
 *
 * No page opens with a modal or a toast, yet their code (the modal layer, its focus trap, the
 * notice dialogs, the toast stack) was part of the script every page ran before its first paint.
 * Now each layer is its own chunk, mounted when the browser is first idle after hydration (so it
 * is loaded before a click asks for a modal, and the toasts' live region exists before the first
 * toast is announced), or at once when the store asks for a modal or a toast before then (it shows
 * as soon as its chunk arrives). A layer stays mounted once mounted: it plays its closing fade.
 */
import dynamic from 'next/dynamic';
import { useEffect, useState } from 'react';
import { useAppSelector } from '@/store/hooks';

const ModalLayer = dynamic(() => import('@/components/modal/ModalLayer').then((m) => m.ModalLayer), { ssr: false });
const ToastStack = dynamic(() => import('@/components/toast/ToastStack').then((m) => m.ToastStack), { ssr: false });

/** The longest the layers wait for an idle moment after hydration. */
export const LAYERS_IDLE_TIMEOUT_MS = 2_000;

/** Calls `run` when the main thread is first idle (at the latest after the timeout); returns a cancel. */
function whenIdle(run: () => void): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const id = window.requestIdleCallback(run, { timeout: LAYERS_IDLE_TIMEOUT_MS });
    return () => window.cancelIdleCallback(id);
  }
  const t = window.setTimeout(run, 200);
  return () => window.clearTimeout(t);
}

/** True from the first time `wanted` or `idle` is true, for good. */
function useSticky(wanted: boolean): boolean {
  const [kept, setKept] = useState(false);
  // Remembered during render (React's "state from props" pattern): no extra commit.
  if (wanted && !kept) setKept(true);
  return wanted || kept;
}

export function DeferredLayers() {
  const [idle, setIdle] = useState(false);
  useEffect(() => whenIdle(() => setIdle(true)), []);
  const modal = useSticky(useAppSelector((s) => s.modal.node !== null) || idle);
  const toast = useSticky(useAppSelector((s) => s.toast.stack.length > 0) || idle);
  return (
    <>
      {modal && <ModalLayer />}
      {toast && <ToastStack />}
    </>
  );
}
