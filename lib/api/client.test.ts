/** @jest-environment node */
import { apiRequest, ApiClientError } from './client';
import { getSessionStatus, getSessionToken, SessionError, startGame } from './sessions';

jest.mock('@/lib/firebase/client', () => ({
  firebaseAuth: () => ({ currentUser: { getIdToken: jest.fn(async (force: boolean) => (force ? 'fresh-token' : 'token')) } }),
}));

const fetchMock = jest.fn();
beforeEach(() => {
  fetchMock.mockReset();
  (global as unknown as { fetch: typeof fetch }).fetch = fetchMock;
});

const answer = (status: number, body: unknown) => Promise.resolve(new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }));

describe('api client', () => {
  it('sends the bearer token and returns an ok answer', async () => {
    fetchMock.mockReturnValueOnce(answer(200, { status: 'ok', game_session_id: 's1' }));
    await expect(startGame('g')).resolves.toBe('s1');
    const [url, init] = fetchMock.mock.calls[0];
    expect(String(url)).toMatch(/\/v1\/game\/g\/start$/);
    expect(new Headers(init.headers).get('authorization')).toBe('Bearer token');
  });

  it('turns a typed server error into the spec-named error with the server code', async () => {
    fetchMock.mockReturnValueOnce(answer(409, { status: 'error', error: { code: 'instance_limit', message: '上限です' } }));
    const e = await startGame('g').catch((x) => x);
    expect(e).toBeInstanceOf(SessionError);
    expect(e.name).toBe('startGameError');
    expect(e.code).toBe('instance_limit');
    expect(e.userMessage).toBe('上限です');
  });

  it('rejects an answer without status ok or without the expected fields', async () => {
    fetchMock.mockReturnValueOnce(answer(200, { session_state: 'ready' }));
    await expect(getSessionStatus('s')).rejects.toMatchObject({ name: 'getSessionStatusError', code: 'bad_response' });
    fetchMock.mockReturnValueOnce(answer(200, { status: 'ok', session_state: 'dancing' }));
    await expect(getSessionStatus('s')).rejects.toMatchObject({ code: 'bad_response' });
    fetchMock.mockReturnValueOnce(answer(200, { status: 'ok', agora_app_id: '' }));
    await expect(getSessionToken('s')).rejects.toMatchObject({ name: 'getSessionTokenError', code: 'bad_response' });
  });

  it('retries once with a refreshed token on token_expired', async () => {
    fetchMock.mockReturnValueOnce(answer(401, { status: 'error', error: { code: 'token_expired', message: 'x' } })).mockReturnValueOnce(answer(200, { status: 'ok' }));
    await apiRequest('/v1/me');
    expect(new Headers(fetchMock.mock.calls[1][1].headers).get('authorization')).toBe('Bearer fresh-token');
  });

  it('reports a network failure in Japanese', async () => {
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    const e = await apiRequest('/v1/me').catch((x) => x);
    expect(e).toBeInstanceOf(ApiClientError);
    expect(e.code).toBe('network');
    expect(e.userMessage).toMatch(/通信/);
  });
});
