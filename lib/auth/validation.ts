/** Form checks done before calling the provider, with Japanese messages. */
export const MIN_PASSWORD_LENGTH = 6; // the authentication provider's rule (spec section 5)
export const MAX_PASSWORD_LENGTH = 128;
export const MAX_DISPLAY_NAME_LENGTH = 50;

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * An e-mail address as typed, made what the forms check and send: trimmed, and full-width
 * characters made half-width (NFKC), since a Japanese keyboard left in its full-width mode types
 * ｔａｒｏ＠ｅｘａｍｐｌｅ．ｊｐ for taro@example.jp (and an ideographic space at either end).
 */
export function cleanEmailInput(email: string): string {
  return email.normalize('NFKC').trim();
}

export function validateEmail(email: string): string | null {
  const v = cleanEmailInput(email);
  if (!v) return 'メールアドレスを入力してください。';
  if (v.length > 254 || !EMAIL_RE.test(v)) return 'メールアドレスの形式が正しくありません。';
  return null;
}

export function validatePassword(password: string): string | null {
  if (!password) return 'パスワードを入力してください。';
  if (password.length < MIN_PASSWORD_LENGTH) return `パスワードは${MIN_PASSWORD_LENGTH}文字以上で入力してください。`;
  if (password.length > MAX_PASSWORD_LENGTH) return `パスワードは${MAX_PASSWORD_LENGTH}文字以内で入力してください。`;
  return null;
}

/** The current password only has to be present: the provider decides whether it is right. */
export function validateCurrentPassword(password: string): string | null {
  return password ? null : '現在のパスワードを入力してください。';
}

export function validatePasswordConfirmation(password: string, confirmation: string): string | null {
  if (!confirmation) return '確認のため、もう一度パスワードを入力してください。';
  return password === confirmation ? null : '確認用のパスワードが一致しません。';
}

export function validateDisplayName(name: string): string | null {
  const v = name.trim();
  if (!v) return '表示名を入力してください。';
  if (Array.from(v).length > MAX_DISPLAY_NAME_LENGTH) return `表示名は${MAX_DISPLAY_NAME_LENGTH}文字以内で入力してください。`;
  if (/[\u0000-\u001f\u007f<>]/.test(v)) return '表示名に使えない文字が含まれています。';
  return null;
}

/** An X handle: 1–15 letters, digits or underscores (X's own rule). */
export function validateScreenName(handle: string): string | null {
  const v = handle.trim().replace(/^@/, '');
  if (!v) return 'ユーザー名を入力してください。';
  if (!/^[A-Za-z0-9_]{1,15}$/.test(v)) return 'ユーザー名は半角英数字とアンダースコア（_）の15文字以内で入力してください。';
  return null;
}
