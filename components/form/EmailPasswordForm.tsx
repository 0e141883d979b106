import { useState, type FormEvent, type ReactNode } from 'react';
import { Button } from '@/components/ui/Button';
import { Spinner } from '@/components/ui/Spinner';
import { Field, FormMessage } from './Field';
import { validateEmail, validatePassword } from '@/lib/auth/validation';
import { authMessage } from '@/lib/auth/messages';
import type { AuthResult } from '@/lib/auth/result';

interface Props {
  submitLabel: string;
  withPassword?: boolean;
  onSubmit: (email: string, password: string) => Promise<AuthResult>;
  onSuccess: () => void;
  footer?: ReactNode;
  passwordAutoComplete?: 'current-password' | 'new-password';
}

/** The e-mail (+ password) form shared by log in, sign up and reset. */
export function EmailPasswordForm({ submitLabel, withPassword = true, onSubmit, onSuccess, footer, passwordAutoComplete = 'current-password' }: Props) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ email?: string | null; password?: string | null }>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const next = { email: validateEmail(email), password: withPassword ? validatePassword(password) : null };
    setErrors(next);
    setFailure(null);
    if (next.email || next.password) return;
    setBusy(true);
    const res = await onSubmit(email, password);
    setBusy(false);
    if (res.result) onSuccess();
    else setFailure(res.code);
  }

  return (
    <form onSubmit={submit} noValidate>
      {failure && (
        <FormMessage $kind="error" role="alert" data-testid="form-error">
          {authMessage(failure)}
        </FormMessage>
      )}
      <Field label="メールアドレス" type="email" name="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} error={errors.email} />
      {withPassword && (
        <Field
          label="パスワード"
          type="password"
          name="password"
          autoComplete={passwordAutoComplete}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={errors.password}
        />
      )}
      <Button type="submit" $variant="primary" $size="large" $block disabled={busy}>
        {busy ? <Spinner size="small" label="送信中" /> : submitLabel}
      </Button>
      {footer}
    </form>
  );
}
