/**
 * The one API client of the browser (and of the Next.js server's catalogue reads). Every call to
 * our api goes through here:
 * - the network timeouts of spec section 9: 30 s, 60 s on mobile networks/devices, 5 s when the
 *   browser reports being offline (the Firebase SDK applies the same to its own requests);
 * - the user's freshly fetched ID token as a bearer header (spec section 6), retried once with a
 *   forced refresh on `token_expired`; `auth: false` for the public routes;
 * - answers: JSON with `status: "ok"` (apiRequest), a blob (apiBlob), or none (apiBeacon, sent
 *   with navigator.sendBeacon or a keepalive fetch when the page goes away);
 * - failures: an ApiClientError with the server's typed code, or our own (network, timeout,
 *   bad_response, no_token, unexpected), and a Japanese message from the one table
 *   (lib/api/messages.ts, re-exported here).
 */
import { config } from '@/lib/config';
import { CANNOT_GET_USER_TOKEN, getFreshIdToken } from '@/lib/auth/idToken';
import type { Auth } from 'firebase/auth';
import { messageFor, type ClientErrorCode, type ErrorSubject } from './messages';

// The one table of messages lives in ./messages (small, for code that words a failure without
// loading this client); its users import it from here as before.
export { CLIENT_ERROR_CODES, ERROR_MESSAGES, messageFor, type ClientErrorCode, type ErrorSubject } from './messages';

// ── timeouts ──────────────────────────────────────────────────────────────────────────────

export const NETWORK_TIMEOUT_MS = 30_000;
export const NETWORK_TIMEOUT_MOBILE_MS = 60_000;
export const NETWORK_TIMEOUT_OFFLINE_MS = 5_000;

const MOBILE_UA = /Android|iPhone|iPad|iPod|Mobile|BlackBerry|IEMobile|Opera Mini/i;

export interface NetworkEnv {
  onLine?: boolean;
  userAgent?: string;
}

function browserEnv(): NetworkEnv {
  if (typeof navigator === 'undefined') return {};
  return { onLine: navigator.onLine, userAgent: navigator.userAgent };
}

export function networkTimeoutMs(env: NetworkEnv = browserEnv()): number {
  if (env.onLine === false) return NETWORK_TIMEOUT_OFFLINE_MS;
  return env.userAgent && MOBILE_UA.test(env.userAgent) ? NETWORK_TIMEOUT_MOBILE_MS : NETWORK_TIMEOUT_MS;
}

export class NetworkTimeoutError extends Error {
  readonly code = 'timeout';
  constructor(readonly timeoutMs: number) {
    super(`request timed out after ${timeoutMs} ms`);
    this.name = 'NetworkTimeoutError';
  }
}

/**
 * fetch() that gives up after `timeoutMs` (default: networkTimeoutMs()) with a
 * NetworkTimeoutError; a caller's own AbortSignal still aborts it as usual.
 */
export async function fetchWithTimeout(input: RequestInfo | URL, init: RequestInit = {}, timeoutMs = networkTimeoutMs()): Promise<Response> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const outer = init.signal;
  const onOuterAbort = () => controller.abort();
  if (outer) {
    if (outer.aborted) controller.abort();
    else outer.addEventListener('abort', onOuterAbort, { once: true });
  }
  try {
    return await fetch(input, { ...init, signal: controller.signal });
  } catch (error) {
    if (timedOut) throw new NetworkTimeoutError(timeoutMs);
    throw error;
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener('abort', onOuterAbort);
  }
}

// ── bearer ────────────────────────────────────────────────────────────────────────────────

async function isExpiredTokenAnswer(res: Response): Promise<boolean> {
  if (res.status !== 401) return false;
  try {
    const body = (await res.clone().json()) as { error?: { code?: string } };
    return body?.error?.code === 'token_expired';
  } catch {
    return false;
  }
}

/**
 * fetch() to our servers with `Authorization: Bearer <fresh ID token>` and the network timeout.
 * An answer "token_expired" (the clock of this device is off, or the token expired in flight)
 * is retried once with a forced refresh.
 */
export async function authorizedFetch(input: string, init: RequestInit = {}, options: { timeoutMs?: number; auth?: Auth } = {}): Promise<Response> {
  const send = async (force: boolean) => {
    const token = await getFreshIdToken(force, options.auth);
    const headers = new Headers(init.headers);
    headers.set('authorization', `Bearer ${token}`);
    return fetchWithTimeout(input, { ...init, headers }, options.timeoutMs ?? networkTimeoutMs());
  };
  const first = await send(false);
  if (!(await isExpiredTokenAnswer(first))) return first;
  return send(true);
}

