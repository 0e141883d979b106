/**
 * The modal layer's keyboard behaviour (issue 12, useFocusTrap): opening moves focus into the
 * dialog, Tab and Shift+Tab cycle inside it, focus that wanders out comes back, Escape closes,
 * and focus returns to the control that opened it — also when one modal replaces another.
 */
import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders } from '@/test/renderWithProviders';
import { useAppDispatch } from '@/store/hooks';
import { displayModal, type ModalNode } from '@/store/slices/modal';
import { ModalLayer, MODAL_TRANSITION_MS } from './ModalLayer';
import { tabStops } from './useFocusTrap';

jest.mock('next/router', () => ({ useRouter: () => ({ push: jest.fn(), asPath: '/' }) }));

function Page({ node = 'routeBlocked' }: { node?: ModalNode }) {
  const dispatch = useAppDispatch();
  return (
    <>
      <a href="/before">前のリンク</a>
      <button type="button" onClick={() => dispatch(displayModal({ node, props: { message: '本文' } }))}>
        開く
      </button>
      <a href="/after">後のリンク</a>
      <ModalLayer />
    </>
  );
}

function setup(node?: ModalNode) {
  const user = userEvent.setup({ advanceTimers: (ms) => jest.advanceTimersByTime(ms) });
  const view = renderWithProviders(<Page node={node} />);
  return { user, ...view };
}

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

describe('modal focus trap', () => {
  it('moves focus into the named dialog when it opens', async () => {
    const { user } = setup();
    await user.click(screen.getByRole('button', { name: '開く' }));
    const dialog = screen.getByRole('dialog', { name: 'ログインが必要です' });
    expect(dialog).toHaveFocus();
    expect(dialog).toHaveAttribute('aria-modal', 'true');
  });

  it('cycles Tab and Shift+Tab inside the dialog', async () => {
    const { user } = setup();
    await user.click(screen.getByRole('button', { name: '開く' }));
    const dialog = screen.getByRole('dialog');
    const stops = tabStops(dialog);
    expect(stops.map((el) => el.textContent || el.getAttribute('aria-label'))).toEqual(['閉じる', 'ログイン・新規登録', 'ページを再読み込み', '閉じる']);
    for (const stop of stops) {
      await user.tab();
      expect(stop).toHaveFocus();
    }
    await user.tab(); // past the last: back to the first
    expect(stops[0]).toHaveFocus();
    await user.tab({ shift: true }); // before the first: the last
    expect(stops[stops.length - 1]).toHaveFocus();
    for (let i = 0; i < 10; i++) {
      await user.tab({ shift: i % 3 === 0 });
      expect(dialog).toContainElement(document.activeElement as HTMLElement);
    }
  });

  it('brings focus back when it lands outside the dialog', async () => {
    const { user } = setup();
    await user.click(screen.getByRole('button', { name: '開く' }));
    act(() => screen.getByRole('link', { name: '後のリンク' }).focus());
    expect(screen.getByRole('dialog')).toHaveFocus();
  });

  it('closes on Escape and gives focus back to the opener', async () => {
    const { user, store } = setup();
    const opener = screen.getByRole('button', { name: '開く' });
    await user.click(opener);
    await user.tab();
    await user.keyboard('{Escape}');
    expect(store.getState().modal.node).toBeNull();
    expect(opener).toHaveFocus();
    act(() => {
      jest.advanceTimersByTime(MODAL_TRANSITION_MS);
    });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(opener).toHaveFocus();
  });

  it('names a dialog without a title, and closes from its own button back to the opener', async () => {
    const { user } = setup('message');
    const opener = screen.getByRole('button', { name: '開く' });
    await user.click(opener);
    expect(screen.getByRole('dialog', { name: 'お知らせ' })).toHaveFocus();
    await user.tab(); // the close button
    await user.tab(); // OK
    expect(screen.getByRole('button', { name: 'OK' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(opener).toHaveFocus();
  });

  it('keeps the first opener when one modal replaces another, and returns to it', async () => {
    const { user, store } = setup();
    const opener = screen.getByRole('button', { name: '開く' });
    await user.click(opener);
    await user.tab();
    await user.tab(); // ログイン・新規登録, which goes away with its modal
    act(() => {
      store.dispatch(displayModal({ node: 'message', props: { title: '次のお知らせ' } }));
    });
    // The MutationObserver's callback runs as a microtask.
    await act(async () => undefined);
    const dialog = screen.getByRole('dialog', { name: '次のお知らせ' });
    expect(dialog).toContainElement(document.activeElement as HTMLElement);
    await user.keyboard('{Escape}');
    expect(opener).toHaveFocus();
  });

  it('returns focus after the close button, too', async () => {
    const { user } = setup();
    const opener = screen.getByRole('button', { name: '開く' });
    await user.click(opener);
    await user.click(screen.getByTestId('modal-close'));
    expect(opener).toHaveFocus();
  });
});
