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

/**
 * What the player is told when a play cannot start or stops. Failures of starting and failures
 * after the game was on screen are told apart: a runtime that dies while the player reads is
 * 「ゲームが停止しました」, not 「プレイを開始できませんでした」 (issue 10 item 7).
 */
export type PlayFailure =
  | 'instance_limit'
  | 'verified_required'
  | 'subscription_required'
  | 'game_not_found'
  | 'no_capacity'
  | 'host_unavailable'
  | 'start_timeout'
  | 'start_failed'
  | 'host_lost'
  | 'game_crashed'
  | 'play_interrupted'
  | 'network_lost'
  | 'stream_failed'
  | 'session_closed'
  | 'replaced'
  | 'game_over'
  | 'idle_timeout'
  | 'background_timeout'
  | 'unsupported'
  | 'unknown';

/** When a failure happened: while the game was starting, or after it had been on screen. */
export type PlayPhase = 'start' | 'play';

/** Labels of the failure panel's retry button. */
const TRY_AGAIN = 'もう一度試す';
const PLAY_AGAIN = 'もう一度プレイする';

/** One failure's message: what happened, what to do, and the retry button's label (「もう一度試す」 unless told). */
const message = (title: string, body: string, retry: string = TRY_AGAIN) => ({ title, body, retry });

/** Title, body (what happened + what to do) and the retry button's label of each failure. */
export const FAILURE_MESSAGES: Record<PlayFailure, { title: string; body: string; retry: string }> = {
  instance_limit: message('ほかのプレイが続いています', '同時にプレイできるのは1タイトルまでです。ほかの端末やタブのプレイを終了してから、もう一度お試しください。'),
  verified_required: message('ログインが必要です', 'このタイトルを遊ぶには、メールアドレスを登録したアカウントでログインしてください。体験版はログインなしで遊べます。'),
  subscription_required: message('プレミアムプラン会員限定のタイトルです', 'このタイトルを遊ぶには、プレミアムプランへの登録が必要です。登録するとすぐにプレイできます。'),
  game_not_found: message('タイトルが見つかりません', 'このタイトルは公開を終了したか、URLが正しくない可能性があります。'),
  no_capacity: message('ただいま混み合っています', 'ゲームサーバーに空きがありません。しばらくしてからもう一度お試しください。'),
  host_unavailable: message('ゲームサーバーに接続できませんでした', 'ゲームを起動できるサーバーが見つかりませんでした。しばらくしてからもう一度お試しください。'),
  start_timeout: message('ゲームの起動に時間がかかりすぎました', '起動が時間内に終わらなかったため、中止しました。もう一度お試しください。続けて起きる場合は、しばらくしてからお試しください。'),
  start_failed: message('ゲームを起動できませんでした', '起動中にゲームサーバーで問題が発生しました。もう一度お試しください。続けて起きる場合は、しばらくしてからお試しください。'),
  host_lost: message('ゲームサーバーとの接続が切れました', 'サーバーに問題が発生したため、プレイを終了しました。進行状況は保存されています。もう一度開始すると続きから遊べます。'),
  game_crashed: message('ゲームが停止しました', 'プレイ中にゲームが予期せず終了しました。進行状況は最後の自動保存まで残っています。「もう一度プレイする」を押すと、そこから続けられます。', PLAY_AGAIN),
  play_interrupted: message('プレイが中断されました', '問題が発生したため、プレイを終了しました。進行状況は保存されています。「もう一度プレイする」を押すと、続きから遊べます。', PLAY_AGAIN),
  network_lost: message('通信が切断されました', 'ネットワークに再接続できませんでした。通信環境を確認して、もう一度お試しください。進行状況は保存されています。'),
  stream_failed: message('映像を受信できませんでした', '映像の接続を確立できませんでした。通信環境を確認して、もう一度お試しください。'),
  session_closed: message('プレイを終了しました', 'このセッションは終了しました。進行状況は保存されています。', PLAY_AGAIN),
  replaced: message('ほかの画面でプレイが始まりました', '同じアカウントで別のタブや端末からこのゲームに接続したため、ここでの表示を終了しました。進行状況はそのまま引き継がれています。', 'この画面でプレイする'),
  game_over: message('ゲームが終わりました', '最後までプレイしていただき、ありがとうございました。進行状況は保存されています。', PLAY_AGAIN),
  idle_timeout: message('操作がなかったため終了しました', 'しばらく操作がなかったため、プレイを終了しました。進行状況は保存されています。', PLAY_AGAIN),
  background_timeout: message('プレイを終了しました', '画面がバックグラウンドのまま時間が経ったため、プレイを終了しました。進行状況は保存されています。', PLAY_AGAIN),
  unsupported: message('このブラウザでは遊べません', 'お使いのブラウザは映像の受信に対応していません。最新のChrome、Safari、Edge、Firefoxでお試しください。'),
  unknown: message('エラーが発生しました', 'プレイを開始できませんでした。しばらくしてからもう一度お試しください。'),
};

