/**
 * @jest-environment node
 *
 * The api client and the session calls over it: bearer, typed errors, answer checks, the start's
 * quality, get_token's union by provider, the beacon.
 */
import { apiBeacon, apiRequest, ApiClientError } from './client';
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

  it('starts at the given video quality (the player\'s saved choice)', async () => {
    fetchMock.mockReturnValueOnce(answer(200, { status: 'ok', game_session_id: 's1' }));
    await startGame('g', 'low');
    expect(String(fetchMock.mock.calls[0][0])).toMatch(/\/v1\/game\/g\/start\?quality=low$/);
  });

  it('maps get_token to the token of its provider only, and refuses a provider it does not know', async () => {
    const wire = {
      status: 'ok',
      agora_app_id: 'app',
      agora_channel_name: 'ch',
      agora_rtc_token: 'rtc',
      agora_rtm_token: 'rtm',
      user_id_for_client: '123',
      trtc_sdk_app_id: '',
      trtc_user_sig_for_client: '',
      trtc_room_id: '',
      webrtc_signal_url: '',
      webrtc_signal_token: '',
      webrtc_ice_servers: [],
    };
    fetchMock.mockReturnValueOnce(answer(200, { ...wire, provider: 'agora' }));
    await expect(getSessionToken('s')).resolves.toEqual({ provider: 'agora', appId: 'app', channelName: 'ch', rtcToken: 'rtc', rtmToken: 'rtm', rtmUid: '123' });
    fetchMock.mockReturnValueOnce(answer(200, { ...wire, provider: 'webrtc', webrtc_signal_url: 'ws://h/signal', webrtc_signal_token: 't', webrtc_ice_servers: [{ urls: 'stun:s' }] }));
    await expect(getSessionToken('s')).resolves.toEqual({ provider: 'webrtc', webrtc: { signalUrl: 'ws://h/signal', signalToken: 't', iceServers: [{ urls: 'stun:s' }] } });
    fetchMock.mockReturnValueOnce(answer(200, { ...wire, provider: 'skype' }));
    await expect(getSessionToken('s')).rejects.toMatchObject({ name: 'getSessionTokenError', code: 'unsupported_provider' });
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

  it('sends a beacon with sendBeacon as text/plain and no token, else with a keepalive fetch', async () => {
    const sendBeacon = jest.fn<boolean, [string, Blob]>(() => true);
    const nav = Object.getOwnPropertyDescriptor(globalThis, 'navigator');
    Object.defineProperty(globalThis, 'navigator', { value: { sendBeacon }, configurable: true });
    try {
      expect(apiBeacon('/collect', { sessionId: 's', gameId: 'g', elapsed: 1500 })).toBe(true);
      const [url, blob] = sendBeacon.mock.calls[0];
      expect(url).toMatch(/\/collect$/);
      expect(blob.type).toBe('text/plain');
      expect(JSON.parse(await blob.text())).toEqual({ sessionId: 's', gameId: 'g', elapsed: 1500 });
      Object.defineProperty(globalThis, 'navigator', { value: {}, configurable: true });
      fetchMock.mockReturnValueOnce(answer(200, { status: 'ok' }));
      expect(apiBeacon('/collect', { elapsed: 1 })).toBe(true);
      const init = fetchMock.mock.calls[0][1] as RequestInit;
      expect(init).toMatchObject({ method: 'POST', keepalive: true, body: '{"elapsed":1}' });
      expect(new Headers(init.headers).get('authorization')).toBeNull();
    } finally {
      if (nav) Object.defineProperty(globalThis, 'navigator', nav);
      else delete (globalThis as { navigator?: unknown }).navigator;
    }
  });
});
