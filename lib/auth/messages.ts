/**
 * Japanese messages for the provider's error codes and our product errors (spec section 8).
 * Anything unknown gets a generic message: a user never sees a raw code or a stack trace.
 * A form may name its context, where the same code means something narrower: the login form
 * never tells an unknown address from a wrong password (an address cannot be checked for an
 * account), and a re-authentication asks for the current password only (no address).
 */
const WRONG_CREDENTIALS = 'メールアドレスまたはパスワードが正しくありません。';
const WRONG_CURRENT_PASSWORD = '現在のパスワードが正しくありません。';
const LINK_INVALID = 'このリンクは無効か、すでに使用されています。お手数ですが、もう一度メールを送信してください。';

const MESSAGES: Record<string, string> = {
  // Product errors
  notEmailVerified: 'メールアドレスの確認が完了していません。確認メールを再送しましたので、メール内のリンクを開いてからログインしてください。',
  'user error': 'アカウント情報を確認できませんでした。もう一度ログインしてください。',
  'userCredential does not exist': 'ログインできませんでした。もう一度お試しください。',
  'not user': 'この操作にはログインが必要です。',
  'currentUser does not exist': 'ログインの有効期限が切れました。もう一度ログインしてください。',
  'No email link': 'ログイン用リンクを確認できませんでした。リンクを送ったのと同じ端末・ブラウザで開くか、もう一度メールを送信してください。',
  '401': 'ログインが必要です。ページを再読み込みしてから、もう一度お試しください。',
  'Cannot get user token': 'ログイン情報を確認できませんでした。ページを再読み込みしてください。',
  sameEmail: '現在と同じメールアドレスです。別のメールアドレスを入力してください。',
  passwordMismatch: '確認用のパスワードが一致しません。',
  passwordAgain: 'X（Twitter）で再ログインしました。お手数ですが、もう一度パスワードを入力して登録を完了してください。',
  redirecting: 'X（Twitter）のログイン画面へ移動しています…',
  timeout: '通信がタイムアウトしました。ネットワーク接続を確認してもう一度お試しください。',

  // Credentials
  'auth/wrong-password': WRONG_CREDENTIALS,
  'auth/invalid-credential': WRONG_CREDENTIALS,
  'auth/invalid-login-credentials': WRONG_CREDENTIALS,
  'auth/invalid-password': 'パスワードは6文字以上で入力してください。',
  'auth/user-not-found': 'このメールアドレスのアカウントは見つかりませんでした。メールアドレスをご確認いただくか、新規登録してください。',
  'auth/user-disabled': 'このアカウントは利用停止されています。サポートまでお問い合わせください。',
  'auth/weak-password': 'パスワードが弱すぎます。6文字以上で、推測されにくいものにしてください。',
  'auth/missing-password': 'パスワードを入力してください。',
  'auth/invalid-email': 'メールアドレスの形式が正しくありません。',
  'auth/missing-email': 'メールアドレスを入力してください。',
  'auth/email-already-in-use': 'このメールアドレスはすでに登録されています。ログインしてください。',
  'auth/email-already-exists': 'このメールアドレスはすでに登録されています。ログインしてください。',
  'auth/user-mismatch': 'ログイン中のアカウントと異なるアカウントで認証されました。ログイン中のアカウントで認証してください。',
  'auth/requires-recent-login': '安全のため、もう一度ログインしてからお試しください。',
  'auth/user-token-expired': 'ログインの有効期限が切れました。もう一度ログインしてください。',
  'auth/invalid-user-token': 'ログインの有効期限が切れました。もう一度ログインしてください。',
  'auth/too-many-requests': '試行回数が多すぎます。しばらく時間をおいてからもう一度お試しください。',
  'auth/quota-exceeded': 'ただいま混み合っています。しばらく時間をおいてからもう一度お試しください。',
  'auth/operation-not-allowed': 'このログイン方法は現在ご利用いただけません。',
  'auth/admin-restricted-operation': 'この操作は現在ご利用いただけません。',
  'auth/email-change-needs-verification': '新しいメールアドレスの確認が必要です。届いたメールのリンクを開いてください。',

  // Linking and social login
  'auth/credential-already-in-use': 'このアカウントはすでに別のユーザーと連携されています。',
  'auth/provider-already-linked': 'このログイン方法はすでに連携済みです。',
  'auth/account-exists-with-different-credential': 'このメールアドレスは別のログイン方法で登録されています。登録済みの方法でログインしてください。',
  'auth/popup-closed-by-user': 'ログインがキャンセルされました。',
  'auth/redirect-cancelled-by-user': 'ログインがキャンセルされました。',
  'auth/user-cancelled': 'ログインがキャンセルされました。',
  'auth/popup-blocked': 'ログイン画面を開けませんでした。ブラウザの設定をご確認ください。',
  'auth/web-storage-unsupported': 'このブラウザの設定ではログインできません。Cookie とサイトデータを有効にしてください。',
  'auth/unauthorized-domain': 'このドメインからはログインできません。',

  // Action codes (mail links)
  'auth/expired-action-code': 'リンクの有効期限が切れています。お手数ですが、もう一度メールを送信してください。',
  'auth/invalid-action-code': LINK_INVALID,
  'auth/missing-action-code': LINK_INVALID,
  'auth/invalid-action-mode': 'このリンクには対応していません。メールに記載されたリンクをそのまま開いてください。',
  'auth/password-reset': LINK_INVALID,
  'auth/invalid-continue-uri': 'リンクの戻り先が正しくありません。',
  'auth/unauthorized-continue-uri': 'リンクの戻り先が許可されていません。',
  'auth/missing-continue-uri': 'リンクの戻り先が正しくありません。',

  // Network and service
  'auth/network-request-failed': '通信に失敗しました。ネットワーク接続を確認してもう一度お試しください。',
  'auth/timeout': '通信がタイムアウトしました。ネットワーク接続を確認してもう一度お試しください。',
  'auth/internal-error': '認証サービスでエラーが発生しました。しばらく時間をおいてからもう一度お試しください。',
  'auth/unexpected-error': '予期しないエラーが発生しました。もう一度お試しください。',
};

/** The codes with their own message (for tests and docs). */
export const KNOWN_AUTH_CODES = Object.freeze(Object.keys(MESSAGES));

/**
 * Where a message is shown, when that changes it: `login` (e-mail and password log in) and
 * `currentPassword` (a settings form that re-authenticates with the current password first).
 */
export type AuthMessageContext = 'login' | 'currentPassword';

const CONTEXT_MESSAGES: Record<AuthMessageContext, Record<string, string>> = {
  login: {
    'auth/user-not-found': WRONG_CREDENTIALS,
  },
  currentPassword: {
    'auth/wrong-password': WRONG_CURRENT_PASSWORD,
    'auth/invalid-credential': WRONG_CURRENT_PASSWORD,
    'auth/invalid-login-credentials': WRONG_CURRENT_PASSWORD,
  },
};

export function authMessage(code: string | null | undefined, context?: AuthMessageContext): string {
  if (!code) return MESSAGES['auth/unexpected-error'];
  return (context && CONTEXT_MESSAGES[context][code]) ?? MESSAGES[code] ?? MESSAGES['auth/unexpected-error'];
}
