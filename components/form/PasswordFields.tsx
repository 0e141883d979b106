import { useState, type FormEvent, type ReactNode } from 'react';
import { Button } from '@/components/ui/Button';
import { Spinner } from '@/components/ui/Spinner';
import { Field } from './Field';
import { AuthError } from './AuthError';
import { cleanEmailInput, validateCurrentPassword, validateEmail, validatePassword, validatePasswordConfirmation } from '@/lib/auth/validation';
import type { AuthResult } from '@/lib/auth/result';

/** Fields a settings form may ask for. */
export interface CredentialValues {
  currentPassword: string;
  newPassword: string;
  newEmail: string;
}

interface Props {
  /** Which fields to show: current password, new password (+ confirmation), new e-mail. */
  fields: { current?: boolean; newPassword?: boolean; newEmail?: boolean };
  submitLabel: string;
  onSubmit: (values: CredentialValues) => Promise<AuthResult>;
  onSuccess: (values: CredentialValues) => void;
  footer?: ReactNode;
}

/**
 * Password change, e-mail change and password reset forms: the current password (spec
 * section 5, re-authentication first), a new password twice, or a new e-mail.
 */
export function CredentialForm({ fields, submitLabel, onSubmit, onSuccess, footer }: Props) {
  const [values, setValues] = useState<CredentialValues>({ currentPassword: '', newPassword: '', newEmail: '' });
  const [confirmation, setConfirmation] = useState('');
  const [errors, setErrors] = useState<Record<string, string | null>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const set = (k: keyof CredentialValues) => (e: { target: { value: string } }) => setValues((v) => ({ ...v, [k]: e.target.value }));

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (busy) return;
    const next: Record<string, string | null> = {
      newEmail: fields.newEmail ? validateEmail(values.newEmail) : null,
      current: fields.current ? validateCurrentPassword(values.currentPassword) : null,
      newPassword: fields.newPassword ? validatePassword(values.newPassword) : null,
      confirmation: fields.newPassword ? validatePasswordConfirmation(values.newPassword, confirmation) : null,
    };
    if (fields.newPassword && fields.current && !next.newPassword && values.newPassword === values.currentPassword) {
      next.newPassword = '現在のパスワードとは別のパスワードを入力してください。';
    }
    setErrors(next);
    setFailure(null);
    if (Object.values(next).some(Boolean)) return;
    setBusy(true);
    const submitted = { ...values, newEmail: cleanEmailInput(values.newEmail) };
    const res = await onSubmit(submitted);
    setBusy(false);
    if (res.result) onSuccess(submitted);
    else setFailure(res.code);
  }

  return (
    <form onSubmit={submit} noValidate>
      {/* With the current password asked for, a wrong credential is that password (no address was asked). */}
      <AuthError code={failure} context={fields.current ? 'currentPassword' : undefined} />
      {fields.newEmail && (
        <Field label="新しいメールアドレス" type="email" name="new-email" autoComplete="email" inputMode="email" value={values.newEmail} onChange={set('newEmail')} error={errors.newEmail} />
      )}
      {fields.current && (
        <Field
          label="現在のパスワード"
          type="password"
          name="current-password"
          autoComplete="current-password"
          value={values.currentPassword}
          onChange={set('currentPassword')}
          error={errors.current}
        />
      )}
      {fields.newPassword && (
        <>
          <Field
            label="新しいパスワード"
            type="password"
            name="new-password"
            autoComplete="new-password"
            value={values.newPassword}
            onChange={set('newPassword')}
            error={errors.newPassword}
          />
          <Field
            label="新しいパスワード（確認）"
            type="password"
            name="new-password-confirmation"
            autoComplete="new-password"
            value={confirmation}
            onChange={(e) => setConfirmation(e.target.value)}
            error={errors.confirmation}
          />
        </>
      )}
      <Button type="submit" $variant="primary" $size="large" $block disabled={busy} data-testid="form-submit">
        {busy ? <Spinner size="small" label="送信中" /> : submitLabel}
      </Button>
      {footer}
    </form>
  );
}
