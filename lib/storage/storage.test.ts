import { STORAGE_KEYS } from './keys';
import { DEFAULT_SAFE_CHECK, loadSafeCheck, resetSafeCheck, saveSafeCheck } from './safeCheck';
import {
  DEFAULT_PLAYER_CONFIG,
  decodeGuidance,
  encodeGuidance,
  loadPlayerConfig,
  savePlayerConfig,
} from './playerConfig';
import { clearEmailForSignIn, loadEmailForSignIn, saveEmailForSignIn } from './emailForSignIn';

beforeEach(() => window.localStorage.clear());

describe('safe check', () => {
  it('defaults to all false', () => {
    expect(loadSafeCheck()).toEqual({ confirmed: false, over18: false, isNSFWMode: false });
  });
  it('round-trips and resets', () => {
    saveSafeCheck({ confirmed: true, over18: true, isNSFWMode: false });
    expect(loadSafeCheck()).toEqual({ confirmed: true, over18: true, isNSFWMode: false });
    resetSafeCheck();
    expect(loadSafeCheck()).toEqual(DEFAULT_SAFE_CHECK);
  });
  it.each(['{not json', '[1,2]', '"yes"', '{"confirmed":"true","over18":1}', 'null'])(
    'falls back to defaults for the corrupt value %s',
    (raw) => {
      window.localStorage.setItem(STORAGE_KEYS.safeCheck, raw);
      expect(loadSafeCheck()).toEqual(DEFAULT_SAFE_CHECK);
    },
  );
});

describe('player config', () => {
  it('has every default of spec section 3', () => {
    expect(loadPlayerConfig()).toEqual({
      touchControllerMode: 'tap',
      videoQuality: 'high',
      volume: 1,
      keypadShown: false,
      keypadPinned: false,
      guidance: { touchControllerTutorial: false, controllerKnobTutorial: false },
      knobPosition: { x: 0.5, y: 1 },
    });
  });
  it('stores guidance as a 2-bit number', () => {
    expect(encodeGuidance({ touchControllerTutorial: true, controllerKnobTutorial: false })).toBe(1);
    expect(encodeGuidance({ touchControllerTutorial: false, controllerKnobTutorial: true })).toBe(2);
    expect(encodeGuidance({ touchControllerTutorial: true, controllerKnobTutorial: true })).toBe(3);
    savePlayerConfig({ ...DEFAULT_PLAYER_CONFIG, guidance: { touchControllerTutorial: true, controllerKnobTutorial: true } });
    expect(JSON.parse(window.localStorage.getItem(STORAGE_KEYS.playerConfig)!).guidance).toBe(3);
    expect(loadPlayerConfig().guidance).toEqual({ touchControllerTutorial: true, controllerKnobTutorial: true });
  });
  it('rejects out-of-range guidance bits', () => {
    expect(decodeGuidance(7)).toEqual({ touchControllerTutorial: false, controllerKnobTutorial: false });
    expect(decodeGuidance('3')).toEqual({ touchControllerTutorial: false, controllerKnobTutorial: false });
  });
  it('keeps valid fields and repairs foreign ones', () => {
    window.localStorage.setItem(
      STORAGE_KEYS.playerConfig,
      JSON.stringify({ volume: 0.3, videoQuality: 'ultra', touchControllerMode: 'touchpad', knobPosition: { x: 9, y: 0.2 } }),
    );
    const c = loadPlayerConfig();
    expect(c.volume).toBe(0.3);
    expect(c.videoQuality).toBe('high');
    expect(c.touchControllerMode).toBe('touchpad');
    expect(c.knobPosition).toEqual({ x: 0.5, y: 0.2 });
  });
  it('survives garbage', () => {
    window.localStorage.setItem(STORAGE_KEYS.playerConfig, '\u0000garbage');
    expect(loadPlayerConfig()).toEqual(DEFAULT_PLAYER_CONFIG);
  });
});

describe('e-mail link address', () => {
  it('round-trips and ignores junk', () => {
    expect(loadEmailForSignIn()).toBeNull();
    saveEmailForSignIn('a@example.com');
    expect(loadEmailForSignIn()).toBe('a@example.com');
    clearEmailForSignIn();
    expect(loadEmailForSignIn()).toBeNull();
    window.localStorage.setItem(STORAGE_KEYS.emailForSignIn, 'not-an-address');
    expect(loadEmailForSignIn()).toBeNull();
  });
  it('uses one key each', () => {
    expect(new Set(Object.values(STORAGE_KEYS)).size).toBe(Object.values(STORAGE_KEYS).length);
  });
});
