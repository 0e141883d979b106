import { authMessage } from '@/lib/auth/messages';
import { FormMessage } from './Field';
import { MailboxHint } from './MailboxHint';

/** The Japanese message of an auth error code; a re-sent mail also points to the mailbox. */
export function AuthError({ code, email }: { code: string | null; email?: string | null }) {
  if (!code) return null;
  return (
    <FormMessage $kind="error" role="alert" data-testid="form-error" data-code={code}>
      {authMessage(code)}
      {code === 'notEmailVerified' && <MailboxHint email={email} />}
    </FormMessage>
  );
}
