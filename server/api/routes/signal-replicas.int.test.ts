/**
 * Signalling across two api replicas (docs/sessions.md, "Signalling across replicas"): two apps on
 * one PostgreSQL schema, the host's socket on one and the player's on the other, paired through
 * the signal bus (LISTEN/NOTIFY): joins, frames both ways (one larger than a NOTIFY payload),
 * leaves, a reconnect through the other replica replacing the stale socket, a session ending on
 * one replica closing the sockets on the other, and the bus reopening its connection.
 */
import { channelFor, CHUNK_BYTES, encodeEvent, EventAssembler, type BusEvent } from '../services/signalBus';
import { FakeHost } from '../testing/fake-host';
import { request, startSessionApp, TEST_HOST_SECRET, TestUsers, waitFor, type SessionTestApp } from '../testing/sessions';
import { readySignalSession, SignalPeer } from '../testing/signal-peer';
import { createTestSchema, type TestSchema } from '../testing/test-app';

jest.setTimeout(60_000);

const GAME = 'hoshifuru-toshokan';

describe('the signal bus envelope', () => {
  it('splits a 64 kB frame into NOTIFY-sized chunks and puts it together again, in any order', () => {
    const event: BusEvent = { kind: 'frame', sessionId: 's', to: 'player', text: JSON.stringify({ type: 'offer', sdp: 'あ'.repeat(20_000) }) };
    const chunks = encodeEvent(event, 'replica-a', 7);
    expect(chunks.length).toBe(Math.ceil(Buffer.byteLength(JSON.stringify(event)) / CHUNK_BYTES));
    for (const chunk of chunks) expect(Buffer.byteLength(chunk)).toBeLessThan(8000);
    const assembler = new EventAssembler();
    const outs = [...chunks].reverse().map((chunk) => assembler.add(chunk));
    expect(outs.slice(0, -1).every((out) => out === null)).toBe(true);
    expect(outs.at(-1)).toEqual({ origin: 'replica-a', event });
  });

  it('gives up on an event with a chunk missing, and ignores junk', () => {
    const assembler = new EventAssembler();
    const event: BusEvent = { kind: 'frame', sessionId: 's', to: 'host', text: 'x'.repeat(3 * CHUNK_BYTES) };
    const chunks = encodeEvent(event, 'r', 1);
    assembler.add(chunks[0], 0);
    assembler.add(chunks[1], 0);
    expect(assembler.add('not json', 1)).toBeNull();
    expect(assembler.add(JSON.stringify({ o: 'r', i: 2, n: 5, c: 2, d: '' }), 1)).toBeNull();
    // the first event's last chunk never comes: given up once another chunk arrives past the TTL
    assembler.add(encodeEvent(event, 'r', 3)[0], 60_000);
    expect(assembler.lost).toBe(3);
  });
});

