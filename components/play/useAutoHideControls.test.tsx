/**
 * The top row hides after a while without pointer activity only where it lies over the picture,
 * comes back on a pointer move or touch, and stays for a keyboard user focused in it or a mouse
 * resting over it.
 */
import { act, fireEvent, render, screen } from '@testing-library/react';
import { useRef } from 'react';
import { CONTROLS_HIDE_AFTER_MS, pictureTop, useAutoHideControls } from './useAutoHideControls';

function rect(top: number, width: number, height: number): DOMRect {
  return { top, left: 0, width, height, bottom: top + height, right: width, x: 0, y: top, toJSON: () => ({}) } as DOMRect;
}

/** A stage `w`×`h` with a 16:9 picture and a row 44 px tall at the top. */
function Stage({ w, h }: { w: number; h: number }) {
  const row = useRef<HTMLDivElement | null>(null);
  const video = useRef<HTMLVideoElement | null>(null);
  const hidden = useAutoHideControls(row, video, true);
  return (
    <div>
      <video
        ref={(el) => {
          video.current = el;
          if (el) el.getBoundingClientRect = () => rect(0, w, h);
        }}
      />
      <div
        data-testid="row"
        data-hidden={hidden}
        ref={(el) => {
          row.current = el;
          if (el) el.getBoundingClientRect = () => rect(8, w - 16, 36);
        }}
      >
        <button>音量</button>
      </div>
    </div>
  );
}

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

function idle() {
  act(() => {
    jest.advanceTimersByTime(CONTROLS_HIDE_AFTER_MS + 50);
  });
}

it('finds the picture’s top in a letterboxed box', () => {
  expect(pictureTop(rect(0, 390, 844), 16 / 9)).toBeCloseTo((844 - 390 / (16 / 9)) / 2);
  expect(pictureTop(rect(0, 844, 390), 16 / 9)).toBe(0);
});

it('hides over the picture (a phone in landscape) and comes back on a touch or a pointer move', () => {
  render(<Stage w={844} h={390} />);
  const row = screen.getByTestId('row');
  expect(row).toHaveAttribute('data-hidden', 'false');
  idle();
  expect(row).toHaveAttribute('data-hidden', 'true');
  fireEvent.pointerDown(document.body);
  expect(row).toHaveAttribute('data-hidden', 'false');
  idle();
  expect(row).toHaveAttribute('data-hidden', 'true');
  fireEvent.pointerMove(document.body);
  expect(row).toHaveAttribute('data-hidden', 'false');
});

it('stays where the picture is letterboxed below it (a phone in portrait, a 1366×900 window) or where it covers only a sliver (1280×800)', () => {
  render(<Stage w={390} h={844} />);
  idle();
  expect(screen.getByTestId('row')).toHaveAttribute('data-hidden', 'false');
  render(<Stage w={1366} h={900} />);
  render(<Stage w={1280} h={800} />);
  idle();
  for (const r of screen.getAllByTestId('row')) expect(r).toHaveAttribute('data-hidden', 'false');
});

it('stays while a keyboard user is focused in it', () => {
  render(<Stage w={844} h={390} />);
  const button = screen.getByRole('button', { name: '音量' });
  const matches = jest.spyOn(Element.prototype, 'querySelector').mockImplementation(function (this: Element, sel: string) {
    return sel === ':focus-visible' && this.contains(document.activeElement) && document.activeElement !== document.body ? document.activeElement : null;
  });
  act(() => button.focus());
  idle();
  expect(screen.getByTestId('row')).toHaveAttribute('data-hidden', 'false');
  act(() => button.blur());
  idle();
  expect(screen.getByTestId('row')).toHaveAttribute('data-hidden', 'true');
  matches.mockRestore();
});

it('stays while the mouse rests over it (a click there never lands on an unseen control)', () => {
  render(<Stage w={844} h={390} />);
  const row = screen.getByTestId('row');
  const matches = jest.spyOn(Element.prototype, 'matches').mockImplementation(function (this: Element, sel: string) {
    return sel === ':hover' && this === row;
  });
  idle();
  expect(row).toHaveAttribute('data-hidden', 'false');
  matches.mockRestore();
  idle();
  expect(row).toHaveAttribute('data-hidden', 'true');
});
