/**
 * The one error format of every Yumecast API response, shared by the server (which produces it)
 * and the browser (which checks it). A successful response carries `status: "ok"`; anything
 * else is `{ status: "error", error: { code, message } }`.
 *
 * - `code` is stable and machine-readable: clients branch on it, never on the message.
 * - `message` is Japanese text that is safe to show to a user as is (no stack, no SQL, no ids).
 *
 * Adding a code: append it to API_ERROR_CODES, give it a message below and an HTTP status in
 * server/api/errors.ts (both are `Record`s over the union, so the type checker asks for them).
 */

export const API_ERROR_CODES = [
  /** The request does not match the route's schema (params, query, body) or is not valid JSON. */
  'invalid_request',
  /** No usable `Authorization: Bearer <ID token>` header. */
  'unauthorized',
  /** The ID token is malformed, for another project, or names a user that does not exist. */
  'token_invalid',
  /** The ID token has expired; the client should refresh it and retry once. */
  'token_expired',
  /** The ID token was revoked (sign-out everywhere, password change); the user must sign in again. */
  'token_revoked',
  /** The account is disabled. */
  'user_disabled',
  /** Signed in, but not allowed to do this. */
  'forbidden',
  /** No such route or resource. */
  'not_found',
  /** The path exists, but not with this HTTP method (the `Allow` header lists its methods). */
  'method_not_allowed',
  /** The body is larger than the server accepts. */
  'payload_too_large',
  /** The body is not in a format the route accepts (e.g. not JSON). */
  'unsupported_media_type',
  /** Too many requests; retry later. */
  'rate_limited',
  /** A dependency (database, auth service) is unreachable; retry later. */
  'service_unavailable',
  /** A bug or an unexpected failure on our side. Details are only in the server log. */
  'internal',
  /** No title with that id. */
  'game_not_found',
  /** No such game session, or not the caller's (the two are indistinguishable on purpose). */
  'session_not_found',
  /** A limit on live sessions (one per user, or the title's instance limit) is reached. */
  'instance_limit',
  /** Visitors (anonymous users) may only play the open demo title. */
  'verified_required',
  /** No capacity and the waiting queue is full; retry later. */
  'no_capacity',
  /** The session is not ready yet (get_token before `ready`). */
  'session_not_ready',
  /** The session has already ended. */
  'session_closed',
  /** No such screenshot, or not the caller's. */
  'screenshot_not_found',
  /** (host api) The api does not know this host: register again. */
  'host_not_found',
  /** No magazine article with that slug. */
  'article_not_found',
  /** The title is not in the caller's bookmarks (another user's bookmarks are never visible). */
  'bookmark_not_found',
  /** (payments, docs/purchase.md) The title or benefit needs an active subscription. */
  'subscription_required',
  /** No such subscription record, or not the caller's (the two are indistinguishable on purpose). */
  'subscription_not_found',
  /** No active plan with that id. */
  'plan_not_found',
  /** The caller already has a live subscription (active or past due): no second one is started. */
  'already_subscribed',
  /** The caller has no live subscription to cancel, resume or change the card of. */
  'subscription_inactive',
  /** The card form has not saved a card for this caller (unknown, unfinished or refused setup). */
  'card_setup_incomplete',
  /** The card was refused by the issuer; the message says why in Japanese (from the processor). */
  'card_declined',
  /** The payment did not complete (3-D Secure failed, processing error); nothing was charged. */
  'payment_failed',
  /** The idempotency key was already used for another request, or that request is still running. */
  'idempotency_conflict',
  /** (internal) The payment request id was already used by another user. */
  'payment_request_conflict',
] as const;

export type ApiErrorCode = (typeof API_ERROR_CODES)[number];

export interface ApiErrorDetail {
  code: ApiErrorCode;
  message: string;
}

export interface ApiErrorResponse {
  status: 'error';
  error: ApiErrorDetail;
}

