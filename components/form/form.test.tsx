import { act, fireEvent, screen } from '@testing-library/react';
import { renderWithProviders } from '@/test/renderWithProviders';
import { EmailPasswordForm } from './EmailPasswordForm';
import { CredentialForm } from './PasswordFields';
import { MailboxHint, mailboxHref } from './MailboxHint';

function fill(label: string, value: string) {
  fireEvent.change(screen.getByLabelText(label, { exact: true }), { target: { value } });
}

describe('EmailPasswordForm', () => {
  it('validates in Japanese before calling the provider', async () => {
    const onSubmit = jest.fn(async () => ({ result: true as const }));
    renderWithProviders(<EmailPasswordForm submitLabel="登録する" confirmPassword onSubmit={onSubmit} onSuccess={jest.fn()} />);
    await act(async () => {
      fireEvent.click(screen.getByTestId('form-submit'));
    });
    expect(screen.getByText('メールアドレスを入力してください。')).toBeInTheDocument();
    expect(screen.getByText('パスワードを入力してください。')).toBeInTheDocument();
    fill('メールアドレス', 'not-an-email');
    fill('パスワード', '12345');
    fill('パスワード（確認）', '123456');
    await act(async () => {
      fireEvent.click(screen.getByTestId('form-submit'));
    });
    expect(screen.getByText('メールアドレスの形式が正しくありません。')).toBeInTheDocument();
    expect(screen.getByText('パスワードは6文字以上で入力してください。')).toBeInTheDocument();
    expect(screen.getByText('確認用のパスワードが一致しません。')).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('takes an address typed in full-width characters as its half-width self', async () => {
    const onSubmit = jest.fn(async () => ({ result: true as const }));
    const onSuccess = jest.fn();
    renderWithProviders(<EmailPasswordForm submitLabel="登録する" confirmPassword onSubmit={onSubmit} onSuccess={onSuccess} />);
    fill('メールアドレス', '\u3000ｔａｒｏ＠ｅｘａｍｐｌｅ．ｊｐ ');
    fill('パスワード', 'abcdef1');
    fill('パスワード（確認）', 'abcdef1');
    await act(async () => {
      fireEvent.click(screen.getByTestId('form-submit'));
    });
    expect(screen.queryByText('メールアドレスの形式が正しくありません。')).not.toBeInTheDocument();
    expect(onSubmit).toHaveBeenCalledWith('taro@example.jp', 'abcdef1');
    expect(onSuccess).toHaveBeenCalledWith('taro@example.jp');
  });

  it('shows the provider error in Japanese and reports it', async () => {
    const onFailure = jest.fn();
    renderWithProviders(
      <EmailPasswordForm submitLabel="ログイン" onSubmit={async () => ({ result: false, code: 'auth/wrong-password' })} onSuccess={jest.fn()} onFailure={onFailure} />,
    );
    fill('メールアドレス', ' a@example.com ');
    fill('パスワード', 'secret-1');
    await act(async () => {
      fireEvent.click(screen.getByTestId('form-submit'));
    });
    expect(screen.getByTestId('form-error')).toHaveTextContent('メールアドレスまたはパスワードが正しくありません。');
    expect(onFailure).toHaveBeenCalledWith('auth/wrong-password');
  });

  it('points to the mailbox when the verification mail was re-sent (local mode)', async () => {
    renderWithProviders(<EmailPasswordForm submitLabel="ログイン" onSubmit={async () => ({ result: false, code: 'notEmailVerified' })} onSuccess={jest.fn()} />);
    fill('メールアドレス', 'a@example.com');
    fill('パスワード', 'secret-1');
    await act(async () => {
      fireEvent.click(screen.getByTestId('form-submit'));
    });
    expect(screen.getByTestId('mailbox-link')).toHaveAttribute('href', '/dev/mailbox?email=a%40example.com');
  });
});

describe('CredentialForm', () => {
  it('asks for the current password and a new one twice, different from the current', async () => {
    const onSubmit = jest.fn(async () => ({ result: true as const }));
    const onSuccess = jest.fn();
    renderWithProviders(<CredentialForm fields={{ current: true, newPassword: true }} submitLabel="変更" onSubmit={onSubmit} onSuccess={onSuccess} />);
    fill('現在のパスワード', 'same-pass');
    fill('新しいパスワード', 'same-pass');
    fill('新しいパスワード（確認）', 'same-pass');
    await act(async () => {
      fireEvent.click(screen.getByTestId('form-submit'));
    });
    expect(screen.getByText('現在のパスワードとは別のパスワードを入力してください。')).toBeInTheDocument();
    fill('新しいパスワード', 'new-pass-1');
    fill('新しいパスワード（確認）', 'new-pass-1');
    await act(async () => {
      fireEvent.click(screen.getByTestId('form-submit'));
    });
    expect(onSubmit).toHaveBeenCalledWith({ currentPassword: 'same-pass', newPassword: 'new-pass-1', newEmail: '' });
    expect(onSuccess).toHaveBeenCalled();
  });
});

describe('MailboxHint', () => {
  it('links to the local mailbox, filtered by address', () => {
    renderWithProviders(<MailboxHint email="a+b@example.com" />);
    expect(screen.getByTestId('mailbox-link')).toHaveAttribute('href', mailboxHref('a+b@example.com'));
    expect(mailboxHref('a+b@example.com')).toBe('/dev/mailbox?email=a%2Bb%40example.com');
  });
});
