import { SignalTokens } from '../services/tokens';
import { FakeHost } from '../testing/fake-host';
import { request, sleep, startSessionApp, TEST_HOST_SECRET, TestUsers, waitFor, type SessionTestApp } from '../testing/sessions';
import { readySignalSession, SignalPeer as Peer } from '../testing/signal-peer';
import { createTestSchema, type TestSchema } from '../testing/test-app';

jest.setTimeout(60_000);

const GAME = 'hoshifuru-toshokan';

describe('signalling relay GET /v1/signal', () => {
  let schema: TestSchema;
  let api: SessionTestApp;
  let host: FakeHost;
  const users = new TestUsers();
  const peers: Peer[] = [];

  function peer(token: string, url = api.app.signalUrl()): Peer {
    const p = new Peer(url, token);
    peers.push(p);
    return p;
  }

  const readySession = () => readySignalSession(users, host, GAME, api.base);

  async function state(id: string): Promise<{ state: string; close_reason: string | null; player_left_at: Date | null }> {
    const { rows } = await schema.pool.query('SELECT state, close_reason, player_left_at FROM sessions WHERE id = $1', [id]);
    return rows[0];
  }

  beforeAll(async () => {
    schema = await createTestSchema('signal');
    api = await startSessionApp(schema.name, { reconnectGraceMs: 600, readyJoinTimeoutMs: 30_000, sweepIntervalMs: 100 });
    host = await new FakeHost({ id: 'host-sig', capacity: 8, secret: TEST_HOST_SECRET, apiBase: api.base }).listen();
    await host.register();
  });

  afterAll(async () => {
    for (const p of peers) p.ws.terminate();
    await host?.close();
    await api?.close();
    await users.cleanup();
    await schema?.drop();
  });

  it('pairs host and player, relays what mayRelay allows, and marks the session playing', async () => {
    const s = await readySession();
    expect(api.app.signalUrl()).toBe(`ws://127.0.0.1:${api.port}/v1/signal`);
    const h = peer(s.hostToken);
    await h.opened;
    await waitFor(() => api.app.signalRelay.has(s.id, 'host'));
    expect((await state(s.id)).state).toBe('ready');

    const p = peer(s.playerToken);
    await p.opened;
    await p.next({ type: 'peer-joined', role: 'host' });
    await h.next({ type: 'peer-joined', role: 'player' });
    await waitFor(async () => (await state(s.id)).state === 'playing', 3_000, 'playing');

    const relayedBefore = api.app.signalRelay.stats().relayed;
    const droppedBefore = api.app.signalRelay.stats().dropped;
    h.send({ type: 'offer', sdp: 'v=0 host-offer' });
    await p.next({ type: 'offer', sdp: 'v=0 host-offer' });
    p.send({ type: 'answer', sdp: 'v=0 player-answer' });
    await h.next({ type: 'answer', sdp: 'v=0 player-answer' });
    const candidate = { candidate: 'candidate:1 1 udp 2122260223 127.0.0.1 50000 typ host', sdpMid: '0', sdpMLineIndex: 0 };
    p.send({ type: 'ice', candidate });
    h.send({ type: 'ice', candidate: null });
    await h.next({ type: 'ice', candidate });
    await p.next({ type: 'ice', candidate: null });

    // Dropped: a player's offer, a host's answer, frames only the api may send, junk, binary.
    p.send({ type: 'offer', sdp: 'forged' });
    h.send({ type: 'answer', sdp: 'forged' });
    p.send({ type: 'peer-joined', role: 'host' });
    p.send({ type: 'closed', reason: 'forged' });
    p.send('not json');
    p.send({ type: 'ice', candidate: { nope: 1 } });
    p.ws.send(Buffer.from([1, 2, 3]), { binary: true });
    // Over 64 kB: dropped, the connection stays.
    h.send({ type: 'offer', sdp: 'x'.repeat(70 * 1024) });
    h.send({ type: 'offer', sdp: 'v=0 second-offer' });
    await p.next({ type: 'offer', sdp: 'v=0 second-offer' });
    await sleep(100);
    expect(p.frames.filter((f) => f.type === 'offer').map((f) => f.sdp)).toEqual(['v=0 host-offer', 'v=0 second-offer']);
    expect(h.count('answer')).toBe(1);
    expect(p.count('closed')).toBe(0);
    const stats = api.app.signalRelay.stats();
    expect(stats.relayed - relayedBefore).toBe(5);
    expect(stats.dropped - droppedBefore).toBe(8);

    p.close();
    h.close();
  });

  it('rate-limits a flood per connection and closes a connection that keeps flooding', async () => {
    const s = await readySession();
    const h = peer(s.hostToken);
    const p = peer(s.playerToken);
    await Promise.all([h.opened, p.opened]);
    await h.next({ type: 'peer-joined', role: 'player' });
    const frame = JSON.stringify({ type: 'ice', candidate: { candidate: 'candidate:2 1 udp 1 127.0.0.1 1 typ host', sdpMid: '0', sdpMLineIndex: 0 } });
    for (let i = 0; i < 400; i++) p.ws.send(frame);
    await sleep(500);
    const received = h.count('ice');
    expect(received).toBeGreaterThanOrEqual(200);
    expect(received).toBeLessThan(300);
    // Keep flooding: the relay gives up on this connection.
    for (let i = 0; i < 1500; i++) p.ws.send(frame);
    expect(await p.waitClosed()).toBe(4429);
    await h.next({ type: 'peer-left', role: 'player' });
    h.close();
  });

  it('replaces an older player connection (reconnect) and tells the host', async () => {
    const s = await readySession();
    const h = peer(s.hostToken);
    await h.opened;
    const first = peer(s.playerToken);
    await first.next({ type: 'peer-joined', role: 'host' });
    const second = peer(s.playerToken);
    await second.next({ type: 'peer-joined', role: 'host' });
    expect(await first.waitClosed()).toBe(4409);
    await waitFor(() => h.count('peer-joined') === 2, 3_000, 'two joins');
    expect(h.count('peer-left')).toBe(0);
    // The new one is the one relayed to.
    h.send({ type: 'offer', sdp: 'v=0 fresh' });
    await second.next({ type: 'offer', sdp: 'v=0 fresh' });
    expect(first.frames.some((f) => f.sdp === 'v=0 fresh')).toBe(false);
    second.close();
    h.close();
  });

  it('gives a dropped player the reconnect grace, then closes the session (disconnected)', async () => {
    const s = await readySession();
    const h = peer(s.hostToken);
    const p = peer(s.playerToken);
    await p.next({ type: 'peer-joined', role: 'host' });
    await waitFor(async () => (await state(s.id)).state === 'playing');

    // Dropped and back within the grace: still playing.
    p.ws.terminate();
    await h.next({ type: 'peer-left', role: 'player' });
    await waitFor(async () => (await state(s.id)).player_left_at !== null, 2_000, 'left recorded');
    const back = peer(s.playerToken);
    await back.next({ type: 'peer-joined', role: 'host' });
    await waitFor(async () => (await state(s.id)).player_left_at === null, 2_000, 'return recorded');
    await sleep(800);
    expect((await state(s.id)).state).toBe('playing');

    // Dropped for good: closed after the grace; the host is told on the socket and by DELETE.
    back.ws.terminate();
    await h.next({ type: 'closed', reason: 'disconnected' }, 5_000);
    expect(await h.waitClosed()).toBe(1000);
    // `closed` goes out as the session starts closing; closed once the host confirmed the stop.
    await waitFor(async () => (await state(s.id)).state === 'closed', 3_000, 'closed');
    expect((await state(s.id)).close_reason).toBe('disconnected');
    expect(host.stopped).toContainEqual({ sessionId: s.id, reason: 'disconnected' });
  });

  it('sends {type:"closed"} to both peers when the session is force-closed', async () => {
    const s = await readySession();
    const h = peer(s.hostToken);
    const p = peer(s.playerToken);
    await p.next({ type: 'peer-joined', role: 'host' });
    await request(api.base, 'GET', `/v1/session/${s.id}/force_close`, { token: s.idToken });
    await p.next({ type: 'closed', reason: 'user' });
    await h.next({ type: 'closed', reason: 'user' });
    expect(await p.waitClosed()).toBe(1000);
    expect(await h.waitClosed()).toBe(1000);

    // The session is over: its tokens no longer open a socket.
    const late = peer(s.playerToken);
    expect(await late.waitClosed()).toBe(4404);
  });

  it('refuses bad and expired tokens with 4401, and sessions that are not live or not the user’s with 4404', async () => {
    const s = await readySession();
    const garbage = peer('not-a-token');
    expect(await garbage.waitClosed()).toBe(4401);
    const none = new Peer(api.app.signalUrl(), '');
    peers.push(none);
    expect(await none.waitClosed()).toBe(4401);

    const forged = await new SignalTokens('another-secret-0123456789abcdef').sign({ sessionId: s.id, uid: s.uid, role: 'player' }, 60);
    expect(await peer(forged).waitClosed()).toBe(4401);

    const expired = await api.app.signalTokens.sign({ sessionId: s.id, uid: s.uid, role: 'player' }, -5);
    const old = peer(expired);
    expect(await old.waitClosed()).toBe(4401);
    expect(old.closeReason).toBe('token expired');

    const otherUser = await api.app.signalTokens.sign({ sessionId: s.id, uid: 'someone-else', role: 'player' }, 60);
    expect(await peer(otherUser).waitClosed()).toBe(4404);
    const unknown = await api.app.signalTokens.sign({ sessionId: '00000000-0000-4000-8000-000000000000', uid: s.uid, role: 'host' }, 60);
    expect(await peer(unknown).waitClosed()).toBe(4404);

    // The valid token still works.
    const ok = peer(s.playerToken);
    await ok.opened;
    await sleep(200);
    expect(ok.closeCode).toBeNull();
    ok.close();
    await request(api.base, 'GET', `/v1/session/${s.id}/force_close`, { token: s.idToken });

    // A plain HTTP GET is not a WebSocket.
    const plain = await request(api.base, 'GET', '/v1/signal?token=x');
    expect(plain.status).toBe(400);
    expect(plain.body.status).toBe('error');
  });
});
