/**
 * Gamepad support (issue 13): a simulated pad (navigator.getGamepads) presses A, B, the d-pad and
 * the shoulders; the hook sends the keyboard's key messages through the same send, repeats a held
 * A or arrow at a sane rate, and polls only while a pad is connected.
 */
import { act, render } from '@testing-library/react';
import { GamepadReader, PAD_BUTTONS, REPEAT_DELAY_MS, REPEAT_INTERVAL_MS, type PadState } from './mapping';
import { useGamepad, type SendKey } from './useGamepad';

function pad(pressed: number[] = [], axes: number[] = [0, 0]): PadState {
  return { index: 0, connected: true, buttons: Array.from({ length: 17 }, (_, i) => ({ pressed: pressed.includes(i), value: pressed.includes(i) ? 1 : 0 })), axes };
}

describe('GamepadReader (the mapping)', () => {
  const keysOf = (r: GamepadReader, p: PadState | null, t: number) => r.read([p], t).map((e) => `${e.kind}:${e.key}`);

  it('A is Enter, B is Escape, the d-pad the arrows, the shoulders Auto and Skip', () => {
    const r = new GamepadReader();
    expect(keysOf(r, pad([0]), 0)).toEqual(['down:Enter']);
    expect(keysOf(r, pad([]), 10)).toEqual(['up:Enter']);
    expect(keysOf(r, pad([1]), 20)).toEqual(['down:Escape']);
    expect(keysOf(r, pad([12, 13]), 30)).toEqual(['down:ArrowUp', 'down:ArrowDown', 'up:Escape']);
    expect(keysOf(r, pad([14, 15]), 40)).toEqual(['down:ArrowLeft', 'down:ArrowRight', 'up:ArrowUp', 'up:ArrowDown']);
    expect(keysOf(r, pad([4]), 50)).toEqual(['down:Auto', 'up:ArrowLeft', 'up:ArrowRight']);
    expect(keysOf(r, pad([5]), 60)).toEqual(['down:Skip', 'up:Auto']);
    expect(PAD_BUTTONS.find((b) => b.index === 9)!.key).toBe('Menu');
  });

  it('the left stick past the threshold is an arrow', () => {
    const r = new GamepadReader();
    expect(keysOf(r, pad([], [0, 0.3]), 0)).toEqual([]);
    expect(keysOf(r, pad([], [0, 0.9]), 10)).toEqual(['down:ArrowDown']);
    expect(keysOf(r, pad([], [-0.9, 0]), 20)).toEqual(['down:ArrowLeft', 'up:ArrowDown']);
  });

  it('a stick resting near the threshold does not chatter: held until it comes back under the release point', () => {
    const r = new GamepadReader();
    expect(keysOf(r, pad([], [0, 0.61]), 0)).toEqual(['down:ArrowDown']);
    for (const [t, y] of [[16, 0.58], [32, 0.62], [48, 0.5], [64, 0.45]]) expect(keysOf(r, pad([], [0, y]), t)).toEqual([]);
    expect(keysOf(r, pad([], [0, 0.3]), 80)).toEqual(['up:ArrowDown']);
    expect(keysOf(r, pad([], [0, 0.5]), 96)).toEqual([]);
  });

  it('a held A repeats after the delay at the interval; a held shoulder does not', () => {
    const r = new GamepadReader();
    const downs: number[] = [];
    for (let t = 0; t <= 1000; t += 16) if (r.read([pad([0, 5])], t).some((e) => e.key === 'Enter')) downs.push(t);
    expect(downs[0]).toBe(0);
    expect(downs[1]).toBeGreaterThanOrEqual(REPEAT_DELAY_MS);
    expect(downs[2] - downs[1]).toBeGreaterThanOrEqual(REPEAT_INTERVAL_MS);
    expect(downs[2] - downs[1]).toBeLessThan(REPEAT_INTERVAL_MS + 20);
    // 1 s held: the press and about four repeats, never a flood
    expect(downs.length).toBeGreaterThanOrEqual(4);
    expect(downs.length).toBeLessThanOrEqual(6);
    const r2 = new GamepadReader();
    const skips = Array.from({ length: 60 }, (_, i) => r2.read([pad([5])], i * 16)).flat();
    expect(skips).toEqual([{ kind: 'down', key: 'Skip' }]);
  });

  it('a pad that goes away releases what it held', () => {
    const r = new GamepadReader();
    r.read([pad([0])], 0);
    expect(r.read([null], 16)).toEqual([{ kind: 'up', key: 'Enter' }]);
  });
});

