import { STORAGE_KEYS } from './keys';
import { isRecord, readJson, writeRaw } from './localStore';

export type TouchControllerMode = 'tap' | 'touchpad';
export type VideoQuality = 'high' | 'medium' | 'low';

export interface Guidance {
  touchControllerTutorial: boolean;
  controllerKnobTutorial: boolean;
}

/** Player config of spec section 3, as the app uses it. */
export interface PlayerConfig {
  touchControllerMode: TouchControllerMode;
  videoQuality: VideoQuality;
  volume: number;
  keypadShown: boolean;
  keypadPinned: boolean;
  guidance: Guidance;
  knobPosition: { x: number; y: number };
}

export const DEFAULT_PLAYER_CONFIG: PlayerConfig = {
  touchControllerMode: 'tap',
  videoQuality: 'high',
  volume: 1,
  keypadShown: false,
  keypadPinned: false,
  guidance: { touchControllerTutorial: false, controllerKnobTutorial: false },
  knobPosition: { x: 0.5, y: 1 },
};

/** guidance is stored as a 2-bit number: bit 0 touch-controller tutorial, bit 1 knob tutorial. */
export function encodeGuidance(g: Guidance): number {
  return (g.touchControllerTutorial ? 1 : 0) | (g.controllerKnobTutorial ? 2 : 0);
}

export function decodeGuidance(bits: unknown): Guidance {
  const n = typeof bits === 'number' && Number.isInteger(bits) && bits >= 0 && bits <= 3 ? bits : 0;
  return { touchControllerTutorial: (n & 1) !== 0, controllerKnobTutorial: (n & 2) !== 0 };
}

const unit = (v: unknown, fallback: number) =>
  typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= 1 ? v : fallback;

/** Reads the stored config; every corrupt or foreign field falls back to its default. */
export function parsePlayerConfig(v: unknown): PlayerConfig {
  const d = DEFAULT_PLAYER_CONFIG;
  if (!isRecord(v)) return { ...d, guidance: { ...d.guidance }, knobPosition: { ...d.knobPosition } };
  const knob = isRecord(v.knobPosition) ? v.knobPosition : {};
  return {
    touchControllerMode: v.touchControllerMode === 'touchpad' ? 'touchpad' : 'tap',
    videoQuality: v.videoQuality === 'medium' || v.videoQuality === 'low' ? v.videoQuality : 'high',
    volume: unit(v.volume, d.volume),
    keypadShown: typeof v.keypadShown === 'boolean' ? v.keypadShown : d.keypadShown,
    keypadPinned: typeof v.keypadPinned === 'boolean' ? v.keypadPinned : d.keypadPinned,
    guidance: decodeGuidance(v.guidance),
    knobPosition: { x: unit(knob.x, d.knobPosition.x), y: unit(knob.y, d.knobPosition.y) },
  };
}

export function loadPlayerConfig(): PlayerConfig {
  return parsePlayerConfig(readJson(STORAGE_KEYS.playerConfig));
}

export function savePlayerConfig(config: PlayerConfig): void {
  writeRaw(STORAGE_KEYS.playerConfig, JSON.stringify({ ...config, guidance: encodeGuidance(config.guidance) }));
}

export function updatePlayerConfig(patch: Partial<PlayerConfig>): PlayerConfig {
  const next = { ...loadPlayerConfig(), ...patch };
  savePlayerConfig(next);
  return next;
}
