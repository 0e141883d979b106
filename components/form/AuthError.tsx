import { authMessage, type AuthMessageContext } from '@/lib/auth/messages';
import { FormMessage } from './Field';
import { MailboxHint } from './MailboxHint';

/**
 * The Japanese message of an auth error code (worded for the form's `context` when given); a
 * re-sent mail also points to the mailbox.
 */
export function AuthError({ code, email, context }: { code: string | null; email?: string | null; context?: AuthMessageContext }) {
  if (!code) return null;
  return (
    <FormMessage $kind="error" role="alert" data-testid="form-error" data-code={code}>
      {authMessage(code, context)}
      {code === 'notEmailVerified' && <MailboxHint email={email} />}
    </FormMessage>
  );
}
