/**
 * The local mailbox (local mode only): the mails the Auth emulator would have sent, read from
 * its `GET /emulator/v1/projects/{project}/oobCodes`, with links that open OUR pages the way a
 * custom action handler does in production:
 * - verifyEmail / verifyAndChangeEmail / recoverEmail / resetPassword → /email/link-callback;
 * - signIn → its continueUrl (/purchase/link-callback) with mode, oobCode and apiKey, so that
 *   isSignInWithEmailLink accepts it.
 * Only paths of this site are ever produced, whatever the emulator holds.
 */
export interface EmulatorOobCode {
  email: string;
  newEmail?: string;
  requestType: string;
  oobCode: string;
  oobLink: string;
}

export type MailKind = 'verifyEmail' | 'verifyAndChangeEmail' | 'recoverEmail' | 'resetPassword' | 'signIn';

export interface Mail {
  kind: MailKind;
  /** The address the mail goes to. */
  to: string;
  subject: string;
  body: string;
  /** Same-origin path the mail's button opens. */
  href: string;
  buttonLabel: string;
}

const KINDS: Record<string, MailKind> = {
  VERIFY_EMAIL: 'verifyEmail',
  VERIFY_AND_CHANGE_EMAIL: 'verifyAndChangeEmail',
  RECOVER_EMAIL: 'recoverEmail',
  PASSWORD_RESET: 'resetPassword',
  EMAIL_SIGNIN: 'signIn',
};

const SIGN_IN_CALLBACK = '/purchase/link-callback';

/** The path (and query) of a continueUrl when it points to this site and to `expectedPath`. */
function continuePathOf(oobLink: string, siteUrl: string, expectedPath: string): string | null {
  try {
    const raw = new URL(oobLink).searchParams.get('continueUrl');
    if (!raw) return null;
    const site = new URL(siteUrl);
    const u = new URL(raw, site);
    if (u.origin !== site.origin && !(u.hostname === site.hostname && u.port === site.port)) return null;
    if (u.pathname !== expectedPath) return null;
    return `${u.pathname}${u.search}`;
  } catch {
    return null;
  }
}

export function mailFromOobCode(oob: EmulatorOobCode, siteUrl: string, apiKey: string): Mail | null {
  const kind = KINDS[oob.requestType];
  if (!kind || typeof oob.oobCode !== 'string' || !/^[A-Za-z0-9_-]+$/.test(oob.oobCode)) return null;
  const code = encodeURIComponent(oob.oobCode);
  const key = encodeURIComponent(apiKey);
  if (kind === 'signIn') {
    const base = continuePathOf(oob.oobLink, siteUrl, SIGN_IN_CALLBACK) ?? SIGN_IN_CALLBACK;
    const href = `${base}${base.includes('?') ? '&' : '?'}mode=signIn&oobCode=${code}&apiKey=${key}&lang=ja`;
    return {
      kind,
      to: oob.email,
      subject: '【ユメキャスト】ログイン用リンク',
      body: `${oob.email} でユメキャストにログインするには、次のボタンを押してください。リンクを送ったのと同じ端末・ブラウザで開いてください。`,
      href,
      buttonLabel: 'ログインする',
    };
  }
  const href = `/email/link-callback?mode=${kind}&oobCode=${code}&apiKey=${key}&lang=ja`;
  switch (kind) {
    case 'verifyEmail':
      return { kind, to: oob.email, subject: '【ユメキャスト】メールアドレスの確認', body: `${oob.email} がご本人のものであることを確認するため、次のボタンを押してください。`, href, buttonLabel: 'メールアドレスを確認する' };
    case 'verifyAndChangeEmail':
      return {
        kind,
        to: oob.newEmail ?? oob.email,
        subject: '【ユメキャスト】メールアドレス変更の確認',
        body: `ログイン用メールアドレスを ${oob.email} から ${oob.newEmail ?? ''} に変更するには、次のボタンを押してください。`,
        href,
        buttonLabel: 'メールアドレスを変更する',
      };
    case 'recoverEmail':
      return { kind, to: oob.email, subject: '【ユメキャスト】メールアドレスが変更されました', body: `ログイン用メールアドレスが変更されました。お心当たりがない場合は、次のボタンで ${oob.email} に戻せます。`, href, buttonLabel: 'メールアドレスを元に戻す' };
    case 'resetPassword':
      return { kind, to: oob.email, subject: '【ユメキャスト】パスワードの再設定', body: `${oob.email} のパスワードを再設定するには、次のボタンを押してください。お心当たりがない場合は、このメールを無視してください。`, href, buttonLabel: 'パスワードを再設定する' };
  }
  return null;
}

/** Newest first; optionally only the mails to `email` (case-insensitive). */
export function mailsFromOobCodes(codes: unknown, siteUrl: string, apiKey: string, email?: string | null): Mail[] {
  if (!Array.isArray(codes)) return [];
  const want = email?.trim().toLowerCase() || null;
  const mails: Mail[] = [];
  for (const c of codes) {
    if (!c || typeof c !== 'object') continue;
    const mail = mailFromOobCode(c as EmulatorOobCode, siteUrl, apiKey);
    if (!mail) continue;
    const o = c as EmulatorOobCode;
    if (want && o.email?.toLowerCase() !== want && o.newEmail?.toLowerCase() !== want) continue;
    mails.push(mail);
  }
  return mails.reverse();
}
