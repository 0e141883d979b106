/**
 * The keypad's gamepad help (issue 13): which pad button does what, in Japanese, opened by
 * itself while a pad is connected.
 */
import { screen, within } from '@testing-library/react';
import { renderWithProviders } from '@/test/renderWithProviders';
import { Keypad } from '../Keypad';

it('lists the pad’s buttons and what they do', () => {
  renderWithProviders(<Keypad pinned={false} onKey={() => undefined} onPin={() => undefined} />);
  const help = screen.getByTestId('gamepad-help');
  expect(help).not.toHaveAttribute('open');
  expect(within(help).getByText('ゲームパッドの操作')).toBeInTheDocument();
  const pairs = Array.from(help.querySelectorAll('dt')).map((dt) => `${dt.textContent}=${dt.nextElementSibling?.textContent}`);
  expect(pairs).toEqual(expect.arrayContaining(['A=進む・決定', 'B=メニュー・戻る', '十字キー／左スティック=選択肢を移動', 'LB=オート', 'RB=スキップ']));
});

it('is open and marked while a pad is connected', () => {
  renderWithProviders(<Keypad pinned={false} onKey={() => undefined} onPin={() => undefined} gamepadConnected />);
  const help = screen.getByTestId('gamepad-help');
  expect(help).toHaveAttribute('open');
  expect(within(help).getByText('ゲームパッドの操作（接続中）')).toBeInTheDocument();
});