/**
 * Every code the player's page can be handed, and the failure it shows. The codes come from
 * the api's errors (lib/api-types/errors.ts), the browser's own (lib/api/client.ts), a failed
 * session's `failure_reason` (lib/api-types/sessions.ts; the api's sweeper and hosts, the host
 * agent's reports in server/host/sessions.ts), a closed session's reason, and the host's `bye`
 * (lib/streaming/messages.ts). A function of the phase where the phase matters.
 */
const FAILURES: Record<string, PlayFailure | { start: PlayFailure; play: PlayFailure }> = {
  instance_limit: 'instance_limit',
  verified_required: 'verified_required',
  unauthorized: 'verified_required',
  token_invalid: 'verified_required',
  token_revoked: 'verified_required',
  no_token: 'verified_required',
  // A premium title and no active subscription (issue 9, docs/purchase.md): the upgrade prompt.
  subscription_required: 'subscription_required',
  game_not_found: 'game_not_found',
  no_capacity: 'no_capacity',
  // The api tried every host and none took the session (allocation.ts).
  host_unavailable: { start: 'host_unavailable', play: 'host_lost' },
  // allocating/starting for too long (sweeper.ts).
  start_timeout: { start: 'start_timeout', play: 'play_interrupted' },
  join_timeout: { start: 'start_timeout', play: 'play_interrupted' },
  // The game's runtime (its Chromium) failed to launch, died, or vanished from its host.
  runtime_start_failed: 'start_failed',
  runtime_unavailable: 'start_failed',
  runtime_crashed: { start: 'start_failed', play: 'game_crashed' },
  runtime_failed: { start: 'start_failed', play: 'game_crashed' },
  runtime_lost: { start: 'start_failed', play: 'game_crashed' },
  runtime_error: { start: 'start_failed', play: 'game_crashed' },
  // The host itself: missed heartbeats, shut down (drain, maintenance), restarted.
  host_lost: 'host_lost',
  host_unhealthy: 'host_lost',
  host_shutdown: 'host_lost',
  host_restarted: 'host_lost',
  network: 'network_lost',
  timeout: 'network_lost',
  reconnect_timeout: 'network_lost',
  stream_failed: 'stream_failed',
  ice_failed: 'stream_failed',
  idle_timeout: 'idle_timeout',
  idle: 'idle_timeout',
  background_timeout: 'background_timeout',
  // Closed, by the player, the api or the host (close reasons of lib/api-types/sessions.ts).
  session_closed: 'session_closed',
  session_not_found: 'session_closed',
  closed: 'session_closed',
  force_closed: 'session_closed',
  user: 'session_closed',
  not_joined: 'session_closed',
  disconnected: 'session_closed',
  abandoned: 'session_closed',
  close_timeout: 'session_closed',
  host: 'session_closed',
  api_closed: 'session_closed',
  api_forgot: 'session_closed',
  signal_closed: 'session_closed',
  replaced: 'replaced',
  game_over: 'game_over',
  // get_token named a streaming provider this build cannot use (lib/api/sessions.ts).
  unsupported_provider: 'unsupported',
};

/**
 * Maps a server / transport code to the failure the player sees. `phase` says whether the game
 * had been on screen: the same runtime crash is a failed start before, a stopped game after;
 * an unknown code after playing began is an interrupted play, not a start that failed.
 */
export function failureOf(code: string | null | undefined, phase: PlayPhase = 'start'): PlayFailure {
  const found = code && Object.prototype.hasOwnProperty.call(FAILURES, code) ? FAILURES[code] : undefined;
  if (!found) return phase === 'play' ? 'play_interrupted' : 'unknown';
  return typeof found === 'string' ? found : found[phase];
}
