/**
 * The play page's input surface: mouse, touch, wheel and keyboard become the streaming
 * protocol's input messages (lib/streaming/messages.ts). It is one focusable "application"
 * region (issue 12), so a keyboard user can Tab back to the game from the player's controls.
 * A few keys the game takes for nothing are the page's own (`pageKeys`: T opens the transcript,
 * issue 13); they are never sent to the game.
 */
import { useEffect, useRef, useState, type PointerEvent as ReactPointerEvent } from 'react';
import styled from 'styled-components';
import type { NamedKey } from '@/lib/streaming/messages';
import type { TouchControllerMode } from '@/lib/storage/playerConfig';
import { namedKey, normalisedPoint } from './coords';

export type SendInput = (
  m: { type: 'pointer'; kind: 'down' | 'up' | 'move'; x: number; y: number; button?: 0 | 1 | 2 } | { type: 'key'; kind: 'down' | 'up'; key: NamedKey } | { type: 'wheel'; dy: number },
) => void;

const Layer = styled.div`
  position: absolute;
  inset: 0;
  z-index: 10;
  touch-action: none;
  cursor: default;
`;

const Cursor = styled.div`
  position: absolute;
  width: 18px;
  height: 18px;
  margin: -9px 0 0 -9px;
  border-radius: 50%;
  border: 2px solid #fff;
  background: rgba(255, 92, 138, 0.7);
  pointer-events: none;
`;

const Knob = styled.button`
  position: absolute;
  width: 64px;
  height: 64px;
  margin: -32px 0 0 -32px;
  border-radius: 50%;
  border: 2px solid rgba(255, 255, 255, 0.8);
  background: rgba(255, 255, 255, 0.18);
  touch-action: none;
`;

interface Props {
  mode: TouchControllerMode;
  knob: { x: number; y: number };
  onKnobMove(p: { x: number; y: number }): void;
  send: SendInput;
  /**
   * Pixels at the stage's bottom the knob keeps clear of (the keypad, when shown): the knob's
   * place (the spec's default x 0.5, y 1) is shown above it, so it never lies on the ↓ key.
   */
  knobFloor?: number;
  /** The element whose box is the letterboxed video. */
  videoBox: () => DOMRect | null;
  /**
   * Keys (KeyboardEvent.key in lower case, without Ctrl/Alt/Meta) the page handles itself instead
   * of sending them to the game: only keys the game takes for nothing (see runtime/src/input.ts).
   */
  pageKeys?: Readonly<Record<string, () => void>>;
}

/** The surface's role for assistive technology: keys and clicks on it go to the game. */
const GAME_SURFACE = { role: 'application', tabIndex: 0, 'aria-label': 'ゲーム画面' } as const;

const MOVE_INTERVAL_MS = 33; // at most ~30 pointer moves per second

/** The knob's centre: 48 px above its place, and never within `floor` px (+ its radius) of the bottom. */
export function knobTop(y: number, floor: number): string {
  const at = `calc(${y * 100}% - 48px)`;
  return floor > 0 ? `min(${at}, calc(100% - ${Math.round(floor) + 40}px))` : at;
}

/**
 * Keys the page keeps for itself rather than sending to the game (issue 12: the player's
 * controls work by keyboard alone): typing in a field, anything inside a dialog (the login
 * modal), and Enter or Space on a focused button or link, which activate it.
 */
function forThePage(e: KeyboardEvent): boolean {
  const target = e.target instanceof Element ? e.target : null;
  if (!target) return false;
  if (target.closest('input, select, textarea, [contenteditable="true"], [role="dialog"]')) return true;
  return (e.key === 'Enter' || e.key === ' ') && target.closest('button, a[href], [role="button"]') !== null;
}

/**
 * Turns mouse, touch, wheel and keyboard into protocol messages. Tap mode sends the touched
 * point; touchpad mode moves a cursor by relative drags and clicks with the knob.
 */
