import { act, fireEvent, screen } from '@testing-library/react';
import { renderWithProviders } from '@/test/renderWithProviders';
import { ModalLayer, MODAL_TRANSITION_MS } from './ModalLayer';
import { displayModal } from '@/store/slices/modal';
import { ToastStack } from '@/components/toast/ToastStack';
import { pushToast } from '@/store/slices/toastThunks';

const push = jest.fn(() => Promise.resolve(true));
jest.mock('next/router', () => ({ useRouter: () => ({ push, asPath: '/' }) }));
const startRedirect = jest.fn(async () => undefined);
jest.mock('@/lib/auth/social', () => ({
  logoutBeforeSocialLogin: async () => undefined,
  startRedirect: (...args: unknown[]) => startRedirect(...(args as [])),
}));

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

describe('modal layer', () => {
  it('shows the login modal (loaded on first open) with the spec texts and links, and locks body scroll', async () => {
    const { store } = renderWithProviders(<ModalLayer />);
    act(() => {
      store.dispatch(displayModal({ node: 'login' }));
    });
    expect(await screen.findByTestId('login-modal')).toBeInTheDocument();
    expect(screen.getByText(/メールアドレスの登録が必要です/)).toBeInTheDocument();
    expect(screen.getByText(/許可なくSNSへ投稿することはありません/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '利用規約' })).toHaveAttribute('href', '/terms');
    expect(screen.getByRole('link', { name: 'プライバシーポリシー' })).toHaveAttribute('href', '/privacy');
    expect(screen.getByTestId('email-login-link')).toHaveAttribute('href', '/email/login');
    expect(screen.getByTestId('social-login')).toBeInTheDocument();
    expect(document.body).toHaveClass('modal-open');
  });

  it('closes on the close button and on the backdrop, after the 500 ms transition', () => {
    const { store } = renderWithProviders(<ModalLayer />);
    act(() => {
      store.dispatch(displayModal({ node: 'message', props: { title: 'お知らせ', message: '本文' } }));
    });
    fireEvent.click(screen.getByTestId('modal-close'));
    expect(store.getState().modal).toEqual({ node: null, props: {} });
    expect(screen.getByTestId('modal-message')).toBeInTheDocument(); // still fading out
    act(() => {
      jest.advanceTimersByTime(MODAL_TRANSITION_MS);
    });
    expect(screen.queryByTestId('modal-message')).toBeNull();
    expect(document.body).not.toHaveClass('modal-open');

    act(() => {
      store.dispatch(displayModal({ node: 'message', props: { message: 'もう一度' } }));
    });
    fireEvent.click(screen.getByTestId('modal-overlay'));
    expect(store.getState().modal.node).toBeNull();
  });

  it('does not close when the dialog itself is clicked', () => {
    const { store } = renderWithProviders(<ModalLayer />);
    act(() => {
      store.dispatch(displayModal({ node: 'message', props: { message: 'x' } }));
    });
    fireEvent.click(screen.getByTestId('modal-message'));
    expect(store.getState().modal.node).toBe('message');
  });

  it('uses a 500 ms transition', () => {
    expect(MODAL_TRANSITION_MS).toBe(500);
  });

  it('social login shows a spinner in place of the button and hides the e-mail link', async () => {
    const { store } = renderWithProviders(<ModalLayer />);
    act(() => {
      store.dispatch(displayModal({ node: 'login' }));
    });
    await act(async () => {
      fireEvent.click(screen.getByTestId('social-login'));
    });
    expect(screen.queryByTestId('social-login')).toBeNull();
    expect(screen.queryByTestId('email-login-link')).toBeNull();
    expect(startRedirect).toHaveBeenCalledWith('login', { followUp: undefined });
  });
});

describe('toast stack', () => {
  it('stacks toasts and removes them after their duration', () => {
    const { store } = renderWithProviders(<ToastStack />);
    act(() => {
      store.dispatch(pushToast('success', { message: '保存しました', durationMs: 1000 }));
      store.dispatch(pushToast('error', { message: '失敗しました', durationMs: 0 }));
    });
    expect(screen.getAllByTestId('toast')).toHaveLength(2);
    act(() => {
      jest.advanceTimersByTime(1000);
    });
    expect(screen.getAllByTestId('toast')).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: '閉じる' }));
    expect(screen.queryAllByTestId('toast')).toHaveLength(0);
  });
});
