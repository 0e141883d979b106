/**
 * The play page's control bar: volume, quality, touch mode (on a device with a touch screen), keypad, the stats overlay's toggle
 * (issue 13, shown when the page passes `onStats`), fullscreen, screenshot and exit. Native controls only, so each works by keyboard (InputLayer leaves Enter and Space on a
 * focused button to the page) and shows the global focus ring.
 */
import styled from 'styled-components';
import { pill } from './pill';
import type { QualityLevel } from '@/lib/streaming/messages';
import type { TouchControllerMode } from '@/lib/storage/playerConfig';

/** In the play page's top row (PlayerView's TopRow), on its right; wraps under the left group on a narrow screen. */
const Bar = styled.div`
  display: flex;
  flex-wrap: wrap;
  justify-content: flex-end;
  gap: 6px;
  margin-left: auto;
  max-width: 100%;
  button,
  select,
  label {
    display: inline-flex;
    align-items: center;
    gap: 6px;
    height: 36px;
    padding: 0 10px;
    ${pill}
    cursor: pointer;
    backdrop-filter: blur(4px);
  }
  input[type='range'] {
    width: 80px;
  }
  .exit {
    background: rgba(200, 40, 60, 0.8);
  }
`;

interface Props {
  volume: number;
  quality: QualityLevel;
  touchMode: TouchControllerMode;
  keypadShown: boolean;
  /** The stats overlay is shown (the 統計 toggle's state). */
  statsShown?: boolean;
  /** Fullscreen (or the full-viewport mode) is on. */
  fullscreen?: boolean;
  onVolume(v: number): void;
  onQuality(q: QualityLevel): void;
  /** Switches tap / touchpad; without it (a device with no touch screen), no selector. */
  onTouchMode?(m: TouchControllerMode): void;
  onKeypad(): void;
  /** Toggles the stats overlay; without it, no 統計 button. */
  onStats?(): void;
  onFullscreen(): void;
  onScreenshot(): void;
  onExit(): void;
}

/** The player's controls: volume, quality, touch mode, keypad, fullscreen, screenshot, exit. */
export function ControlBar(p: Props) {
  return (
    <Bar role="group" aria-label="プレイヤーの操作" data-testid="control-bar" onPointerDown={(e) => e.stopPropagation()}>
      <label>
        音量
        <input
          type="range"
          min={0}
          max={1}
          step={0.05}
          value={p.volume}
          onChange={(e) => p.onVolume(Number(e.target.value))}
          aria-label="音量"
          data-testid="volume"
        />
      </label>
      <select value={p.quality} onChange={(e) => p.onQuality(e.target.value as QualityLevel)} aria-label="画質" data-testid="quality">
        <option value="high">画質：高</option>
        <option value="medium">画質：中</option>
        <option value="low">画質：低</option>
      </select>
      {p.onTouchMode && (
        <select value={p.touchMode} onChange={(e) => p.onTouchMode?.(e.target.value as TouchControllerMode)} aria-label="タッチ操作" data-testid="touch-mode">
          <option value="tap">タップ操作</option>
          <option value="touchpad">タッチパッド操作</option>
        </select>
      )}
      <button type="button" onClick={p.onKeypad} aria-pressed={p.keypadShown} data-testid="keypad-toggle">
        キーパッド
      </button>
      {p.onStats && (
        <button type="button" onClick={p.onStats} aria-pressed={!!p.statsShown} data-testid="stats-toggle">
          統計
        </button>
      )}
      <button type="button" onClick={p.onScreenshot} data-testid="screenshot">
        スクショ
      </button>
      <button type="button" onClick={p.onFullscreen} aria-pressed={p.fullscreen === undefined ? undefined : p.fullscreen} data-testid="fullscreen">
        全画面
      </button>
      <button type="button" className="exit" onClick={p.onExit} data-testid="exit">
        終了
      </button>
    </Bar>
  );
}
