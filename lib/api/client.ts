/**
 * The one API client of the browser. Every call carries the user's freshly fetched ID token as
 * a bearer header (spec section 6), checks `status: "ok"` and turns anything else into an
 * ApiClientError with the server's typed code and a Japanese message.
 */
import { config } from '@/lib/config';
import { API_ERROR_MESSAGES, isApiErrorCode } from '@/lib/api-types/errors';
import { authorizedFetch, CANNOT_GET_USER_TOKEN, fetchWithTimeout, NetworkTimeoutError } from '@/lib/auth/network';

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

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'DELETE' | 'PUT';
  body?: unknown;
  auth?: boolean;
  timeoutMs?: number;
  signal?: AbortSignal;
}

export async function apiRequest<T extends object>(path: string, opts: RequestOptions = {}): Promise<{ status: 'ok' } & T> {
  const headers: Record<string, string> = {};
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  const init: RequestInit = {
    method: opts.method ?? 'GET',
    headers,
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    signal: opts.signal,
  };
  const url = `${config.apiUrl}${path}`;
  let res: Response;
  try {
    // Timeouts (30 s, 60 s on mobile networks, 5 s offline) and the fresh bearer token with one
    // retry on token_expired live in lib/auth/network, shared with the auth flows.
    res = opts.auth === false ? await fetchWithTimeout(url, init, opts.timeoutMs) : await authorizedFetch(url, init, { timeoutMs: opts.timeoutMs });
  } catch (e) {
    if (e instanceof Error && e.message === CANNOT_GET_USER_TOKEN) {
      throw new ApiClientError('no_token', 0, 'ログイン情報を確認できませんでした。ページを再読み込みしてください。');
    }
    const timedOut = e instanceof NetworkTimeoutError;
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
