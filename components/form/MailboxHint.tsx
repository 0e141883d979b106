import { isLocalMode } from '@/lib/config';

/** The local mailbox page (local mode only): every mail the Auth emulator would have sent. */
export const MAILBOX_PATH = '/dev/mailbox';

export function mailboxHref(email?: string | null): string {
  return email ? `${MAILBOX_PATH}?email=${encodeURIComponent(email.trim())}` : MAILBOX_PATH;
}

/** In local mode mails go nowhere: point to the local mailbox page. */
export function MailboxHint({ email }: { email?: string | null }) {
  if (!isLocalMode) return null;
  return (
    <>
      <br />
      ローカル環境では、送信されたメールを{' '}
      <a href={mailboxHref(email)} data-testid="mailbox-link">
        ローカルメールボックス
      </a>{' '}
      で確認できます。
    </>
  );
}