// ── errors ────────────────────────────────────────────────────────────────────────────────

export class ApiClientError extends Error {
  constructor(
    /** The server's code, or network / timeout / bad_response / no_token / unexpected on our side. */
    readonly code: string,
    readonly httpStatus: number,
    readonly userMessage: string,
  ) {
    super(code);
    this.name = 'ApiClientError';
  }
}

/** The Japanese message to show for a failed call: the api's own wording, else the caller's fallback. */
export function errorMessage(e: unknown, fallback: string): string {
  return e instanceof ApiClientError ? e.userMessage : fallback;
}

/** An ApiClientError of ours, worded from the table. */
export function clientError(code: ClientErrorCode, subject?: ErrorSubject, httpStatus = 0): ApiClientError {
  return new ApiClientError(code, httpStatus, messageFor(code, subject));
}

// ── requests ──────────────────────────────────────────────────────────────────────────────

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'DELETE' | 'PUT';
  /** Sent as JSON. */
  body?: unknown;
  /** false: a public route, no bearer (and no Firebase user needed). Default true. */
  auth?: boolean;
  /** Default: networkTimeoutMs(). */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Default: config.apiUrl (the catalogue reads use the server's own address on the server). */
  baseUrl?: string;
  /** Let the request outlive the page (fetch `keepalive`). */
  keepalive?: boolean;
  /** Words our own failures for what was being fetched. */
  subject?: ErrorSubject;
}

/** Sends the request; transport failures become ApiClientError (network, timeout, no_token). */
async function send(path: string, opts: RequestOptions, accept: string): Promise<Response> {
  const headers: Record<string, string> = { accept };
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  const init: RequestInit = {
    method: opts.method ?? 'GET',
    headers,
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    signal: opts.signal,
  };
  if (opts.keepalive) init.keepalive = true;
  const url = `${opts.baseUrl ?? config.apiUrl}${path}`;
  try {
    return opts.auth === false ? await fetchWithTimeout(url, init, opts.timeoutMs) : await authorizedFetch(url, init, { timeoutMs: opts.timeoutMs });
  } catch (e) {
    if (e instanceof Error && e.message === CANNOT_GET_USER_TOKEN) throw clientError('no_token');
    throw clientError(e instanceof NetworkTimeoutError ? 'timeout' : 'network', opts.subject);
  }
}

type ErrorBody = { status?: unknown; error?: { code?: unknown; message?: unknown } };

/** The ApiClientError of a failed answer: the server's code and message, else ours. */
function answerError(res: Response, body: ErrorBody | null, subject?: ErrorSubject): ApiClientError {
  const code = typeof body?.error?.code === 'string' && body.error.code ? body.error.code : 'bad_response';
  const message = typeof body?.error?.message === 'string' && body.error.message ? body.error.message : messageFor(code, subject);
  return new ApiClientError(code, res.status, message);
}

/** A JSON call: resolves with the answer when it has `status: "ok"`, else throws ApiClientError. */
export async function apiRequest<T extends object>(path: string, opts: RequestOptions = {}): Promise<{ status: 'ok' } & T> {
  const res = await send(path, opts, 'application/json');
  const body = (await res.json().catch(() => null)) as ErrorBody | null;
  if (res.ok && body?.status === 'ok') return body as { status: 'ok' } & T;
  throw answerError(res, body, opts.subject);
}

/** A binary answer (e.g. a screenshot's PNG): the body as a Blob, or ApiClientError. */
export async function apiBlob(path: string, opts: RequestOptions = {}): Promise<Blob> {
  const res = await send(path, opts, '*/*');
  if (res.ok) return res.blob();
  const body = (await res.json().catch(() => null)) as ErrorBody | null;
  throw answerError(res, body, opts.subject);
}

/**
 * A fire-and-forget POST that survives the page going away (the collect beacon): no token, a
 * text/plain body (no CORS preflight), through navigator.sendBeacon, else a keepalive fetch.
 * Returns whether it was handed to the browser.
 */
export function apiBeacon(path: string, body: object): boolean {
  const url = `${config.apiUrl}${path}`;
  const text = JSON.stringify(body);
  if (typeof navigator !== 'undefined' && typeof navigator.sendBeacon === 'function') {
    return navigator.sendBeacon(url, new Blob([text], { type: 'text/plain' }));
  }
  if (typeof fetch !== 'function') return false;
  void fetchWithTimeout(url, { method: 'POST', body: text, headers: { 'content-type': 'text/plain' }, keepalive: true }).catch(() => undefined);
  return true;
}
