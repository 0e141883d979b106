/**
 * What the e-mail pages say after a failure or a mail link, worded for what the page asked:
 * /email/login never tells an unknown address from a wrong password; /settings/password (and
 * /settings/email) asked for the current password only, so a wrong one is named as such;
 * /email/link-callback after a verification link asks for a login, not for "new details".
 */
import { act, fireEvent, screen } from '@testing-library/react';
import type { ReactElement } from 'react';
import { renderWithProviders } from '@/test/renderWithProviders';
import { GuardContext } from '@/components/layout/GuardContext';
import { testUser, userState } from '@/lib/mylist/testFixtures';
import type { ActionMode } from '@/lib/auth/actionCode';
import EmailLogin from '@/pages/email/login';
import EmailLinkCallback from '@/pages/email/link-callback';
import SettingsPassword from '@/pages/settings/password';
import SettingsEmail from '@/pages/settings/email';

const router = { isReady: true, query: {} as Record<string, string>, asPath: '/', pathname: '/', replace: jest.fn(() => Promise.resolve(true)), push: jest.fn() };
jest.mock('next/router', () => ({ __esModule: true, useRouter: () => router, default: { replace: jest.fn(), push: jest.fn() } }));
jest.mock('next/head', () => ({ __esModule: true, default: () => null }));

const loginWithEmail = jest.fn();
const changePassword = jest.fn();
const changeEmail = jest.fn();
jest.mock('@/lib/auth/emailAuth', () => ({
  loginWithEmail: (...a: unknown[]) => loginWithEmail(...a),
  changePassword: (...a: unknown[]) => changePassword(...a),
  changeEmail: (...a: unknown[]) => changeEmail(...a),
  registerEmailPassword: jest.fn(),
  sendPasswordReset: jest.fn(),
}));
const applyEmailAction = jest.fn();
jest.mock('@/lib/auth/actionCode', () => ({
  parseActionMode: (v: unknown) => (typeof v === 'string' ? v : null),
  applyEmailAction: (...a: unknown[]) => applyEmailAction(...a),
  checkPasswordResetCode: jest.fn(),
  resetPasswordWithCode: jest.fn(),
}));

function renderPage(ui: ReactElement, user: ReturnType<typeof testUser> | null) {
  return renderWithProviders(<GuardContext.Provider value={{ kind: 'allow' }}>{ui}</GuardContext.Provider>, { preloadedState: userState(user) });
}

function fill(label: string, value: string) {
  fireEvent.change(screen.getByLabelText(label, { exact: true }), { target: { value } });
}

async function submit() {
  await act(async () => {
    fireEvent.click(screen.getByTestId('form-submit'));
  });
}

beforeEach(() => {
  router.query = {};
  for (const m of [loginWithEmail, changePassword, changeEmail, applyEmailAction]) m.mockReset();
});

describe('/email/login', () => {
  it('an unknown address and a wrong password get the same message (an address cannot be checked for an account)', async () => {
    const shown: string[] = [];
    for (const code of ['auth/user-not-found', 'auth/wrong-password', 'auth/invalid-credential']) {
      loginWithEmail.mockResolvedValueOnce({ result: false, code });
      const { unmount } = renderPage(<EmailLogin />, null);
      fill('メールアドレス', 'nobody@example.com');
      fill('パスワード', 'secret-1');
      await submit();
      shown.push(screen.getByTestId('form-error').textContent ?? '');
      unmount();
    }
    expect(shown).toEqual(Array(3).fill('メールアドレスまたはパスワードが正しくありません。'));
    expect(shown.join()).not.toMatch(/見つかりません/);
  });
});

describe('/settings/password and /settings/email', () => {
  it('a wrong current password is named as the current password, not an address', async () => {
    for (const code of ['auth/wrong-password', 'auth/invalid-credential', 'auth/invalid-login-credentials']) {
      changePassword.mockResolvedValueOnce({ result: false, code });
      const { unmount } = renderPage(<SettingsPassword />, testUser());
      fill('現在のパスワード', 'wrong-pass');
      fill('新しいパスワード', 'new-pass-1');
      fill('新しいパスワード（確認）', 'new-pass-1');
      await submit();
      expect(changePassword).toHaveBeenLastCalledWith('wrong-pass', 'new-pass-1');
      expect(screen.getByTestId('form-error')).toHaveTextContent(/^現在のパスワードが正しくありません。$/);
      unmount();
    }
  });

  it('the e-mail change (also behind the current password) says the same', async () => {
    changeEmail.mockResolvedValueOnce({ result: false, code: 'auth/wrong-password' });
    renderPage(<SettingsEmail />, testUser());
    fill('新しいメールアドレス', 'next@example.com');
    fill('現在のパスワード', 'wrong-pass');
    await submit();
    expect(changeEmail).toHaveBeenCalledWith('wrong-pass', 'next@example.com');
    expect(screen.getByTestId('form-error')).toHaveTextContent(/^現在のパスワードが正しくありません。$/);
  });

  it('other failures keep their own message', async () => {
    changePassword.mockResolvedValueOnce({ result: false, code: 'auth/too-many-requests' });
    renderPage(<SettingsPassword />, testUser());
    fill('現在のパスワード', 'wrong-pass');
    fill('新しいパスワード', 'new-pass-1');
    fill('新しいパスワード（確認）', 'new-pass-1');
    await submit();
    expect(screen.getByTestId('form-error')).toHaveTextContent('試行回数が多すぎます');
  });
});

describe('/email/link-callback', () => {
  let n = 0;
  async function openLink(mode: ActionMode, user: ReturnType<typeof testUser> | null) {
    router.query = { mode, oobCode: `code${mode}${++n}` };
    await act(async () => {
      renderPage(<EmailLinkCallback />, user);
    });
    return screen.getByTestId('link-success');
  }

  it('a verified address asks for a login, without the wording of an address change', async () => {
    applyEmailAction.mockResolvedValue({ result: true, email: 'yume@example.com', previousEmail: null, signedOut: false });
    const message = await openLink('verifyEmail', null);
    expect(message).toHaveTextContent('メールアドレス（yume@example.com）の確認が完了しました。 ログインしてください。');
    expect(message).not.toHaveTextContent('新しい情報');
    expect(screen.getByTestId('link-continue')).toHaveAttribute('href', '/email/login');
  });

  it('a changed or restored address still asks for a login with the new details', async () => {
    applyEmailAction.mockResolvedValue({ result: true, email: 'next@example.com', previousEmail: 'yume@example.com', signedOut: true });
    expect(await openLink('verifyAndChangeEmail', testUser())).toHaveTextContent('メールアドレスを next@example.com に変更しました。 新しい情報でログインしてください。');
  });
});