describe('signalling across two api replicas', () => {
  let schema: TestSchema;
  let a: SessionTestApp;
  let b: SessionTestApp;
  let host: FakeHost;
  const users = new TestUsers();
  const peers: SignalPeer[] = [];

  function peer(app: SessionTestApp, token: string, peerId?: string): SignalPeer {
    const p = new SignalPeer(app.app.signalUrl(), token, peerId);
    peers.push(p);
    return p;
  }

  // started through replica A, polled and its token got through replica B
  const readySession = () => readySignalSession(users, host, GAME, a.base, b.base);

  beforeAll(async () => {
    schema = await createTestSchema('sigrep');
    // The sweeper's own check for ended sessions is slow here: endings must travel on the bus.
    const sessions = { reconnectGraceMs: 30_000, readyJoinTimeoutMs: 30_000, sweepIntervalMs: 60_000 };
    a = await startSessionApp(schema.name, sessions);
    b = await startSessionApp(schema.name, sessions);
    host = await new FakeHost({ id: 'host-rep', capacity: 8, secret: TEST_HOST_SECRET, apiBase: a.base }).listen();
    await host.register();
  });

  afterAll(async () => {
    for (const p of peers) p.ws.terminate();
    await host?.close();
    await a?.close();
    await b?.close();
    await users.cleanup();
    await schema?.drop();
  });

  it('pairs a host on one replica with a player on the other and relays both ways, large frames too', async () => {
    const s = await readySession();
    const h = peer(a, s.hostToken);
    await h.opened;
    await waitFor(() => a.app.signalRelay.has(s.id, 'host'));
    const p = peer(b, s.playerToken);
    await p.next({ type: 'peer-joined', role: 'host' });
    await h.next({ type: 'peer-joined', role: 'player' });
    expect(b.app.signalRelay.has(s.id, 'host')).toBe(false);

    const sdp = `v=0\r\n${'a=candidate:1 1 udp 2122260223 127.0.0.1 50000 typ host\r\n'.repeat(600)}`;
    expect(sdp.length).toBeGreaterThan(30_000);
    h.send({ type: 'offer', sdp });
    const offer = await p.next({ type: 'offer' });
    expect(offer.sdp).toBe(sdp);
    p.send({ type: 'answer', sdp: 'v=0 player-answer' });
    await h.next({ type: 'answer', sdp: 'v=0 player-answer' });
    // a burst of candidates keeps its order
    const before = a.app.signalRelay.stats();
    for (let i = 0; i < 30; i++) h.send({ type: 'ice', candidate: { candidate: `candidate:${i} 1 udp 1 127.0.0.1 ${5000 + i} typ host`, sdpMid: '0', sdpMLineIndex: 0 } });
    await waitFor(() => p.count('ice') === 30, 5_000, '30 candidates');
    expect(p.frames.filter((f) => f.type === 'ice').map((f) => (f.candidate as { candidate: string }).candidate.split(' ')[0])).toEqual(
      Array.from({ length: 30 }, (_, i) => `candidate:${i}`),
    );
    expect(b.app.signalRelay.stats().relayedIn).toBeGreaterThanOrEqual(31);
    // the host's replica handed them to the bus: published there, not counted as relayed
    const after = a.app.signalRelay.stats();
    expect(after.published - before.published).toBe(30);
    expect(after.relayed).toBe(before.relayed);

    // the player leaves: the host on the other replica is told
    p.close();
    await h.next({ type: 'peer-left', role: 'player' });
    h.close();
  });

  it('a player reconnecting through the other replica replaces its stale socket; the host hears one join', async () => {
    const s = await readySession();
    const h = peer(a, s.hostToken);
    await h.opened;
    const first = peer(b, s.playerToken, 'page-0123456789');
    await first.next({ type: 'peer-joined', role: 'host' });
    // the host learns the page's id: the same id again is the same page (it keeps its connection)
    await h.next({ type: 'peer-joined', role: 'player', peer: 'page-0123456789' });
    // the same player again, now through replica A (B still holds the old socket)
    const second = peer(a, s.playerToken, 'page-0123456789');
    await second.next({ type: 'peer-joined', role: 'host' });
    expect(await first.waitClosed()).toBe(4409);
    await waitFor(() => h.count('peer-joined') === 2, 3_000, 'two joins');
    expect(h.frames.filter((f) => f.type === 'peer-joined').map((f) => f.peer)).toEqual(['page-0123456789', 'page-0123456789']);
    // host and player joined at once, each replica answering the other's join: still one each
    expect(first.count('peer-joined')).toBe(1);
    expect(h.count('peer-left')).toBe(0);
    h.send({ type: 'offer', sdp: 'v=0 fresh' });
    await second.next({ type: 'offer', sdp: 'v=0 fresh' });
    expect(first.frames.some((f) => f.sdp === 'v=0 fresh')).toBe(false);
    second.close();
    h.close();
  });

  it('a session ended through one replica closes its sockets on the other at once', async () => {
    const s = await readySession();
    const h = peer(a, s.hostToken);
    await h.opened;
    const p = peer(b, s.playerToken);
    await p.next({ type: 'peer-joined', role: 'host' });
    await request(b.base, 'GET', `/v1/session/${s.id}/force_close`, { token: s.idToken });
    // well before the 60 s sweep: the bus carried it
    await h.next({ type: 'closed', reason: 'user' }, 3_000);
    expect(await h.waitClosed()).toBe(1000);
    expect(await p.waitClosed()).toBe(1000);
  });

  it('reopens its connection when PostgreSQL drops it, and relays again', async () => {
    const { rows } = await schema.pool.query(`SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity WHERE application_name = $1`, [channelFor(schema.name)]);
    expect(rows.length).toBe(2);
    await waitFor(() => a.app.signalRelay.busStats()?.connected === false || b.app.signalRelay.busStats()?.connected === false, 3_000, 'a bus sees the drop').catch(() => undefined);
    await waitFor(() => a.app.signalRelay.busStats()?.connected && b.app.signalRelay.busStats()?.connected, 10_000, 'both buses back');
    const s = await readySession();
    const h = peer(a, s.hostToken);
    await h.opened;
    const p = peer(b, s.playerToken);
    await p.next({ type: 'peer-joined', role: 'host' }, 5_000);
    h.send({ type: 'offer', sdp: 'v=0 after-reconnect' });
    await p.next({ type: 'offer', sdp: 'v=0 after-reconnect' });
    p.close();
    h.close();
  });
});
