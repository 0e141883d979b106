/**
 * Japanese messages for the provider's error codes and our product errors (spec section 8).
 * Anything unknown gets a generic message: a user never sees a raw code or a stack trace.
 */
const MESSAGES: Record<string, string> = {
  notEmailVerified: 'メールアドレスの確認が完了していません。確認メールを再送しましたので、メール内のリンクを開いてからログインしてください。',
  'auth/wrong-password': 'メールアドレスまたはパスワードが正しくありません。',
  'auth/invalid-credential': 'メールアドレスまたはパスワードが正しくありません。',
  'auth/invalid-login-credentials': 'メールアドレスまたはパスワードが正しくありません。',
  'auth/user-not-found': 'このメールアドレスのアカウントは見つかりませんでした。',
  'auth/user-disabled': 'このアカウントは利用停止されています。サポートまでお問い合わせください。',
  'auth/weak-password': 'パスワードが弱すぎます。6文字以上で、推測されにくいものにしてください。',
  'auth/email-already-in-use': 'このメールアドレスはすでに登録されています。ログインしてください。',
  'auth/credential-already-in-use': 'このアカウントはすでに別のユーザーと連携されています。',
  'auth/provider-already-linked': 'このログイン方法はすでに連携済みです。',
  'auth/invalid-email': 'メールアドレスの形式が正しくありません。',
  'auth/missing-password': 'パスワードを入力してください。',
  'auth/too-many-requests': '試行回数が多すぎます。しばらく時間をおいてからもう一度お試しください。',
  'auth/expired-action-code': 'リンクの有効期限が切れています。もう一度メールを送信してください。',
  'auth/invalid-action-code': 'このリンクは無効か、すでに使用されています。もう一度メールを送信してください。',
  'auth/network-request-failed': '通信に失敗しました。ネットワーク接続を確認してもう一度お試しください。',
  'auth/requires-recent-login': '安全のため、もう一度ログインしてからお試しください。',
  'auth/popup-closed-by-user': 'ログインがキャンセルされました。',
  'auth/operation-not-allowed': 'このログイン方法は現在ご利用いただけません。',
  'auth/unexpected-error': '予期しないエラーが発生しました。もう一度お試しください。',
  'auth/invalid-continue-uri': 'リンクの戻り先が正しくありません。',
  'auth/unauthorized-continue-uri': 'リンクの戻り先が許可されていません。',
  'auth/missing-email': 'メールアドレスを入力してください。',
  'No email link': 'ログイン用リンクを確認できませんでした。リンクを送ったのと同じ端末・ブラウザで開いてください。',
  '401': 'ログインが必要です。もう一度ログインしてください。',
  'Cannot get user token': 'ログイン情報を確認できませんでした。ページを再読み込みしてください。',
};

export function authMessage(code: string | null | undefined): string {
  if (!code) return MESSAGES['auth/unexpected-error'];
  return MESSAGES[code] ?? MESSAGES['auth/unexpected-error'];
}
