/**
 * The one API client of the browser. Every call carries the user's freshly fetched ID token as
 * a bearer header (spec section 6), checks `status: "ok"` and turns anything else into an
 * ApiClientError with the server's typed code and a Japanese message.
 */
import { config } from '@/lib/config';
import { API_ERROR_MESSAGES, isApiErrorCode } from '@/lib/api-types/errors';

/** Network timeouts of spec section 9: 30 s for calls, 5 s when the browser says it is offline. */
export const API_TIMEOUT_MS = 30_000;
export const API_TIMEOUT_OFFLINE_MS = 5_000;

export class ApiClientError extends Error {
  constructor(
    /** The server's code, or network / timeout / bad_response / no_token on our side. */
    readonly code: string,
    readonly httpStatus: number,
    readonly userMessage: string,
  ) {
    super(code);
    this.name = 'ApiClientError';
  }
}

export type TokenSource = () => Promise<string | null>;

let tokenSource: TokenSource = async () => {
  const { firebaseAuth } = await import('@/lib/firebase/client');
  const user = firebaseAuth().currentUser;
  return user ? user.getIdToken() : null;
};

/** Tests and non-browser callers can supply their own token source. */
export function setTokenSource(source: TokenSource): void {
  tokenSource = source;
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'DELETE' | 'PUT';
  body?: unknown;
  auth?: boolean;
  timeoutMs?: number;
  signal?: AbortSignal;
}

function timeoutFor(opts: RequestOptions): number {
  if (opts.timeoutMs) return opts.timeoutMs;
  return typeof navigator !== 'undefined' && navigator.onLine === false ? API_TIMEOUT_OFFLINE_MS : API_TIMEOUT_MS;
}

export async function apiRequest<T extends object>(path: string, opts: RequestOptions = {}): Promise<{ status: 'ok' } & T> {
  const headers: Record<string, string> = {};
  if (opts.auth !== false) {
    const token = await tokenSource().catch(() => null);
    if (!token) throw new ApiClientError('no_token', 0, 'ログイン情報を確認できませんでした。ページを再読み込みしてください。');
    headers.authorization = `Bearer ${token}`;
  }
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  const timeout = AbortSignal.timeout(timeoutFor(opts));
  const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
  let res: Response;
  try {
    res = await fetch(`${config.apiUrl}${path}`, {
      method: opts.method ?? 'GET',
      headers,
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      signal,
    });
  } catch {
    const timedOut = timeout.aborted;
    throw new ApiClientError(
      timedOut ? 'timeout' : 'network',
      0,
      timedOut ? 'サーバーからの応答がありません。通信環境を確認してもう一度お試しください。' : '通信に失敗しました。ネットワーク接続を確認してもう一度お試しください。',
    );
  }
  let json: unknown = null;
  try {
    json = await res.json();
  } catch {
    /* handled below */
  }
  const obj = (json ?? {}) as { status?: unknown; error?: { code?: unknown; message?: unknown } };
  if (res.ok && obj.status === 'ok') return obj as { status: 'ok' } & T;
  const code = isApiErrorCode(obj.error?.code) ? obj.error.code : typeof obj.error?.code === 'string' ? obj.error.code : 'bad_response';
  const message =
    typeof obj.error?.message === 'string' && obj.error.message
      ? obj.error.message
      : isApiErrorCode(code)
        ? API_ERROR_MESSAGES[code]
        : 'エラーが発生しました。しばらくしてからもう一度お試しください。';
  throw new ApiClientError(code, res.status, message);
}
