/**
 * The login modal's social sign-in flow (spec section 4), through the modal itself and its hook
 * lib/auth/useSocialLogin: the redirect is a double, so the steps and the spinner are checked here.
 */
import { act, fireEvent, screen } from '@testing-library/react';
import { renderWithProviders } from '@/test/renderWithProviders';
import { LoginModal } from './LoginModal';
import { LOGIN_SPINNER_RESET_MS } from '@/lib/auth/useSocialLogin';
import { logoutBeforeSocialLogin, startRedirect } from '@/lib/auth/social';

jest.mock('@/lib/auth/social', () => ({
  logoutBeforeSocialLogin: jest.fn(async () => undefined),
  startRedirect: jest.fn(async () => undefined),
}));
const logout = logoutBeforeSocialLogin as jest.Mock;
const redirect = startRedirect as jest.Mock;

beforeEach(() => {
  jest.useFakeTimers();
  jest.clearAllMocks();
});
afterEach(() => jest.useRealTimers());

describe('login modal flow (spec section 4)', () => {
  it('steps 1–3: spinner instead of the button, e-mail link hidden, logout then redirect with the follow-up', async () => {
    const onClose = jest.fn();
    let resolveRedirect: () => void = () => undefined;
    redirect.mockImplementationOnce(() => new Promise<void>((r) => (resolveRedirect = r)));
    renderWithProviders(<LoginModal onClose={onClose} href="/mylist" />);
    await act(async () => {
      fireEvent.click(screen.getByTestId('social-login'));
    });
    expect(screen.queryByTestId('social-login')).toBeNull();
    expect(screen.getByRole('status', { name: 'ログイン中' })).toBeInTheDocument();
    expect(screen.queryByTestId('email-login-link')).toBeNull();
    expect(logout).toHaveBeenCalledTimes(1);
    expect(redirect).toHaveBeenCalledWith('login', { followUp: '/mylist' });
    expect(logout.mock.invocationCallOrder[0]).toBeLessThan(redirect.mock.invocationCallOrder[0]);
    // The page is leaving for X: the modal stays with its spinner.
    await act(async () => resolveRedirect());
    expect(onClose).not.toHaveBeenCalled();
  });

  it('steps 6–7: on failure, a console log, the modal closes with no message, the spinner resets after 500 ms', async () => {
    const onClose = jest.fn();
    const log = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    redirect.mockRejectedValueOnce(Object.assign(new Error('x'), { code: 'auth/network-request-failed' }));
    const { store } = renderWithProviders(<LoginModal onClose={onClose} />);
    await act(async () => {
      fireEvent.click(screen.getByTestId('social-login'));
    });
    expect(log).toHaveBeenCalledWith('social login failed', expect.anything());
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(store.getState().user.loginErrorCode).toBe('auth/network-request-failed');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByTestId('social-login')).toBeNull();
    act(() => {
      jest.advanceTimersByTime(LOGIN_SPINNER_RESET_MS - 1);
    });
    expect(screen.queryByTestId('social-login')).toBeNull();
    act(() => {
      jest.advanceTimersByTime(1);
    });
    expect(screen.getByTestId('social-login')).toBeInTheDocument();
    expect(LOGIN_SPINNER_RESET_MS).toBe(500);
    log.mockRestore();
  });

  it('ignores a second click while running', async () => {
    redirect.mockImplementationOnce(() => new Promise(() => undefined));
    renderWithProviders(<LoginModal onClose={jest.fn()} />);
    const button = screen.getByTestId('social-login');
    await act(async () => {
      fireEvent.click(button);
      fireEvent.click(button);
    });
    expect(redirect).toHaveBeenCalledTimes(1);
  });
});
