/**
 * A warm runtime's WebRTC warm-up (lib/streaming/webrtc/warmup.ts, run by the page's prewarm:
 * server/host/page/prewarm.ts) in real Chromium, through the agent and the fake api peer: the
 * session's publisher connection is made with the certificate the warm-up generated (given in its
 * configuration, kept by the connection, its fingerprint the one the offer carries), a real player
 * connects over it, and the connection for the player's rejoin takes the same certificate. A
 * runtime warmed without the prewarm (HOST_PREWARM=0) leaves its connections to Chromium's own
 * certificate. The page's RTCPeerConnection is wrapped (after the warm-up, before the session) to
 * see the publisher's connections; nothing else changes.
 */
import type { Runtime } from './runtime';
import { launchPlayer, startTestHost, until, type TestHost, type TestPlayer } from './testing/harness';
import { pageRuntimes } from './testing/page-runtime';

jest.setTimeout(120_000);

/** What the test reads of each connection the publisher made. */
interface SeenConnection {
  /** The certificates given to the constructor (their first fingerprint each). */
  given: string[];
  /** getConfiguration().certificates (their first fingerprint each). */
  kept: string[];
  /** a=fingerprint of the local description, once set. */
  offered: string | null;
  /** When the given certificate expires (ms since the epoch), or null. */
  expires: number | null;
}

declare global {
  interface Window {
    __warmupSeen?: { pcs: RTCPeerConnection[]; given: (RTCCertificate[] | null)[] };
  }
}

/** Wraps the page's RTCPeerConnection to record every connection made from now on. */
function watchConnections(rt: Runtime): Promise<void> {
  return rt.livePage.evaluate(() => {
    const Base = window.RTCPeerConnection;
    const seen = (window.__warmupSeen = { pcs: [] as RTCPeerConnection[], given: [] as (RTCCertificate[] | null)[] });
    class Watched extends Base {
      constructor(cfg?: RTCConfiguration) {
        super(cfg);
        seen.pcs.push(this);
        seen.given.push(cfg?.certificates ? [...cfg.certificates] : null);
      }
    }
    window.RTCPeerConnection = Watched as typeof RTCPeerConnection;
  });
}

function connections(rt: Runtime): Promise<SeenConnection[]> {
  return rt.livePage.evaluate(() => {
    const fp = (c: RTCCertificate) => `${c.getFingerprints()[0].algorithm} ${c.getFingerprints()[0].value}`.toLowerCase();
    const seen = window.__warmupSeen!;
    return seen.pcs.map((pc, i) => {
      const line = /^a=fingerprint:(\S+) (\S+)/m.exec(pc.localDescription?.sdp ?? '');
      const given = seen.given[i];
      return {
        given: given ? given.map(fp) : [],
        kept: (pc.getConfiguration().certificates ?? []).map(fp),
        offered: line ? `${line[1]} ${line[2]}`.toLowerCase() : null,
        expires: given?.[0]?.expires ?? null,
      };
    });
  });
}

async function warmRuntime(host: TestHost): Promise<Runtime> {
  await host.agent.pool.whenWarm(1, 60_000);
  return pageRuntimes(host.agent.pool).find((r) => r.state === 'warm')!;
}

async function startSession(host: TestHost, sid: string): Promise<void> {
  expect((await host.startSession(sid)).status).toBe(202);
  await until(() => host.api.states(sid).includes('ready'), `${sid} ready`, 30_000, 10);
}

describe('a warm runtime (prewarmed)', () => {
  let host: TestHost;
  let player: TestPlayer | null = null;

  beforeAll(async () => {
    host = await startTestHost({ HOST_CAPACITY: '1', HOST_WARM_POOL: '1', HOST_RECONNECT_GRACE_MS: '20000' });
  });

  afterAll(async () => {
    await player?.close().catch(() => undefined);
    await host?.stop();
  });

  it("makes the session's connections with the certificate its warm-up generated, and a player connects over it", async () => {
    const rt = await warmRuntime(host);
    await watchConnections(rt);
    const sid = 's-warm-cert';
    const before = Date.now();
    await startSession(host, sid);
    // the connection made ahead for the first player: one certificate given, kept, offered
    const [first] = await until(async () => {
      const c = await connections(rt);
      return c.length >= 1 && c[0].offered ? c : null;
    }, 'the prepared offer');
    expect(first.given).toHaveLength(1);
    expect(first.kept).toEqual(first.given);
    expect(first.offered).toBe(first.given[0]);
    // handed out only with more than CERT_MIN_LIFE_MS (a day) to live
    expect(first.expires).not.toBeNull();
    expect(first.expires! - before).toBeGreaterThan(24 * 3600_000);

    // a real player connects with it (DTLS against the warm certificate); a rejoin gets a new
    // connection with the same certificate
    player = await launchPlayer(host.api);
    await player.join(sid);
    await player.waitForMessage('ready', 30_000);
    await player.page.evaluate(() => window.player.leave());
    await player.join(sid);
    await until(async () => (await player!.messages()).filter((m) => m.type === 'ready').length >= 2, 'ready after the rejoin', 30_000);
    const all = await connections(rt);
    expect(all.length).toBeGreaterThanOrEqual(2);
    for (const c of all) {
      expect(c.given).toEqual(first.given);
      expect(c.kept).toEqual(first.given);
    }
    expect(all.at(-1)!.offered).toBe(first.given[0]);
    expect((await host.request('DELETE', `/sessions/${sid}?reason=user`)).status).toBeLessThan(300);
  });
});

describe('a runtime warmed without the prewarm (HOST_PREWARM=0)', () => {
  let host: TestHost;

  beforeAll(async () => {
    host = await startTestHost({ HOST_CAPACITY: '1', HOST_WARM_POOL: '1', HOST_PREWARM: '0' });
  });

  afterAll(async () => {
    await host?.stop();
  });

  it("gives its connection no certificate (Chromium makes the connection's own)", async () => {
    const rt = await warmRuntime(host);
    expect(rt.prewarmed).toBeNull();
    await watchConnections(rt);
    const sid = 's-cold-cert';
    await startSession(host, sid);
    const [first] = await until(async () => {
      const c = await connections(rt);
      return c.length >= 1 && c[0].offered ? c : null;
    }, 'the prepared offer');
    expect(first.given).toEqual([]);
    // Chromium's own certificate is not one the page can see
    expect(first.kept).toEqual([]);
    expect(first.offered).toMatch(/^sha-256 /);
    expect((await host.request('DELETE', `/sessions/${sid}?reason=user`)).status).toBeLessThan(300);
  });
});