export function InputLayer({ mode, knob, knobFloor = 0, onKnobMove, send, videoBox, pageKeys }: Props) {
  const lastMove = useRef(0);
  const pageKeysRef = useRef(pageKeys);
  useEffect(() => {
    pageKeysRef.current = pageKeys;
  }, [pageKeys]);
  const [cursor, setCursor] = useState({ x: 0.5, y: 0.5 });
  const drag = useRef<{ id: number; x: number; y: number } | null>(null);
  const knobDrag = useRef<{ id: number; moved: boolean } | null>(null);

  useEffect(() => {
    const pageKey = (e: KeyboardEvent) => {
      const own = pageKeysRef.current;
      const k = e.key.toLowerCase();
      return own && !e.ctrlKey && !e.altKey && !e.metaKey && Object.hasOwn(own, k) ? own[k] : undefined;
    };
    const down = (e: KeyboardEvent) => {
      if (forThePage(e)) return;
      const own = pageKey(e);
      if (own) {
        e.preventDefault();
        if (!e.repeat) own();
        return;
      }
      const k = namedKey(e.key);
      if (!k) return;
      e.preventDefault();
      if (!e.repeat) send({ type: 'key', kind: 'down', key: k as NamedKey });
    };
    const up = (e: KeyboardEvent) => {
      if (forThePage(e) || pageKey(e)) return;
      const k = namedKey(e.key);
      if (k) send({ type: 'key', kind: 'up', key: k as NamedKey });
    };
    window.addEventListener('keydown', down);
    window.addEventListener('keyup', up);
    return () => {
      window.removeEventListener('keydown', down);
      window.removeEventListener('keyup', up);
    };
  }, [send]);

  const point = (e: ReactPointerEvent) => {
    const box = videoBox();
    return box ? normalisedPoint(e.clientX, e.clientY, box) : null;
  };
  const button = (e: ReactPointerEvent): 0 | 1 | 2 => (e.button === 2 ? 2 : e.button === 1 ? 1 : 0);

  if (mode === 'tap') {
    return (
      <Layer
        data-testid="input-layer"
        data-mode="tap"
        {...GAME_SURFACE}
        onContextMenu={(e) => e.preventDefault()}
        onWheel={(e) => send({ type: 'wheel', dy: Math.max(-5000, Math.min(5000, e.deltaY)) })}
        onPointerDown={(e) => {
          const p = point(e);
          if (p) send({ type: 'pointer', kind: 'down', ...p, button: button(e) });
        }}
        onPointerUp={(e) => {
          const p = point(e);
          if (p) send({ type: 'pointer', kind: 'up', ...p, button: button(e) });
        }}
        onPointerMove={(e) => {
          if (e.pointerType === 'touch') return;
          const now = performance.now();
          if (now - lastMove.current < MOVE_INTERVAL_MS) return;
          lastMove.current = now;
          const p = point(e);
          if (p) send({ type: 'pointer', kind: 'move', ...p });
        }}
      />
    );
  }

  // Touchpad mode: drags move the cursor relatively; the knob clicks at the cursor.
  const click = () => {
    send({ type: 'pointer', kind: 'down', ...cursor, button: 0 });
    send({ type: 'pointer', kind: 'up', ...cursor, button: 0 });
  };
  return (
    <Layer
      data-testid="input-layer"
      data-mode="touchpad"
      {...GAME_SURFACE}
      onPointerDown={(e) => {
        drag.current = { id: e.pointerId, x: e.clientX, y: e.clientY };
      }}
      onPointerMove={(e) => {
        const d = drag.current;
        const box = videoBox();
        if (!d || d.id !== e.pointerId || !box) return;
        const next = {
          x: Math.min(1, Math.max(0, cursor.x + (e.clientX - d.x) / box.width)),
          y: Math.min(1, Math.max(0, cursor.y + (e.clientY - d.y) / box.height)),
        };
        drag.current = { id: e.pointerId, x: e.clientX, y: e.clientY };
        setCursor(next);
        const now = performance.now();
        if (now - lastMove.current >= MOVE_INTERVAL_MS) {
          lastMove.current = now;
          send({ type: 'pointer', kind: 'move', ...next });
        }
      }}
      onPointerUp={() => {
        drag.current = null;
      }}
    >
      <Cursor style={{ left: `${cursor.x * 100}%`, top: `${cursor.y * 100}%` }} data-testid="touch-cursor" />
      <Knob
        type="button"
        aria-label="クリック"
        data-testid="knob"
        style={{ left: `calc(${knob.x * 100}% )`, top: knobTop(knob.y, knobFloor) }}
        onPointerDown={(e) => {
          e.stopPropagation();
          (e.target as HTMLElement).setPointerCapture?.(e.pointerId);
          knobDrag.current = { id: e.pointerId, moved: false };
        }}
        onPointerMove={(e) => {
          e.stopPropagation();
          const k = knobDrag.current;
          const parent = (e.currentTarget.parentElement as HTMLElement).getBoundingClientRect();
          if (!k || k.id !== e.pointerId) return;
          k.moved = true;
          onKnobMove({
            x: Math.min(1, Math.max(0, (e.clientX - parent.left) / parent.width)),
            y: Math.min(1, Math.max(0, (e.clientY - parent.top + 48) / parent.height)),
          });
        }}
        onPointerUp={(e) => {
          e.stopPropagation();
          const k = knobDrag.current;
          knobDrag.current = null;
          if (k && !k.moved) click();
        }}
        // Enter or Space on the focused knob (a click with no pointer: detail 0) clicks too.
        onClick={(e) => {
          if (e.detail === 0) click();
        }}
      />
    </Layer>
  );
}
