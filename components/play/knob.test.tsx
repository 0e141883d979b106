/**
 * The touchpad's knob stays clear of the keypad: the keypad reports its height, and the knob's
 * place (the spec's default x 0.5, y 1) is shown above it while it is shown.
 */
import { render } from '@testing-library/react';
import { renderWithProviders } from '@/test/renderWithProviders';
import { InputLayer, knobTop } from './InputLayer';
import { Keypad } from './Keypad';

it('puts the knob 48 px above its place, and above the floor it must keep clear of', () => {
  expect(knobTop(1, 0)).toBe('calc(100% - 48px)');
  expect(knobTop(0.5, 0)).toBe('calc(50% - 48px)');
  expect(knobTop(1, 140)).toBe('min(calc(100% - 48px), calc(100% - 180px))');
});

it('the keypad reports its height while shown, and 0 when it goes', () => {
  const heights: number[] = [];
  const rect = jest.spyOn(Element.prototype, 'getBoundingClientRect').mockReturnValue({ height: 128 } as DOMRect);
  const { unmount } = render(<Keypad pinned={false} onKey={() => undefined} onPin={() => undefined} onHeight={(px) => heights.push(px)} />);
  unmount();
  rect.mockRestore();
  expect(heights).toEqual([128, 0]);
});

it('the knob takes the floor the page gives it', () => {
  const { getByTestId } = renderWithProviders(
    <InputLayer mode="touchpad" knob={{ x: 0.5, y: 1 }} knobFloor={140} onKnobMove={() => undefined} send={jest.fn()} videoBox={() => null} />,
  );
  expect(getByTestId('knob').getAttribute('style')).toContain('calc(100% - 180px)');
});
