/**
 * The Japanese messages of the functions' errors. The browser shows `error.message` of a failed
 * callable as is, so each says what happened and what to do, without ids or internals.
 */
export const MESSAGES = {
  unauthenticated: 'ログインが必要です。ログインしてからもう一度お試しください。',
  anonymous: 'お支払い情報の登録には会員登録が必要です。メールアドレスで会員登録（ログイン）してからもう一度お試しください。',
  emailUnverified: 'メールアドレスの確認が完了していません。確認メールのリンクを開いてから、もう一度お試しください。',
  invalidData: 'リクエストの内容が正しくありません。ページを再読み込みしてからもう一度お試しください。',
  invalidMethod: 'リクエストの内容が正しくありません（method）。ページを再読み込みしてからもう一度お試しください。',
  invalidRequestId: 'リクエストの内容が正しくありません（requestId）。ページを再読み込みしてからもう一度お試しください。',
  requestConflict: 'このリクエストはすでに使われています。ページを再読み込みして、最初からもう一度お試しください。',
  inProgress: 'お手続きを処理しています。しばらくしてからもう一度お試しください。',
  rateLimited: 'リクエストが多すぎます。しばらくしてからもう一度お試しください。',
  unavailable: '現在お支払いの手続きを行えません。しばらくしてからもう一度お試しください。',
  internal: 'エラーが発生しました。しばらくしてからもう一度お試しください。',
} as const;
