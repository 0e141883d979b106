/** Form checks done before calling the provider, with Japanese messages. */
export const MIN_PASSWORD_LENGTH = 6; // the authentication provider's rule (spec section 5)

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function validateEmail(email: string): string | null {
  const v = email.trim();
  if (!v) return 'メールアドレスを入力してください。';
  if (v.length > 254 || !EMAIL_RE.test(v)) return 'メールアドレスの形式が正しくありません。';
  return null;
}

export function validatePassword(password: string): string | null {
  if (!password) return 'パスワードを入力してください。';
  if (password.length < MIN_PASSWORD_LENGTH) return `パスワードは${MIN_PASSWORD_LENGTH}文字以上で入力してください。`;
  if (password.length > 128) return 'パスワードは128文字以内で入力してください。';
  return null;
}
