/**
 * The multi-node stack under failure (docs/cluster.md, issue 14 §2), against the cluster that
 * scripts/test.ts starts (2 api and 2 web replicas behind HAProxy, 3 host agents, coturn):
 * players reach the api only through HAProxy, as the web's pages do. The cases run in order on
 * one cluster, each leaving it whole again (a killed api or web replica is started again; the
 * host kill comes last).
 */
import { createHmac } from 'node:crypto';
import {
  api,
  cluster,
  control,
  createUser,
  forceClose,
  getToken,
  hostSession,
  LIVE_STATES,
  proxyStates,
  query,
  sessionRow,
  sessionState,
  signalConnections,
  sleep,
  startSession,
  until,
  waitForState,
  type User,
} from './cluster-client';
import { Players, type Player } from './players';

const players = new Players();
/** Sessions to close after each case (so the next one finds free hosts). */
const open: { user: User; id: string }[] = [];

beforeAll(async () => {
  await players.start();
}, 60_000);

afterEach(async () => {
  for (const s of open.splice(0)) await forceClose(s.user, s.id);
  // The hosts see the closes and free their runtimes before the next case starts sessions.
  await until(async () => (await query(`SELECT 1 FROM sessions WHERE state = ANY($1)`, [[...LIVE_STATES, 'closing']])).length === 0, 'every session closed', 30_000).catch(() => undefined);
}, 60_000);

afterAll(async () => {
  await players.stop();
});

/**
 * A user with a session that a player streams, and the api replica holding the player's
 * signalling socket (the one more socket there after the player joined than before; the host's
 * is open from the start).
 */
async function playing(): Promise<{ user: User; id: string; player: Player; playerReplica: string | null }> {
  const user = await createUser();
  const id = await startSession(user);
  open.push({ user, id });
  await waitForState(user, id, ['ready'], 60_000);
  await sleep(500);
  const before = await signalConnections();
  const player = await players.join(user, id);
  await player.waitForFrames(5);
  await waitForState(user, id, ['playing'], 30_000);
  const after = await signalConnections();
  const i = after.findIndex((n, k) => n > before[k]);
  return { user, id, player, playerReplica: i >= 0 ? cluster.apis[i].name : null };
}

/**
 * What a player does while something fails under it, as the play page does: a status poll every
 * 500 ms and an input (a ping the host answers) every 250 ms, each one counted.
 */
function keepPlaying(user: User, id: string, player: Player) {
  const polls: { ok: boolean; state: string }[] = [];
  const sent: number[] = [];
  let stop = false;
  const poller = (async () => {
    while (!stop) {
      const s = await sessionState(user, id).then(
        (r) => ({ ok: true, state: r.session_state }),
        (e: Error) => ({ ok: false, state: e.message }),
      );
      polls.push(s);
      await sleep(500);
    }
  })();
  const pinger = (async () => {
    let t = 1;
    while (!stop) {
      if (await player.ping(t).catch(() => false)) sent.push(t);
      t += 1;
      await sleep(250);
    }
  })();
  return {
    async end() {
      stop = true;
      await Promise.all([poller, pinger]);
      // The last pongs are on their way.
      await until(async () => (await player.pongs()).length >= sent.length, 'every ping answered', 5_000).catch(() => undefined);
      const pongs = new Set(await player.pongs());
      // Offers after the first: the peer connection was replaced (negotiated again from scratch).
      const offers = (await player.signalFrames()).filter((f) => f.type === 'offer').length;
      const context = { offers, states: (await player.states()).join(',') };
      return { polls, sent, lost: sent.filter((t) => !pongs.has(t)), failedPolls: polls.filter((p) => !p.ok || !LIVE_STATES.includes(p.state)), context };
    },
  };
}

