import { useState, type FormEvent, type ReactNode } from 'react';
import { Button } from '@/components/ui/Button';
import { Spinner } from '@/components/ui/Spinner';
import { Field } from './Field';
import { AuthError } from './AuthError';
import { cleanEmailInput, validateEmail, validatePassword, validatePasswordConfirmation } from '@/lib/auth/validation';
import type { AuthResult } from '@/lib/auth/result';
import type { AuthMessageContext } from '@/lib/auth/messages';
import { REDIRECTING } from '@/lib/auth/codes';

interface Props {
  submitLabel: string;
  withPassword?: boolean;
  /** Ask for the password twice (sign-up, new passwords). */
  confirmPassword?: boolean;
  initialEmail?: string;
  onSubmit: (email: string, password: string) => Promise<AuthResult>;
  onSuccess: (email: string) => void;
  /** Told about every failure code (e.g. to store it as loginErrorCode). */
  onFailure?: (code: string) => void;
  footer?: ReactNode;
  passwordAutoComplete?: 'current-password' | 'new-password';
  passwordLabel?: string;
  /** How failures are worded (`login`: an unknown address reads as a wrong password). */
  messageContext?: AuthMessageContext;
}

/** The e-mail (+ password) form shared by log in, sign up, reset and registration. */
export function EmailPasswordForm({
  submitLabel,
  withPassword = true,
  confirmPassword = false,
  initialEmail = '',
  onSubmit,
  onSuccess,
  onFailure,
  footer,
  passwordAutoComplete = 'current-password',
  passwordLabel = 'パスワード',
  messageContext,
}: Props) {
  const [email, setEmail] = useState(initialEmail);
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [errors, setErrors] = useState<{ email?: string | null; password?: string | null; confirmation?: string | null }>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (busy) return;
    const next = {
      email: validateEmail(email),
      password: withPassword ? validatePassword(password) : null,
      confirmation: withPassword && confirmPassword ? validatePasswordConfirmation(password, confirmation) : null,
    };
    setErrors(next);
    setFailure(null);
    if (next.email || next.password || next.confirmation) return;
    setBusy(true);
    const address = cleanEmailInput(email);
    const res = await onSubmit(address, password);
    if (!res.result && res.code === REDIRECTING) return; // the page is leaving for the re-login
    setBusy(false);
    if (res.result) onSuccess(address);
    else {
      setFailure(res.code);
      onFailure?.(res.code);
    }
  }

  return (
    <form onSubmit={submit} noValidate>
      <AuthError code={failure} email={email} context={messageContext} />
      <Field
        label="メールアドレス"
        type="email"
        name="email"
        autoComplete="email"
        inputMode="email"
        value={email}
        onChange={(e) => setEmail(e.target.value)}
        error={errors.email}
      />
      {withPassword && (
        <Field
          label={passwordLabel}
          type="password"
          name="password"
          autoComplete={passwordAutoComplete}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={errors.password}
        />
      )}
      {withPassword && confirmPassword && (
        <Field
          label={`${passwordLabel}（確認）`}
          type="password"
          name="password-confirmation"
          autoComplete="new-password"
          value={confirmation}
          onChange={(e) => setConfirmation(e.target.value)}
          error={errors.confirmation}
        />
      )}
      <Button type="submit" $variant="primary" $size="large" $block disabled={busy} data-testid="form-submit">
        {busy ? <Spinner size="small" label="送信中" /> : submitLabel}
      </Button>
      {footer}
    </form>
  );
}
