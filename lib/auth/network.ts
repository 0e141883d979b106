/**
 * Network timeouts of spec section 9 and the bearer token of spec section 6, for our own api
 * calls (the Firebase SDK applies the same timeouts to its own requests):
 * 30 s, 60 s on mobile networks/devices, 5 s when the browser reports being offline.
 */
import type { Auth } from 'firebase/auth';

export const NETWORK_TIMEOUT_MS = 30_000;
export const NETWORK_TIMEOUT_MOBILE_MS = 60_000;
export const NETWORK_TIMEOUT_OFFLINE_MS = 5_000;

/** The error message thrown when no token can be had (spec section 8). */
export const CANNOT_GET_USER_TOKEN = 'Cannot get user token';

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

/**
 * The signed-in user's ID token, fetched fresh (the SDK refreshes it when it is about to
 * expire; `force` refreshes it regardless). Throws "Cannot get user token" when there is no
 * user or the token cannot be had. lib/api can use it as its token source.
 */
export async function getFreshIdToken(force = false, auth?: Auth): Promise<string> {
  const a = auth ?? (await import('@/lib/firebase/client')).firebaseAuth();
  const user = a.currentUser;
  if (!user) throw new Error(CANNOT_GET_USER_TOKEN);
  try {
    return await user.getIdToken(force);
  } catch (error) {
    throw new Error(CANNOT_GET_USER_TOKEN, { cause: error });
  }
}

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
