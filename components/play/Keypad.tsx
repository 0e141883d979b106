/**
 * The play page's on-screen keys (the game's named keys: advance, log, auto, skip, save, load,
 * menu, up, down) and the pin that keeps them shown. Plain buttons: usable by touch, mouse and
 * keyboard alike; each has a Japanese name (the arrows say which way).
 */
import styled from 'styled-components';
import type { NamedKey } from '@/lib/streaming/messages';

const Pad = styled.div`
  position: absolute;
  left: 50%;
  bottom: 12px;
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
export function Keypad({ pinned, onKey, onPin }: { pinned: boolean; onKey(k: NamedKey): void; onPin(): void }) {
  return (
    <Pad role="group" aria-label="キーパッド" data-testid="keypad" onPointerDown={(e) => e.stopPropagation()}>
      {KEYS.map((k) => (
        <button key={k.key} type="button" onClick={() => onKey(k.key)} aria-label={k.name} data-key={k.key}>
          {k.label}
        </button>
      ))}
      <button type="button" aria-pressed={pinned} onClick={onPin} data-testid="keypad-pin">
        {pinned ? '固定中' : '固定'}
      </button>
    </Pad>
  );
}
