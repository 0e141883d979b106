import { isLocalMode } from '@/lib/config';

/** In local mode mails go nowhere: point to the local mailbox page (accounts issue). */
export function MailboxHint() {
  if (!isLocalMode) return null;
  return (
    <>
      <br />
      ローカル環境では、送信されたメールを <a href="/dev/mailbox">ローカルメールボックス</a> で確認できます。
    </>
  );
}
