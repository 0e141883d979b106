/**
 * The engine's events (`ready`, `line`, `choices`, `chosen`, `cleared`, `save`, `autosave`, `ending`, `error`): to its
 * own listeners, to the page's (`host`: window.yumecast.on and the host's binding), and as a DOM
 * `yumecast:<name>` event. A listener that throws is logged and does not stop the others.
 */
import type { EngineEvent } from './types';

type Listener = (payload: unknown) => void;

export class Emitter {
  private listeners = new Map<string, Set<Listener>>();
  /** Also receives every event (the page's window.yumecast listeners). */
  host: ((name: EngineEvent, payload: unknown) => void) | null = null;

  on(name: EngineEvent, fn: Listener): () => void {
    let set = this.listeners.get(name);
    if (!set) this.listeners.set(name, (set = new Set()));
    set.add(fn);
    return () => set!.delete(fn);
  }

  emit(name: EngineEvent, payload: unknown): void {
    for (const fn of this.listeners.get(name) ?? []) {
      try {
        fn(payload);
      } catch (e) {
        console.error('[yumecast] listener failed', e);
      }
    }
    try {
      this.host?.(name, payload);
    } catch (e) {
      console.error('[yumecast] host listener failed', e);
    }
    try {
      window.dispatchEvent(new CustomEvent(`yumecast:${name}`, { detail: payload }));
    } catch {
      /* no DOM */
    }
  }
}
