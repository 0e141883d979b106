/**
 * The one table of Japanese error messages shown to users for a failed call to our api, and the
 * lookup that words a code. The api client (lib/api/client.ts) words its errors from here and
 * re-exports both; code that must word a failure without loading the client (the search page's
 * first load when the api's chunk itself cannot load, issue 12) imports this small module
 * directly, so each text is written once.
 */
import { API_ERROR_MESSAGES } from '@/lib/api-types/errors';

/** Failures on our side of the wire (the server's codes are API_ERROR_CODES). */
export const CLIENT_ERROR_CODES = ['network', 'timeout', 'bad_response', 'no_token', 'unexpected'] as const;
export type ClientErrorCode = (typeof CLIENT_ERROR_CODES)[number];

/** What was being fetched, for messages that say so ("カタログを…", "画像を…"). */
export type ErrorSubject = 'catalog' | 'image';

/**
 * The table: the api's codes (lib/api-types/errors.ts), our own, and `<subject>.<code>` where a
 * failure reads better naming what did not load. A server's own message for its code wins over
 * this table.
 */
export const ERROR_MESSAGES = {
  ...API_ERROR_MESSAGES,
  network: '通信に失敗しました。ネットワーク接続を確認してもう一度お試しください。',
  timeout: 'サーバーからの応答がありません。通信環境を確認してもう一度お試しください。',
  bad_response: 'サーバーから予期しない応答がありました。もう一度お試しください。',
  no_token: 'ログイン情報を確認できませんでした。ページを再読み込みしてください。',
  unexpected: 'エラーが発生しました。しばらくしてからもう一度お試しください。',
  'catalog.network': 'カタログを読み込めませんでした。通信環境を確認して、もう一度お試しください。',
  'catalog.timeout': 'カタログの読み込みに時間がかかっています。しばらくしてからもう一度お試しください。',
  'image.network': '画像を読み込めませんでした。ネットワーク接続を確認してください。',
  'image.timeout': '画像の読み込みに時間がかかっています。もう一度お試しください。',
  'image.bad_response': '画像を読み込めませんでした。しばらくしてからもう一度お試しください。',
} as const satisfies Record<string, string> & Record<ClientErrorCode, string>;

/** The message for a code (server's or ours), in the subject's wording when it has one. */
export function messageFor(code: string, subject?: ErrorSubject): string {
  const table: Record<string, string> = ERROR_MESSAGES;
  const own = (key: string) => (Object.prototype.hasOwnProperty.call(table, key) ? table[key] : undefined);
  return (subject && own(`${subject}.${code}`)) || own(code) || ERROR_MESSAGES.unexpected;
}
