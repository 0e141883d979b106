import { createHmac } from 'node:crypto';
import { inflateSync } from 'node:zlib';
import { jwtVerify } from 'jose';
import { OPEN_PLAY_GAME_ID } from '../../../lib/api-types/openDemo';
import { FakeHost } from '../testing/fake-host';
import {
  request,
  startSessionApp,
  TEST_AGORA_APP_ID,
  TEST_AGORA_CERTIFICATE,
  TEST_HOST_SECRET,
  TEST_SIGNAL_SECRET,
  TEST_TRTC_SDK_APP_ID,
  TEST_TRTC_SECRET,
  TestUsers,
  waitFor,
  type SessionTestApp,
} from '../testing/sessions';
import { createTestSchema, type TestSchema } from '../testing/test-app';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { AccessToken2, kRtcServiceType, kRtmServiceType } = require('agora-token/src/AccessToken2');

jest.setTimeout(60_000);

const GAME = 'hoshifuru-toshokan';
const OTHER_GAME = 'shizuka-no-umi-postman'; // free (not premium): the limits below are not about plans
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ICE = [{ urls: 'stun:stun.example.test:3478' }, { urls: ['turn:turn.example.test:3478'], username: 'u', credential: 'c' }];

describe('game-session API', () => {
  let schema: TestSchema;
  let api: SessionTestApp;
  let host: FakeHost;
  const users = new TestUsers();

  const get = (url: string, token?: string) => request(api.base, 'GET', url, { token });

  async function startReady(token: string, game = GAME): Promise<string> {
    const started = await get(`/v1/game/${game}/start`, token);
    expect(started.status).toBe(200);
    const id = started.body.game_session_id as string;
    await waitFor(async () => (await get(`/v1/session/${id}/status`, token)).body.session_state === 'ready', 5_000, 'ready');
    return id;
  }

  beforeAll(async () => {
    schema = await createTestSchema('sessions');
    api = await startSessionApp(schema.name, {
      agoraAppId: TEST_AGORA_APP_ID,
      agoraAppCertificate: TEST_AGORA_CERTIFICATE,
      trtcSdkAppId: TEST_TRTC_SDK_APP_ID,
      trtcSecretKey: TEST_TRTC_SECRET,
      iceServers: ICE,
      providerTokenTtlS: 600,
    });
    host = await new FakeHost({ id: 'host-s1', capacity: 8, secret: TEST_HOST_SECRET, apiBase: api.base }).listen();
    expect((await host.register()).status).toBe(200);
  });

  afterAll(async () => {
    await host?.close();
    await api?.close();
    await users.cleanup();
    await schema?.drop();
  });

  it('runs the whole flow: start → status → get_token → all → force_close', async () => {
    const user = await users.email();
    const started = await get(`/v1/game/${GAME}/start?quality=medium`, user.idToken);
    expect(started.status).toBe(200);
    expect(started.body).toEqual({ status: 'ok', game_session_id: expect.stringMatching(UUID_RE) });
    const id = started.body.game_session_id;

    // Exactly the spec's fields.
    const all = await get('/v1/session/all', user.idToken);
    expect(all.body).toEqual({ status: 'ok', game_sessions: [{ id, game_id: GAME }] });

    const ready = await waitFor(async () => {
      const status = await get(`/v1/session/${id}/status`, user.idToken);
      return status.body.session_state === 'ready' ? status : null;
    });
    expect(ready.body).toEqual({ status: 'ok', session_state: 'ready' });

    // The host was asked to start it with everything it needs.
    const body = host.started.get(id)!;
    expect(body).toMatchObject({
      sessionId: id,
      gameId: GAME,
      uid: user.uid,
      signalUrl: `ws://127.0.0.1:${api.port}/v1/signal`,
      iceServers: ICE,
      quality: 'medium',
      provider: 'webrtc',
      resumeState: null,
      saves: [],
    });
    const hostClaims = (await jwtVerify(body.signalToken, new TextEncoder().encode(TEST_SIGNAL_SECRET))).payload;
    expect(hostClaims).toMatchObject({ sid: id, sub: user.uid, role: 'host' });

    const token = await get(`/v1/session/${id}/get_token`, user.idToken);
    expect(token.status).toBe(200);
    expect(token.headers.get('cache-control')).toBe('no-store');
    expect(Object.keys(token.body).sort()).toEqual(
      [
        'status',
        'agora_app_id',
        'agora_channel_name',
        'agora_rtc_token',
        'agora_rtm_token',
        'user_id_for_client',
        'trtc_sdk_app_id',
        'trtc_user_sig_for_client',
        'trtc_room_id',
        'webrtc_signal_url',
        'webrtc_signal_token',
        'webrtc_ice_servers',
        'provider',
      ].sort(),
    );
    expect(token.body).toMatchObject({
      status: 'ok',
      provider: 'webrtc',
      webrtc_signal_url: `ws://127.0.0.1:${api.port}/v1/signal`,
      webrtc_ice_servers: ICE,
      agora_app_id: TEST_AGORA_APP_ID,
      agora_channel_name: id,
      trtc_sdk_app_id: String(TEST_TRTC_SDK_APP_ID),
    });
    const now = Math.floor(Date.now() / 1000);

    // The signal token: HS256, bound to the session, the user and the player role, short-lived.
    const claims = (await jwtVerify(token.body.webrtc_signal_token, new TextEncoder().encode(TEST_SIGNAL_SECRET))).payload;
    expect(claims).toMatchObject({ sid: id, sub: user.uid, role: 'player', aud: 'yumecast-signal' });
    expect(claims.exp! - now).toBeGreaterThan(250);
    expect(claims.exp! - now).toBeLessThanOrEqual(301);

    // Agora RTC: channel = the session, uid = user_id_for_client, signed with the certificate.
    const clientId = token.body.user_id_for_client as string;
    expect(clientId).toMatch(/^[1-9]\d{0,9}$/);
    const rtc = new AccessToken2();
    expect(rtc.from_string(token.body.agora_rtc_token)).toBe(true);
    expect(String(rtc.appId)).toBe(TEST_AGORA_APP_ID);
    expect(rtc.verifySignature(TEST_AGORA_CERTIFICATE)).toBe(true);
    expect(rtc.verifySignature('00000000000000000000000000000000')).toBe(false);
    expect(rtc.expire).toBe(600);
    const [rtcService] = rtc.getServices(kRtcServiceType);
    expect(String(rtcService.__channel_name)).toBe(id);
    expect(String(rtcService.__uid)).toBe(clientId);

    // Agora RTM: the same user id.
    const rtm = new AccessToken2();
    expect(rtm.from_string(token.body.agora_rtm_token)).toBe(true);
    expect(rtm.verifySignature(TEST_AGORA_CERTIFICATE)).toBe(true);
    const [rtmService] = rtm.getServices(kRtmServiceType);
    expect(String(rtmService.__user_id)).toBe(clientId);

    // TRTC UserSig: zlib JSON signed with HMAC-SHA256 of the secret key.
    const sigText = token.body.trtc_user_sig_for_client.replace(/\*/g, '+').replace(/-/g, '/').replace(/_/g, '=');
    const doc = JSON.parse(inflateSync(Buffer.from(sigText, 'base64')).toString('utf8'));
    expect(doc['TLS.identifier']).toBe(clientId);
    expect(doc['TLS.sdkappid']).toBe(TEST_TRTC_SDK_APP_ID);
    expect(doc['TLS.expire']).toBe(600);
    expect(Math.abs(doc['TLS.time'] - now)).toBeLessThan(5);
    const signed = `TLS.identifier:${clientId}\nTLS.sdkappid:${TEST_TRTC_SDK_APP_ID}\nTLS.time:${doc['TLS.time']}\nTLS.expire:600\n`;
    expect(doc['TLS.sig']).toBe(createHmac('sha256', TEST_TRTC_SECRET).update(signed).digest('base64'));
    expect(token.body.trtc_room_id).toMatch(/^[1-9]\d{0,9}$/);

    // force_close: the host is told, the session is closed, and it leaves the list.
    const closed = await get(`/v1/session/${id}/force_close`, user.idToken);
    expect(closed.status).toBe(200);
    expect(closed.body).toEqual({ status: 'ok' });
    expect(host.stopped).toContainEqual({ sessionId: id, reason: 'user' });
    expect((await get(`/v1/session/${id}/status`, user.idToken)).body).toEqual({ status: 'ok', session_state: 'closed' });
    expect((await get('/v1/session/all', user.idToken)).body).toEqual({ status: 'ok', game_sessions: [] });
    // Idempotent.
    expect((await get(`/v1/session/${id}/force_close`, user.idToken)).body).toEqual({ status: 'ok' });
    // Ended: no token any more.
    const late = await get(`/v1/session/${id}/get_token`, user.idToken);
    expect(late.status).toBe(409);
    expect(late.body.error.code).toBe('session_closed');

    // The log of state changes.
    const { rows } = await schema.pool.query('SELECT from_state, to_state, actor FROM session_events WHERE session_id = $1 ORDER BY id', [id]);
    expect(rows.map((row) => row.to_state)).toEqual(['queued', 'allocating', 'starting', 'ready', 'closing', 'closed']);
    await expect(schema.pool.query(`UPDATE session_events SET reason = 'x' WHERE session_id = $1`, [id])).rejects.toThrow(/append-only/);

    // A new session may start now.
    const again = await get(`/v1/game/${GAME}/start`, user.idToken);
    expect(again.status).toBe(200);
    await get(`/v1/session/${again.body.game_session_id}/force_close`, user.idToken);
  });

  it('answers every call with 401 without a bearer token', async () => {
    const id = '00000000-0000-4000-8000-000000000000';
    for (const url of ['/v1/session/all', `/v1/game/${GAME}/start`, `/v1/session/${id}/status`, `/v1/session/${id}/get_token`, `/v1/session/${id}/force_close`]) {
      const answer = await get(url);
      expect(answer.status).toBe(401);
      expect(answer.body.error.code).toBe('unauthorized');
    }
  });

  it('answers an unknown title with 404 game_not_found', async () => {
    const user = await users.email();
    for (const game of ['no-such-title', 'Bad_ID!', 'x'.repeat(80)]) {
      const answer = await get(`/v1/game/${encodeURIComponent(game)}/start`, user.idToken);
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({ status: 'error', error: { code: 'game_not_found', message: expect.stringMatching(/ゲーム/) } });
    }
    const badQuality = await get(`/v1/game/${GAME}/start?quality=ultra`, user.idToken);
    expect(badQuality.status).toBe(400);
    expect((await get('/v1/session/all', user.idToken)).body.game_sessions).toEqual([]);
  });

  it("answers someone else's, unknown and malformed session ids with the same 404", async () => {
    const owner = await users.email();
    const stranger = await users.email();
    const id = await startReady(owner.idToken);
    const bodies: string[] = [];
    for (const sessionId of [id, '00000000-0000-4000-8000-000000000000', 'not-a-uuid', `${id}x`]) {
      for (const call of ['status', 'get_token', 'force_close']) {
        const answer = await get(`/v1/session/${encodeURIComponent(sessionId)}/${call}`, stranger.idToken);
        expect(answer.status).toBe(404);
        bodies.push(answer.raw.toString('utf8'));
      }
    }
    expect(new Set(bodies).size).toBe(1);
    expect(JSON.parse(bodies[0]).error.code).toBe('session_not_found');
    // The stranger's force_close did nothing.
    expect((await get(`/v1/session/${id}/status`, owner.idToken)).body.session_state).toBe('ready');
    expect((await get('/v1/session/all', stranger.idToken)).body.game_sessions).toEqual([]);
    await get(`/v1/session/${id}/force_close`, owner.idToken);
  });

  it('refuses a second live session with 409 instance_limit, also under a race', async () => {
    const user = await users.email();
    const first = await get(`/v1/game/${GAME}/start`, user.idToken);
    expect(first.status).toBe(200);
    for (const game of [GAME, OTHER_GAME]) {
      const second = await get(`/v1/game/${game}/start`, user.idToken);
      expect(second.status).toBe(409);
      expect(second.body.error.code).toBe('instance_limit');
    }
    await get(`/v1/session/${first.body.game_session_id}/force_close`, user.idToken);

    // Five starts at once: exactly one wins.
    const racer = await users.email();
    const answers = await Promise.all(Array.from({ length: 5 }, () => get(`/v1/game/${GAME}/start`, racer.idToken)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409 && a.body.error.code === 'instance_limit')).toHaveLength(4);
    const live = (await get('/v1/session/all', racer.idToken)).body.game_sessions;
    expect(live).toHaveLength(1);
    await get(`/v1/session/${live[0].id}/force_close`, racer.idToken);
  });

  it('lets visitors play only the open title (403 verified_required otherwise)', async () => {
    const visitor = await users.anonymous();
    const refused = await get(`/v1/game/${GAME}/start`, visitor.idToken);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('verified_required');
    expect(refused.body.error.message).toMatch(/登録|ログイン/);
    const open = await get(`/v1/game/${OPEN_PLAY_GAME_ID}/start`, visitor.idToken);
    expect(open.status).toBe(200);
    await get(`/v1/session/${open.body.game_session_id}/force_close`, visitor.idToken);
  });

  it('starts a premium title only for an active subscriber (403 subscription_required otherwise), by our table', async () => {
    const premium = 'amayadori-cafe';
    await schema.pool.query('UPDATE games SET premium = true WHERE id = $1', [premium]);
    try {
      const user = await users.email();
      const refused = await get(`/v1/game/${premium}/start`, user.idToken);
      expect(refused.status).toBe(403);
      expect(refused.body.error.code).toBe('subscription_required');
      expect(refused.body.error.message).toMatch(/プレミアム|プラン|会員/);
      expect((await get('/v1/session/all', user.idToken)).body.game_sessions).toHaveLength(0);

      // An ended subscription grants nothing; an active one (entitled_until ahead) does.
      const insert = (status: string, until: string | null) =>
        schema.pool.query(
          `INSERT INTO subscriptions (uid, processor, processor_subscription_id, processor_customer_id, plan_id, status, amount_jpy,
             current_period_start, current_period_end, created, entitled_until)
           VALUES ($1, 'sandbox', $2, 'cus_test', 'standard', $3, 980, now() - interval '1 day', now() + interval '29 days', now(), $4)`,
          [user.uid, `sub_${status}_${user.uid}`, status, until],
        );
      await schema.pool.query('INSERT INTO users (uid) VALUES ($1) ON CONFLICT (uid) DO NOTHING', [user.uid]);
      await insert('canceled', null);
      expect((await get(`/v1/game/${premium}/start`, user.idToken)).body.error.code).toBe('subscription_required');
      await insert('active', new Date(Date.now() + 30 * 86_400_000).toISOString());
      const started = await get(`/v1/game/${premium}/start`, user.idToken);
      expect(started.status).toBe(200);
      await get(`/v1/session/${started.body.game_session_id}/force_close`, user.idToken);
    } finally {
      await schema.pool.query('UPDATE games SET premium = false WHERE id = $1', [premium]);
    }
  });

  it('answers get_token from the host slot on (allocating, starting), so the player connects while the game starts', async () => {
    const user = await users.email();
    host.autoReady = false;
    try {
      const started = await get(`/v1/game/${GAME}/start`, user.idToken);
      const id = started.body.game_session_id;
      await waitFor(() => host.started.has(id), 5_000, 'host start');
      expect((await get(`/v1/session/${id}/status`, user.idToken)).body.session_state).toBe('allocating');
      const allocating = await get(`/v1/session/${id}/get_token`, user.idToken);
      expect(allocating.status).toBe(200);
      expect(allocating.body.webrtc_signal_token).toEqual(expect.any(String));
      expect((await host.report(id, 'starting')).body).toEqual({ status: 'ok', session_state: 'starting' });
      expect((await get(`/v1/session/${id}/status`, user.idToken)).body.session_state).toBe('starting');
      expect((await get(`/v1/session/${id}/get_token`, user.idToken)).status).toBe(200);
      // the token changes nothing: the session starts on as before
      expect((await get(`/v1/session/${id}/status`, user.idToken)).body.session_state).toBe('starting');
      await host.report(id, 'ready');
      expect((await get(`/v1/session/${id}/get_token`, user.idToken)).status).toBe(200);
      await get(`/v1/session/${id}/force_close`, user.idToken);
    } finally {
      host.autoReady = true;
    }
  });

  it('answers empty agora/trtc fields when no credentials are configured', async () => {
    const plain = await startSessionApp(schema.name, {}, { config: { runMigrations: false } });
    try {
      const user = await users.email();
      const id = await startReady(user.idToken);
      const token = await request(plain.base, 'GET', `/v1/session/${id}/get_token`, { token: user.idToken });
      expect(token.status).toBe(200);
      expect(token.body).toMatchObject({
        agora_app_id: '',
        agora_channel_name: '',
        agora_rtc_token: '',
        agora_rtm_token: '',
        trtc_sdk_app_id: '',
        trtc_user_sig_for_client: '',
        trtc_room_id: '',
        webrtc_ice_servers: [],
        provider: 'webrtc',
        webrtc_signal_url: `ws://127.0.0.1:${plain.port}/v1/signal`,
      });
      expect(token.body.webrtc_signal_token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
      await get(`/v1/session/${id}/force_close`, user.idToken);
    } finally {
      await plain.close();
    }
  });

  describe('collect', () => {
    it('accepts the beacon without a token, as JSON or text/plain, for an existing session only', async () => {
      const user = await users.email();
      const id = await startReady(user.idToken);
      const beacon = { sessionId: id, gameId: GAME, elapsed: 12_345 };
      const json = await request(api.base, 'POST', '/collect', { body: beacon });
      expect(json.status).toBe(200);
      expect(json.body).toEqual({ status: 'ok' });
      const text = await request(api.base, 'POST', '/collect', {
        body: JSON.stringify({ ...beacon, elapsed: 20_000.5 }),
        headers: { 'content-type': 'text/plain;charset=UTF-8' },
      });
      expect(text.status).toBe(200);
      const { rows } = await schema.pool.query('SELECT uid, game_id, elapsed_ms FROM collect_beacons WHERE session_id = $1 ORDER BY id', [id]);
      expect(rows).toEqual([
        { uid: user.uid, game_id: GAME, elapsed_ms: 12_345 },
        { uid: user.uid, game_id: GAME, elapsed_ms: 20_000.5 },
      ]);

      const unknown = await request(api.base, 'POST', '/collect', { body: { ...beacon, sessionId: '00000000-0000-4000-8000-000000000000' } });
      expect(unknown.status).toBe(404);
      expect(unknown.body.error.code).toBe('session_not_found');
      const wrongGame = await request(api.base, 'POST', '/collect', { body: { ...beacon, gameId: OTHER_GAME } });
      expect(wrongGame.status).toBe(404);
      for (const bad of [{ ...beacon, elapsed: -1 }, { ...beacon, elapsed: 'x' }, { sessionId: id, gameId: GAME }, { ...beacon, extra: 1 }, { ...beacon, sessionId: 'nope' }]) {
        expect((await request(api.base, 'POST', '/collect', { body: bad })).status).toBe(400);
      }
      const broken = await request(api.base, 'POST', '/collect', { body: '{"sessionId":', headers: { 'content-type': 'text/plain' } });
      expect(broken.status).toBe(400);
      const big = await request(api.base, 'POST', '/collect', { body: { ...beacon, pad: 'x'.repeat(2_100) } });
      expect(big.status).toBe(413);
      expect(big.body.error.code).toBe('payload_too_large');
      await get(`/v1/session/${id}/force_close`, user.idToken);
    });

    it('accepts WebRTC stats for the caller’s own session, flat and small', async () => {
      const user = await users.email();
      const stranger = await users.email();
      const id = await startReady(user.idToken);
      const stats = { fps: 30, width: 1280, height: 720, rttMs: 12.5, codec: 'VP8', 'inbound.packetsLost': 0 };
      const post = (body: unknown, token?: string) => request(api.base, 'POST', '/v1/collect/stats/webrtc', { body, token });

      expect((await post({ sessionId: id, gameId: GAME, stats })).status).toBe(401);
      const ok = await post({ sessionId: id, gameId: GAME, stats }, user.idToken);
      expect(ok.status).toBe(200);
      expect(ok.body).toEqual({ status: 'ok' });
      const { rows } = await schema.pool.query('SELECT uid, stats FROM collect_webrtc_stats WHERE session_id = $1', [id]);
      expect(rows).toEqual([{ uid: user.uid, stats }]);

      const other = await post({ sessionId: id, gameId: GAME, stats }, stranger.idToken);
      expect(other.status).toBe(404);
      expect(other.body.error.code).toBe('session_not_found');

      const many = Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`k${i}`, i]));
      for (const bad of [{ nested: { a: 1 } }, { list: [1, 2] }, { flag: true }, many, { long: 'x'.repeat(300) }, { 'bad key': 1 }]) {
        expect((await post({ sessionId: id, gameId: GAME, stats: bad }, user.idToken)).status).toBe(400);
      }
      const heavy = Object.fromEntries(Array.from({ length: 64 }, (_, i) => [`key${i}`, 'y'.repeat(250)]));
      const tooBig = await post({ sessionId: id, gameId: GAME, stats: heavy }, user.idToken);
      expect(tooBig.status).toBe(413);
      await get(`/v1/session/${id}/force_close`, user.idToken);
    });
  });
});

