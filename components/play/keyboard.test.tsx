/**
 * The play page by keyboard alone (issue 12): the control bar's and keypad's buttons are reached
 * by Tab and work with Enter and Space (the input layer leaves those keys to a focused button),
 * while keys on the game surface, and other keys anywhere, still go to the game; the touchpad's
 * knob clicks with Enter too.
 */
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders } from '@/test/renderWithProviders';
import { ControlBar } from './ControlBar';
import { InputLayer, type SendInput } from './InputLayer';
import { Keypad } from './Keypad';

function setup(mode: 'tap' | 'touchpad' = 'tap') {
  const send = jest.fn() as jest.MockedFunction<SendInput>;
  const handlers = { onVolume: jest.fn(), onQuality: jest.fn(), onTouchMode: jest.fn(), onKeypad: jest.fn(), onFullscreen: jest.fn(), onScreenshot: jest.fn(), onExit: jest.fn() };
  const onKey = jest.fn();
  renderWithProviders(
    <>
      <InputLayer mode={mode} knob={{ x: 0.5, y: 1 }} onKnobMove={() => undefined} send={send} videoBox={() => null} />
      <ControlBar volume={1} quality="high" touchMode={mode} keypadShown {...handlers} />
      <Keypad pinned={false} onKey={onKey} onPin={() => undefined} />
    </>,
  );
  const keys = () => send.mock.calls.map(([m]) => (m.type === 'key' ? `${m.kind}:${m.key}` : `${m.type}:${'kind' in m ? m.kind : ''}`));
  return { user: userEvent.setup(), send, keys, handlers, onKey };
}

describe('the play page by keyboard', () => {
  it('reaches the game surface and every control by Tab, each with a Japanese name', async () => {
    const { user } = setup();
    const order = ['ゲーム画面', '音量', '画質', 'タッチ操作', 'キーパッド', 'スクショ', '全画面', '終了'];
    for (const name of order) {
      await user.tab();
      expect(document.activeElement).toHaveAccessibleName(expect.stringContaining(name));
    }
    expect(screen.getByRole('group', { name: 'キーパッド' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '上へ' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '下へ' })).toBeInTheDocument();
  });

  it('Enter and Space on a focused button press it, and are not sent to the game', async () => {
    const { user, keys, handlers, onKey } = setup();
    screen.getByRole('button', { name: '終了' }).focus();
    await user.keyboard('{Enter}');
    expect(handlers.onExit).toHaveBeenCalledTimes(1);
    screen.getByRole('button', { name: 'キーパッド' }).focus();
    await user.keyboard(' ');
    expect(handlers.onKeypad).toHaveBeenCalledTimes(1);
    screen.getByRole('button', { name: 'メニュー' }).focus();
    await user.keyboard('{Enter}');
    expect(onKey).toHaveBeenCalledWith('Menu');
    expect(keys()).toEqual([]);
  });

  it('keys on the game surface go to the game, and so do other keys on a focused button', async () => {
    const { user, keys } = setup();
    screen.getByRole('application', { name: 'ゲーム画面' }).focus();
    await user.keyboard('{Enter}{ArrowDown}');
    screen.getByRole('button', { name: '全画面' }).focus();
    await user.keyboard('1');
    expect(keys()).toEqual(['down:Enter', 'up:Enter', 'down:ArrowDown', 'up:ArrowDown', 'down:1', 'up:1']);
  });

  it('the touchpad knob clicks with Enter', async () => {
    const { user, keys } = setup('touchpad');
    screen.getByRole('button', { name: 'クリック' }).focus();
    await user.keyboard('{Enter}');
    expect(keys()).toEqual(['pointer:down', 'pointer:up']);
  });
});
