/**
 * What the player sees, in Japanese, for every step and failure of starting and playing.
 * One place, so the play page never shows a raw code.
 */
export type PlayStep = 'start' | 'queue' | 'starting' | 'token' | 'connecting' | 'playing';

export const STEP_LABELS: Record<PlayStep, string> = {
  start: 'ゲームを準備しています',
  queue: '順番待ちをしています',
  starting: 'ゲームを起動しています',
  token: '接続情報を取得しています',
  connecting: '映像に接続しています',
  playing: 'プレイ中',
};

/** The steps shown as progress, in order. */
export const PROGRESS_STEPS: PlayStep[] = ['start', 'starting', 'token', 'connecting'];

export type PlayFailure =
  | 'instance_limit'
  | 'verified_required'
  | 'subscription_required'
  | 'game_not_found'
  | 'no_capacity'
  | 'host_lost'
  | 'network_lost'
  | 'stream_failed'
  | 'session_closed'
  | 'idle_timeout'
  | 'background_timeout'
  | 'unsupported'
  | 'unknown';

export const FAILURE_MESSAGES: Record<PlayFailure, { title: string; body: string }> = {
  instance_limit: {
    title: 'ほかのプレイが続いています',
    body: '同時にプレイできるのは1タイトルまでです。ほかの端末やタブのプレイを終了してから、もう一度お試しください。',
  },
  verified_required: {
    title: 'ログインが必要です',
    body: 'このタイトルを遊ぶには、メールアドレスを登録したアカウントでログインしてください。体験版はログインなしで遊べます。',
  },
  subscription_required: {
    title: 'プレミアムプラン会員限定のタイトルです',
    body: 'このタイトルを遊ぶには、プレミアムプランへの登録が必要です。登録するとすぐにプレイできます。',
  },
  game_not_found: { title: 'タイトルが見つかりません', body: 'このタイトルは公開を終了したか、URLが正しくない可能性があります。' },
  no_capacity: { title: 'ただいま混み合っています', body: 'ゲームサーバーに空きがありません。しばらくしてからもう一度お試しください。' },
  host_lost: {
    title: 'ゲームサーバーとの接続が切れました',
    body: 'サーバーに問題が発生したため、プレイを終了しました。進行状況は保存されています。もう一度開始すると続きから遊べます。',
  },
  network_lost: {
    title: '通信が切断されました',
    body: 'ネットワークに再接続できませんでした。通信環境を確認して、もう一度お試しください。進行状況は保存されています。',
  },
  stream_failed: { title: '映像を受信できませんでした', body: '映像の接続を確立できませんでした。通信環境を確認して、もう一度お試しください。' },
  session_closed: { title: 'プレイを終了しました', body: 'このセッションは終了しました。進行状況は保存されています。' },
  idle_timeout: { title: '操作がなかったため終了しました', body: 'しばらく操作がなかったため、プレイを終了しました。進行状況は保存されています。' },
  background_timeout: { title: 'プレイを終了しました', body: '画面がバックグラウンドのまま時間が経ったため、プレイを終了しました。進行状況は保存されています。' },
  unsupported: { title: 'このブラウザでは遊べません', body: 'お使いのブラウザは映像の受信に対応していません。最新のChrome、Safari、Edge、Firefoxでお試しください。' },
  unknown: { title: 'エラーが発生しました', body: 'プレイを開始できませんでした。しばらくしてからもう一度お試しください。' },
};

/** Maps a server / transport code to the failure the player sees. */
export function failureOf(code: string | null | undefined): PlayFailure {
  switch (code) {
    case 'instance_limit':
      return 'instance_limit';
    case 'verified_required':
    case 'unauthorized':
    case 'token_invalid':
    case 'token_revoked':
    case 'no_token':
      return 'verified_required';
    // A premium title and no active subscription (issue 9, docs/purchase.md): the upgrade prompt.
    case 'subscription_required':
      return 'subscription_required';
    case 'game_not_found':
      return 'game_not_found';
    case 'no_capacity':
      return 'no_capacity';
    case 'host_lost':
    case 'host_unhealthy':
    case 'host_shutdown':
      return 'host_lost';
    case 'network':
    case 'timeout':
    case 'reconnect_timeout':
      return 'network_lost';
    case 'stream_failed':
    case 'ice_failed':
      return 'stream_failed';
    case 'idle_timeout':
      return 'idle_timeout';
    case 'background_timeout':
      return 'background_timeout';
    case 'session_closed':
    case 'closed':
    case 'force_closed':
      return 'session_closed';
    // get_token named a streaming provider this build cannot use (lib/api/sessions.ts).
    case 'unsupported_provider':
      return 'unsupported';
    default:
      return 'unknown';
  }
}
