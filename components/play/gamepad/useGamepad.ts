/**
 * Gamepad support for the play page (issue 13, docs/play-extras.md): while a pad is connected,
 * polls `navigator.getGamepads()` once per animation frame and sends what mapping.ts makes of it
 * through `send`, the same path as the keyboard (PlayerView's actions.send: the controller, the
 * channel and the host's rate limit). No pad, no loop: polling starts at `gamepadconnected` (or
 * at mount when a pad is already there) and stops when the last pad goes or the page unmounts,
 * releasing any key still held.
 */
import { useEffect, useState } from 'react';
import type { NamedKey } from '@/lib/streaming/messages';
import { GamepadReader, type KeyEvent, type PadState } from './mapping';

export type SendKey = (m: { type: 'key'; kind: 'down' | 'up'; key: NamedKey }) => unknown;

function readPads(): readonly (PadState | null)[] {
  if (typeof navigator === 'undefined' || typeof navigator.getGamepads !== 'function') return [];
  try {
    return Array.from(navigator.getGamepads() ?? [], (p) => (p ? (p as unknown as PadState) : null));
  } catch {
    return []; // a Permissions-Policy that forbids gamepads throws
  }
}

const anyPad = (pads: readonly (PadState | null)[]) => pads.some((p) => p?.connected);

/**
 * Polls connected gamepads and sends their keys while `enabled` (the game is on screen).
 * Returns whether a pad is connected (the page may show the pad's help).
 */
export function useGamepad(send: SendKey, enabled = true): boolean {
  const [connected, setConnected] = useState(false);

  useEffect(() => {
    if (!enabled || typeof window === 'undefined') return;
    const reader = new GamepadReader();
    let frame: number | null = null;
    const emit = (events: KeyEvent[]) => {
      for (const e of events) send({ type: 'key', kind: e.kind, key: e.key });
    };
    const poll = () => {
      frame = null;
      const pads = readPads();
      if (!anyPad(pads)) {
        emit(reader.releaseAll());
        setConnected(false);
        return;
      }
      emit(reader.read(pads, performance.now()));
      frame = requestAnimationFrame(poll);
    };
    const start = () => {
      if (frame !== null || !anyPad(readPads())) return;
      setConnected(true);
      frame = requestAnimationFrame(poll);
    };
    const onDisconnected = () => {
      if (!anyPad(readPads())) {
        if (frame !== null) cancelAnimationFrame(frame);
        frame = null;
        emit(reader.releaseAll());
        setConnected(false);
      }
    };
    window.addEventListener('gamepadconnected', start);
    window.addEventListener('gamepaddisconnected', onDisconnected);
    start();
    return () => {
      window.removeEventListener('gamepadconnected', start);
      window.removeEventListener('gamepaddisconnected', onDisconnected);
      if (frame !== null) cancelAnimationFrame(frame);
      emit(reader.releaseAll());
      setConnected(false);
    };
  }, [send, enabled]);

  return connected;
}