describe('useGamepad', () => {
  let pads: (PadState | null)[] = [];
  const getGamepads = jest.fn(() => pads);
  beforeAll(() => {
    Object.defineProperty(navigator, 'getGamepads', { value: getGamepads, configurable: true });
  });
  afterAll(() => {
    delete (navigator as unknown as { getGamepads?: unknown }).getGamepads;
  });
  beforeEach(() => {
    jest.useFakeTimers();
    pads = [];
    getGamepads.mockClear();
  });
  afterEach(() => jest.useRealTimers());

  function Harness({ send }: { send: SendKey }) {
    const connected = useGamepad(send);
    return <p data-testid="pad">{connected ? 'connected' : 'none'}</p>;
  }

  const frames = (n: number) => act(() => jest.advanceTimersByTime(16 * n));

  it('does not poll without a pad; with one, A advances and B goes back through the same send', () => {
    const send = jest.fn();
    const { getByTestId, unmount } = render(<Harness send={send} />);
    frames(10);
    expect(getGamepads.mock.calls.length).toBeLessThanOrEqual(1); // the look at mount, no loop
    expect(getByTestId('pad')).toHaveTextContent('none');

    pads = [pad()];
    act(() => void window.dispatchEvent(new Event('gamepadconnected')));
    expect(getByTestId('pad')).toHaveTextContent('connected');
    pads = [pad([0])];
    frames(2);
    pads = [pad()];
    frames(2);
    pads = [pad([1])];
    frames(2);
    expect(send.mock.calls.map(([m]) => m)).toEqual([
      { type: 'key', kind: 'down', key: 'Enter' },
      { type: 'key', kind: 'up', key: 'Enter' },
      { type: 'key', kind: 'down', key: 'Escape' },
    ]);

    // the pad goes: the held B is released and the loop stops
    pads = [null];
    act(() => void window.dispatchEvent(new Event('gamepaddisconnected')));
    expect(send).toHaveBeenLastCalledWith({ type: 'key', kind: 'up', key: 'Escape' });
    expect(getByTestId('pad')).toHaveTextContent('none');
    const polls = getGamepads.mock.calls.length;
    frames(20);
    expect(getGamepads.mock.calls.length).toBe(polls);
    unmount();
  });

  it('stops polling when the pad is gone even without an event, and polls nothing while disabled', () => {
    const send = jest.fn();
    pads = [pad([0])];
    const { rerender } = render(<Harness send={send} />);
    frames(3);
    pads = [];
    frames(3);
    expect(send).toHaveBeenLastCalledWith({ type: 'key', kind: 'up', key: 'Enter' });
    const polls = getGamepads.mock.calls.length;
    frames(30);
    expect(getGamepads.mock.calls.length).toBe(polls);

    function Disabled() {
      useGamepad(send, false);
      return null;
    }
    pads = [pad([0])];
    getGamepads.mockClear();
    rerender(<Disabled />);
    act(() => void window.dispatchEvent(new Event('gamepadconnected')));
    frames(10);
    expect(getGamepads).not.toHaveBeenCalled();
  });

  it('holding the d-pad moves repeatedly at a sane rate', () => {
    const send = jest.fn();
    pads = [pad([13])];
    render(<Harness send={send} />); // a pad already connected at mount
    frames(63); // ~1 s
    const downs = send.mock.calls.filter(([m]) => m.kind === 'down' && m.key === 'ArrowDown').length;
    expect(downs).toBeGreaterThanOrEqual(4);
    expect(downs).toBeLessThanOrEqual(6);
  });
});