/** A successful response: `status: "ok"` plus the route's own fields. */
export type ApiOkResponse<T extends object = Record<never, never>> = { status: 'ok' } & T;

export type ApiResponse<T extends object = Record<never, never>> = ApiOkResponse<T> | ApiErrorResponse;

/** Default user-facing message for each code. Routes may send a more specific one. */
export const API_ERROR_MESSAGES: Record<ApiErrorCode, string> = {
  invalid_request: 'リクエストの内容が正しくありません。',
  unauthorized: 'ログインが必要です。',
  token_invalid: 'ログイン情報を確認できませんでした。もう一度ログインしてください。',
  token_expired: 'ログインの有効期限が切れました。もう一度お試しください。',
  token_revoked: 'ログイン状態が無効になりました。もう一度ログインしてください。',
  user_disabled: 'このアカウントは現在ご利用いただけません。',
  forbidden: 'この操作を行う権限がありません。',
  not_found: 'お探しのページまたはデータが見つかりません。',
  method_not_allowed: 'この操作はこのURLでは利用できません。',
  payload_too_large: '送信されたデータが大きすぎます。',
  unsupported_media_type: '送信されたデータの形式に対応していません。',
  rate_limited: 'リクエストが多すぎます。しばらくしてからもう一度お試しください。',
  service_unavailable: '現在サービスを利用できません。しばらくしてからもう一度お試しください。',
  internal: 'エラーが発生しました。しばらくしてからもう一度お試しください。',
  game_not_found: 'お探しのゲームが見つかりません。',
  session_not_found: 'ゲームセッションが見つかりません。もう一度ゲームを開始してください。',
  instance_limit: '同時にプレイできる数の上限に達しています。プレイ中のゲームを終了してからもう一度お試しください。',
  verified_required: 'このゲームをプレイするには会員登録（ログイン）が必要です。',
  no_capacity: 'ただいま混み合っています。しばらくしてからもう一度お試しください。',
  session_not_ready: 'ゲームの準備中です。しばらくお待ちください。',
  session_closed: 'このゲームセッションは終了しています。もう一度ゲームを開始してください。',
  screenshot_not_found: 'スクリーンショットが見つかりません。',
  host_not_found: 'ゲームサーバーが登録されていません。',
  article_not_found: 'お探しの記事が見つかりません。',
  bookmark_not_found: 'このゲームはブックマークに登録されていません。',
  subscription_required: 'このゲームはプラン会員限定です。プランに登録するとプレイできます。',
  subscription_not_found: 'ご契約が見つかりません。',
  plan_not_found: 'お選びのプランが見つかりません。',
  already_subscribed: 'すでにプランをご利用中です。',
  subscription_inactive: 'ご利用中のプランがないため、この操作はできません。',
  card_setup_incomplete: 'カードの登録が完了していません。もう一度カード情報を入力してください。',
  card_declined: 'カードがご利用いただけませんでした。別のカードをお試しください。',
  payment_failed: 'お支払いを完了できませんでした。もう一度お試しいただくか、別のカードをお使いください。',
  idempotency_conflict: 'お手続きを処理しています。しばらくしてからページを再読み込みしてください。',
  payment_request_conflict: 'このリクエストはすでに使われています。もう一度最初からお試しください。',
};

export function isApiErrorCode(value: unknown): value is ApiErrorCode {
  return typeof value === 'string' && (API_ERROR_CODES as readonly string[]).includes(value);
}

/**
 * True when `body` has the error shape. The code is only checked to be a string, so a client
 * built before a new code was added still recognises the error (and can show its message).
 */
export function isApiErrorResponse(body: unknown): body is ApiErrorResponse {
  if (typeof body !== 'object' || body === null) return false;
  const { status, error } = body as { status?: unknown; error?: unknown };
  if (status !== 'error' || typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  return typeof code === 'string' && typeof message === 'string';
}
