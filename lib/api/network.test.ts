/**
 * @jest-environment node
 *
 * The api client's transport (lib/api/client.ts): the network timeouts of spec section 9 and the
 * fresh bearer token of spec section 6 (lib/auth/idToken.ts), with its one retry on token_expired.
 */
import {
  authorizedFetch,
  fetchWithTimeout,
  networkTimeoutMs,
  NetworkTimeoutError,
  NETWORK_TIMEOUT_MOBILE_MS,
  NETWORK_TIMEOUT_MS,
  NETWORK_TIMEOUT_OFFLINE_MS,
} from './client';
import { CANNOT_GET_USER_TOKEN, getFreshIdToken } from '@/lib/auth/idToken';
import type { Auth } from 'firebase/auth';

jest.mock('@/lib/firebase/client', () => ({ firebaseAuth: () => ({ currentUser: null }) }));

describe('network timeouts (spec section 9)', () => {
  it('are 30 s, 60 s on mobile and 5 s offline', () => {
    expect([NETWORK_TIMEOUT_MS, NETWORK_TIMEOUT_MOBILE_MS, NETWORK_TIMEOUT_OFFLINE_MS]).toEqual([30_000, 60_000, 5_000]);
    expect(networkTimeoutMs({ onLine: true, userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/140' })).toBe(30_000);
    expect(networkTimeoutMs({ onLine: true, userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) Mobile/15E148' })).toBe(60_000);
    expect(networkTimeoutMs({ onLine: true, userAgent: 'Mozilla/5.0 (Linux; Android 14; Pixel 7) Mobile Safari' })).toBe(60_000);
    expect(networkTimeoutMs({ onLine: false, userAgent: 'Mozilla/5.0 (iPhone) Mobile' })).toBe(5_000);
  });
});

describe('fetchWithTimeout', () => {
  const realFetch = global.fetch;
  afterEach(() => {
    global.fetch = realFetch;
    jest.useRealTimers();
  });

  /** A fetch that never answers until aborted. */
  function hangingFetch() {
    return jest.fn(
      (_input: unknown, init?: RequestInit) =>
        new Promise<Response>((_resolve, reject) => {
          init?.signal?.addEventListener('abort', () => reject(Object.assign(new Error('aborted'), { name: 'AbortError' })));
        }),
    );
  }

  it('gives up after the timeout with a NetworkTimeoutError', async () => {
    jest.useFakeTimers();
    global.fetch = hangingFetch() as unknown as typeof fetch;
    const p = fetchWithTimeout('http://api.test/v1/x', {}, 30_000);
    const settled = expect(p).rejects.toBeInstanceOf(NetworkTimeoutError);
    await jest.advanceTimersByTimeAsync(29_999);
    await jest.advanceTimersByTimeAsync(1);
    await settled;
  });

  it("passes the caller's abort through as an abort, not a timeout", async () => {
    global.fetch = hangingFetch() as unknown as typeof fetch;
    const c = new AbortController();
    const p = fetchWithTimeout('http://api.test/v1/x', { signal: c.signal }, 30_000);
    c.abort();
    await expect(p).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('answers normally when the server is quick', async () => {
    global.fetch = jest.fn(async () => new Response('{"status":"ok"}', { status: 200 })) as unknown as typeof fetch;
    const res = await fetchWithTimeout('http://api.test/v1/x');
    expect(res.status).toBe(200);
  });
});

describe('bearer token', () => {
  const realFetch = global.fetch;
  afterEach(() => {
    global.fetch = realFetch;
  });

  function fakeAuth(tokens: string[]) {
    const getIdToken = jest.fn(async (force?: boolean) => (force ? tokens[1] : tokens[0]));
    return { auth: { currentUser: { getIdToken } } as unknown as Auth, getIdToken };
  }

  it('throws "Cannot get user token" without a user', async () => {
    await expect(getFreshIdToken(false, { currentUser: null } as unknown as Auth)).rejects.toThrow(CANNOT_GET_USER_TOKEN);
    await expect(getFreshIdToken()).rejects.toThrow(CANNOT_GET_USER_TOKEN);
  });

  it('sends a fresh token as a bearer header and retries once with a forced refresh on token_expired', async () => {
    const { auth, getIdToken } = fakeAuth(['old', 'new']);
    const seen: string[] = [];
    global.fetch = jest.fn(async (_url: unknown, init?: RequestInit) => {
      const h = new Headers(init?.headers).get('authorization')!;
      seen.push(h);
      if (h === 'Bearer old') return new Response(JSON.stringify({ status: 'error', error: { code: 'token_expired', message: 'x' } }), { status: 401 });
      return new Response('{"status":"ok"}', { status: 200 });
    }) as unknown as typeof fetch;
    const res = await authorizedFetch('http://api.test/v1/me', { headers: { accept: 'application/json' } }, { auth });
    expect(res.status).toBe(200);
    expect(seen).toEqual(['Bearer old', 'Bearer new']);
    expect(getIdToken).toHaveBeenLastCalledWith(true);
  });

  it('does not retry other 401s', async () => {
    const { auth } = fakeAuth(['t', 't2']);
    const f = jest.fn(async () => new Response(JSON.stringify({ status: 'error', error: { code: 'token_revoked', message: 'x' } }), { status: 401 }));
    global.fetch = f as unknown as typeof fetch;
    const res = await authorizedFetch('http://api.test/v1/me', {}, { auth });
    expect(res.status).toBe(401);
    expect(f).toHaveBeenCalledTimes(1);
  });
});
