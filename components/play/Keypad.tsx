/**
 * The play page's on-screen keys (the game's named keys: advance, log, auto, skip, save, load,
 * menu, up, down) and the pin that keeps them shown. Plain buttons: usable by touch, mouse and
 * keyboard alike; each has a Japanese name (the arrows say which way). Below them, the help for
 * a gamepad (issue 13: which button does what, from gamepad/mapping.ts), marked while one is
 * connected. It reports its height, so the touchpad's knob is kept above it.
 */
import { useRef } from 'react';
import styled from 'styled-components';
import type { NamedKey } from '@/lib/streaming/messages';
import { PAD_HELP } from './gamepad/mapping';
import { useReportHeight } from './useReportHeight';

/** The pad's distance from the stage's bottom (px). */
export const KEYPAD_BOTTOM_PX = 12;

const Pad = styled.div`
  position: absolute;
  left: 50%;
  bottom: ${KEYPAD_BOTTOM_PX}px;
  transform: translateX(-50%);
  z-index: 20;
  display: flex;
  flex-wrap: wrap;
  justify-content: center;
  gap: 6px;
  max-width: calc(100% - 24px);
  padding: 8px;
  border-radius: 14px;
  background: rgba(0, 0, 0, 0.55);
  button {
    min-width: 52px;
    height: 40px;
    border: 1px solid rgba(255, 255, 255, 0.25);
    border-radius: 10px;
    background: rgba(255, 255, 255, 0.08);
    color: #fff;
    font: inherit;
    font-size: 0.8rem;
    cursor: pointer;
  }
  button[aria-pressed='true'] {
    background: rgba(255, 92, 138, 0.6);
  }
  details {
    flex-basis: 100%;
    font-size: 0.75rem;
    color: rgba(255, 255, 255, 0.9);
  }
  summary {
    cursor: pointer;
    padding: 2px 4px;
  }
  dl {
    display: grid;
    grid-template-columns: auto 1fr;
    gap: 2px 10px;
    margin: 4px 4px 0;
  }
  dt {
    font-weight: bold;
  }
  dd {
    margin: 0;
  }
`;

const KEYS: { key: NamedKey; label: string; name?: string }[] = [
  { key: 'Enter', label: '進む' },
  { key: 'Backlog', label: 'ログ' },
  { key: 'Auto', label: 'オート' },
  { key: 'Skip', label: 'スキップ' },
  { key: 'Save', label: 'セーブ' },
  { key: 'Load', label: 'ロード' },
  { key: 'Menu', label: 'メニュー' },
  { key: 'ArrowUp', label: '↑', name: '上へ' },
  { key: 'ArrowDown', label: '↓', name: '下へ' },
];

/** On-screen keys for touch screens (and for anyone who prefers buttons). */
interface Props {
  pinned: boolean;
  onKey(k: NamedKey): void;
  onPin(): void;
  gamepadConnected?: boolean;
  /** The pad's height (CSS px) whenever it changes, 0 when it goes: the touchpad's knob stays above it. */
  onHeight?(px: number): void;
}

export function Keypad({ pinned, onKey, onPin, gamepadConnected = false, onHeight }: Props) {
  const ref = useRef<HTMLDivElement | null>(null);
  useReportHeight(ref, onHeight);
  return (
    <Pad ref={ref} role="group" aria-label="キーパッド" data-testid="keypad" onPointerDown={(e) => e.stopPropagation()}>
      {KEYS.map((k) => (
        <button key={k.key} type="button" onClick={() => onKey(k.key)} aria-label={k.name} data-key={k.key}>
          {k.label}
        </button>
      ))}
      <button type="button" aria-pressed={pinned} onClick={onPin} data-testid="keypad-pin">
        {pinned ? '固定中' : '固定'}
      </button>
      <details data-testid="gamepad-help" open={gamepadConnected || undefined}>
        <summary>ゲームパッドの操作{gamepadConnected ? '（接続中）' : ''}</summary>
        <dl>
          {PAD_HELP.map((h) => (
            <div key={h.label} style={{ display: 'contents' }}>
              <dt>{h.label}</dt>
              <dd>{h.action}</dd>
            </div>
          ))}
        </dl>
      </details>
    </Pad>
  );
}
