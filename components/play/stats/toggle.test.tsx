/**
 * The control bar's 統計 toggle (issue 13): a native button with a Japanese name that reports its
 * state (aria-pressed) and calls the page's handler; pages that pass no handler get no button.
 * The tap / touchpad selector likewise shows only with its handler (a device with a touch screen).
 */
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders } from '@/test/renderWithProviders';
import { ControlBar } from '../ControlBar';

const handlers = () => ({ onVolume: jest.fn(), onQuality: jest.fn(), onTouchMode: jest.fn(), onKeypad: jest.fn(), onFullscreen: jest.fn(), onScreenshot: jest.fn(), onExit: jest.fn() });

it('toggles the stats overlay and shows whether it is on', async () => {
  const onStats = jest.fn();
  const { rerender } = renderWithProviders(<ControlBar volume={1} quality="high" touchMode="tap" keypadShown={false} statsShown={false} onStats={onStats} {...handlers()} />);
  const button = screen.getByRole('button', { name: '統計' });
  expect(button).toHaveAttribute('aria-pressed', 'false');
  await userEvent.setup().click(button);
  expect(onStats).toHaveBeenCalledTimes(1);
  rerender(<ControlBar volume={1} quality="high" touchMode="tap" keypadShown={false} statsShown onStats={onStats} {...handlers()} />);
  expect(screen.getByRole('button', { name: '統計' })).toHaveAttribute('aria-pressed', 'true');
});

it('has no stats button without a handler, and the fullscreen button says when it is on', () => {
  renderWithProviders(<ControlBar volume={1} quality="high" touchMode="tap" keypadShown={false} fullscreen {...handlers()} />);
  expect(screen.queryByRole('button', { name: '統計' })).toBeNull();
  expect(screen.getByRole('combobox', { name: 'タッチ操作' })).toBeInTheDocument();
  expect(screen.getByRole('button', { name: '全画面' })).toHaveAttribute('aria-pressed', 'true');
});

it('has no tap / touchpad selector on a device without a touch screen (no handler)', () => {
  const rest: Partial<ReturnType<typeof handlers>> = handlers();
  delete rest.onTouchMode;
  renderWithProviders(<ControlBar volume={1} quality="high" touchMode="tap" keypadShown={false} {...(rest as Omit<ReturnType<typeof handlers>, 'onTouchMode'>)} />);
  expect(screen.queryByRole('combobox', { name: 'タッチ操作' })).toBeNull();
  expect(screen.getByRole('combobox', { name: '画質' })).toBeInTheDocument();
});