describe('the cluster', () => {
  it('spreads sessions from several users over the three hosts', async () => {
    const users = await Promise.all(cluster.hosts.map(() => createUser()));
    const ids = await Promise.all(users.map((u) => startSession(u)));
    users.forEach((user, i) => open.push({ user, id: ids[i] }));
    await Promise.all(users.map((u, i) => waitForState(u, ids[i], ['ready', 'playing'], 90_000)));
    const rows = await Promise.all(ids.map((id) => sessionRow(id)));
    expect(new Set(rows.map((r) => r.host_id)).size).toBe(cluster.hosts.length);
    expect(rows.map((r) => r.host_id).sort()).toEqual(cluster.hosts.map((h) => h.hostId).sort());
    // Each one streams to its player, signalling through HAProxy.
    const joined = await Promise.all(users.map((u, i) => players.join(u, ids[i])));
    await Promise.all(joined.map((p) => p.waitForFrames(5)));
    for (const p of joined) await p.close();
  }, 180_000);

  it('streams through coturn to a player forced to relay, with TURN credentials that expire', async () => {
    const user = await createUser();
    const id = await startSession(user);
    open.push({ user, id });
    const token = await getToken(user, id);
    const turn = token.webrtc_ice_servers.find((s) => [s.urls].flat().some((u) => u.startsWith('turn:')));
    expect(turn).toBeDefined();
    // coturn's REST-API credential: "<expiry>:<session>", HMAC-SHA1 of it with the shared secret.
    const [expiry, who] = turn!.username!.split(':');
    const now = Math.floor(Date.now() / 1000);
    expect(who).toBe(id);
    expect(Number(expiry)).toBeGreaterThan(now);
    expect(Number(expiry)).toBeLessThanOrEqual(now + cluster.turnTtlS + 5);
    expect(turn!.credential).toBe(createHmac('sha1', cluster.turnSecret).update(turn!.username!).digest('base64'));

    // coturn hands out relay addresses for this credential, and refuses the same kind of
    // credential once its time has passed (and one signed with another secret).
    const fresh = await players.gatherRelay([turn!]);
    expect(fresh.types).toContain('relay');
    const expiredName = `${now - 60}:${id}`;
    const expired = await players.gatherRelay([{ urls: turn!.urls, username: expiredName, credential: createHmac('sha1', cluster.turnSecret).update(expiredName).digest('base64') }]);
    expect(expired.types).not.toContain('relay');
    const forged = await players.gatherRelay([{ ...turn!, credential: createHmac('sha1', 'not-the-secret').update(turn!.username!).digest('base64') }]);
    expect(forged.types).not.toContain('relay');

    // The relay-only player streams, over a relayed candidate pair.
    const player = await players.join(user, id, { relayOnly: true, token });
    await player.waitForFrames(10);
    expect(await player.candidateType()).toBe('relay');
    await player.close();
  }, 150_000);

  it('keeps a session whole when an api replica is killed (SIGKILL) under it', async () => {
    const { user, id, player, playerReplica } = await playing();
    // The hard case: the replica the player's signalling goes through (found by its open sockets).
    expect(playerReplica).not.toBeNull();
    const victim = playerReplica!;
    const run = keepPlaying(user, id, player);
    await sleep(2_000);
    await control('kill', victim);
    try {
      await sleep(8_000);
      const framesDuring = (await player.video()).frames;
      await player.waitForFrames(5, 15_000);
      const result = await run.end();
      // The stream went on; every poll was answered (by the other replica), every input arrived.
      expect(result.failedPolls).toEqual([]);
      expect(result.polls.length).toBeGreaterThan(15);
      expect({ lost: result.lost, ...result.context }).toEqual({ lost: [], ...result.context });
      expect(result.sent.length).toBeGreaterThan(30);
      expect((await player.video()).frames).toBeGreaterThan(framesDuring);
      // The peer connection is the one from before: losing the signalling does not renegotiate it.
      expect(result.context.offers).toBe(1);
      expect((await sessionRow(id)).state).toBe('playing');
      expect((await proxyStates())[victim]).toMatch(/^DOWN/);
      // And the api still hands out tokens for it.
      expect((await api(`/v1/session/${id}/get_token`, user)).status).toBe(200);
    } finally {
      // the next cases need both replicas, whatever failed here
      await control('start', victim);
      await player.close();
    }
  }, 120_000);

  it('drops nothing during a rolling restart of the api replicas', async () => {
    const { user, id, player } = await playing();
    const run = keepPlaying(user, id, player);
    for (const a of cluster.apis) await control('restart', a.name);
    await sleep(2_000);
    await player.waitForFrames(5, 15_000);
    const result = await run.end();
    expect(result.failedPolls).toEqual([]);
    expect({ lost: result.lost, ...result.context }).toEqual({ lost: [], ...result.context });
    expect(result.sent.length).toBeGreaterThan(10);
    expect(result.context.offers).toBe(1);
    expect((await sessionRow(id)).state).toBe('playing');
    const states = await proxyStates();
    for (const a of cluster.apis) expect(states[a.name]).toMatch(/^UP/);
    // A new player's join (token, signalling) works through the restarted replicas.
    await player.close();
    const again = await players.join(user, id);
    await again.waitForFrames(5);
    await again.close();
  }, 180_000);

  it('serves the web through HAProxy while a web replica is down', async () => {
    const get = async (p: string) => (await fetch(`${cluster.webUrl}${p}`, { signal: AbortSignal.timeout(15_000) })).status;
    await control('kill', 'web-1');
    try {
      // Every page asked while web-1 is dead (before and after HAProxy's checks take it out) is served.
      const statuses: number[] = [];
      for (let i = 0; i < 8; i++) {
        statuses.push(await get(i % 2 ? '/brand' : '/'));
        await sleep(300);
      }
      expect(statuses).toEqual(statuses.map(() => 200));
      expect((await proxyStates())['web-1']).toMatch(/^DOWN/);
    } finally {
      await control('start', 'web-1');
    }
    expect(await get('/')).toBe(200);
  }, 90_000);

  it('tells the players of a killed host within 15 s, frees its slots and starts new sessions elsewhere', async () => {
    const { user, id, player } = await playing();
    const { host_id: hostId } = await sessionRow(id);
    const victim = cluster.hosts.find((h) => h.hostId === hostId)!;
    expect(victim).toBeDefined();
    expect(await hostSession(victim, id)).not.toBeNull();

    const killedAt = Date.now();
    await control('kill', victim.name);
    // The player is told on its signalling (`closed`), and its status says the session failed.
    const told = await until(async () => (await player.signalFrames()).find((f) => f.type === 'closed'), 'the player to be told (closed)', 15_000, 200);
    const toldMs = Date.now() - killedAt;
    expect(toldMs).toBeLessThanOrEqual(15_000);
    // with the host's loss as its reason (the sweeper's), not an ordinary close
    expect(told).toEqual({ type: 'closed', reason: 'host_lost' });
    expect(await sessionState(user, id)).toMatchObject({ session_state: 'failed' });
    // Its slots are freed: no live session on it, the host out of the scheduler.
    expect(await query(`SELECT id FROM sessions WHERE host_id = $1 AND state = ANY($2)`, [hostId, [...LIVE_STATES, 'closing']])).toEqual([]);
    const [host] = await query<{ state: string }>('SELECT state FROM hosts WHERE id = $1', [hostId]);
    expect(host?.state ?? 'gone').not.toBe('Ready');

    // New sessions start on the other hosts.
    const others = await Promise.all([createUser(), createUser()]);
    const ids = await Promise.all(others.map((u) => startSession(u)));
    others.forEach((u, i) => open.push({ user: u, id: ids[i] }));
    await Promise.all(others.map((u, i) => waitForState(u, ids[i], ['ready', 'playing'], 60_000)));
    for (const sid of ids) expect((await sessionRow(sid)).host_id).not.toBe(hostId);
    const fresh = await players.join(others[0], ids[0]);
    await fresh.waitForFrames(5);
    await fresh.close();
    await player.close();
  }, 150_000);
});
