/**
 * /email/link-callback when the link cannot be used (used, expired, foreign, unknown kind): the
 * way out fits the link's kind. A verification link leads to the login (which sends a new
 * confirmation mail), a reset link to a new reset mail, and no other kind offers a password reset.
 */
import { act, screen } from '@testing-library/react';
import { renderWithProviders } from '@/test/renderWithProviders';
import { GuardContext } from '@/components/layout/GuardContext';
import { userState } from '@/lib/mylist/testFixtures';
import EmailLinkCallback from '@/pages/email/link-callback';

const router = { isReady: true, query: {} as Record<string, string>, asPath: '/', pathname: '/email/link-callback', replace: jest.fn(() => Promise.resolve(true)), push: jest.fn() };
jest.mock('next/router', () => ({ __esModule: true, useRouter: () => router, default: { replace: jest.fn(), push: jest.fn() } }));
jest.mock('next/head', () => ({ __esModule: true, default: () => null }));

const applyEmailAction = jest.fn();
const checkPasswordResetCode = jest.fn();
jest.mock('@/lib/auth/actionCode', () => ({
  parseActionMode: (v: unknown) => (typeof v === 'string' && ['verifyEmail', 'verifyAndChangeEmail', 'recoverEmail', 'resetPassword', 'signIn'].includes(v) ? v : null),
  applyEmailAction: (...a: unknown[]) => applyEmailAction(...a),
  checkPasswordResetCode: (...a: unknown[]) => checkPasswordResetCode(...a),
  resetPasswordWithCode: jest.fn(),
}));

const RESEND_RESET = 'パスワード再設定メールを送り直す';
let n = 0;

async function openUsedLink(mode: string) {
  router.query = { mode, oobCode: `usedCode${++n}` };
  await act(async () => {
    renderWithProviders(
      <GuardContext.Provider value={{ kind: 'allow' }}>
        <EmailLinkCallback />
      </GuardContext.Provider>,
      { preloadedState: userState(null) },
    );
  });
  expect(screen.getByTestId('link-error')).toBeInTheDocument();
}

beforeEach(() => {
  applyEmailAction.mockReset().mockResolvedValue({ result: false, code: 'auth/invalid-action-code' });
  checkPasswordResetCode.mockReset().mockResolvedValue({ result: false, code: 'auth/invalid-action-code' });
});

describe('/email/link-callback, a link that cannot be used', () => {
  it('verifyEmail: leads to the login, which sends a new confirmation mail; no password reset', async () => {
    await openUsedLink('verifyEmail');
    expect(screen.getByTestId('link-error-hint')).toHaveTextContent('ログインすると、確認メールがもう一度送信されます。');
    expect(screen.getByTestId('link-error-hint')).toHaveTextContent('すでに確認が済んでいる場合は、そのままログインできます。');
    expect(screen.getByRole('link', { name: 'ログイン画面へ' })).toHaveAttribute('href', '/email/login');
    expect(screen.queryByText(RESEND_RESET)).toBeNull();
    expect(screen.queryByRole('link', { name: RESEND_RESET })).toBeNull();
  });

  it('resetPassword: offers a new reset mail and the login', async () => {
    await openUsedLink('resetPassword');
    expect(screen.getByRole('link', { name: RESEND_RESET })).toHaveAttribute('href', '/email/password/reset');
    expect(screen.getByRole('link', { name: 'ログイン画面へ' })).toHaveAttribute('href', '/email/login');
    expect(screen.queryByTestId('link-error-hint')).toBeNull();
  });

  it('verifyAndChangeEmail: the login leads on to the e-mail settings to ask again; no password reset', async () => {
    await openUsedLink('verifyAndChangeEmail');
    expect(screen.getByTestId('link-error-hint')).toHaveTextContent('アカウント設定でもう一度お手続きください');
    expect(screen.getByTestId('link-error-hint')).toHaveTextContent('新しいメールアドレスでログインできます');
    expect(screen.getByRole('link', { name: 'ログイン画面へ' })).toHaveAttribute('href', '/email/login?next=%2Fsettings%2Femail');
    expect(screen.queryByRole('link', { name: RESEND_RESET })).toBeNull();
  });

  it('recoverEmail: leads to the login with the original address; no password reset', async () => {
    await openUsedLink('recoverEmail');
    expect(screen.getByTestId('link-error-hint')).toHaveTextContent('元のメールアドレスでログインできます');
    expect(screen.getByRole('link', { name: 'ログイン画面へ' })).toHaveAttribute('href', '/email/login');
    expect(screen.queryByRole('link', { name: RESEND_RESET })).toBeNull();
  });

  it('an unknown kind of link: only the login', async () => {
    await openUsedLink('somethingElse');
    expect(screen.getByTestId('link-error')).toHaveAttribute('data-code', 'auth/invalid-action-mode');
    expect(screen.getByRole('link', { name: 'ログイン画面へ' })).toHaveAttribute('href', '/email/login');
    expect(screen.queryByRole('link', { name: RESEND_RESET })).toBeNull();
  });

  it('a sign-in link is handed to the purchase callback, not answered here', async () => {
    router.query = { mode: 'signIn', oobCode: 'signInCode1' };
    await act(async () => {
      renderWithProviders(<EmailLinkCallback />, { preloadedState: userState(null) });
    });
    expect(router.replace).toHaveBeenCalledWith(expect.objectContaining({ pathname: '/purchase/link-callback' }));
    expect(screen.queryByRole('link', { name: RESEND_RESET })).toBeNull();
  });
});