describe('limits from the environment', () => {
  let schema: TestSchema;
  const users = new TestUsers();

  beforeAll(async () => {
    schema = await createTestSchema('limits');
  });

  afterAll(async () => {
    await users.cleanup();
    await schema?.drop();
  });

  it('applies the per-title instance limit (409 instance_limit) and the queue cap (503 no_capacity)', async () => {
    const api = await startSessionApp(schema.name, { gameSessionLimit: 1, queueMax: 1 });
    try {
      const [a, b, c] = [await users.email(), await users.email(), await users.email()];
      // No host at all: the first session waits in the queue.
      const first = await request(api.base, 'GET', `/v1/game/${GAME}/start`, { token: a.idToken });
      expect(first.status).toBe(200);
      const status = await request(api.base, 'GET', `/v1/session/${first.body.game_session_id}/status`, { token: a.idToken });
      expect(status.body).toEqual({ status: 'ok', session_state: 'queued', queue_position: 1 });
      // no host yet: no token (409 session_not_ready)
      const early = await request(api.base, 'GET', `/v1/session/${first.body.game_session_id}/get_token`, { token: a.idToken });
      expect(early.status).toBe(409);
      expect(early.body.error.code).toBe('session_not_ready');

      const sameTitle = await request(api.base, 'GET', `/v1/game/${GAME}/start`, { token: b.idToken });
      expect(sameTitle.status).toBe(409);
      expect(sameTitle.body.error.code).toBe('instance_limit');

      const queueFull = await request(api.base, 'GET', `/v1/game/${OTHER_GAME}/start`, { token: c.idToken });
      expect(queueFull.status).toBe(503);
      expect(queueFull.body.error.code).toBe('no_capacity');
    } finally {
      await api.close();
    }
  });
});
