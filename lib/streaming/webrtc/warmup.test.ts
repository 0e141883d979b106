/**
 * The page's WebRTC warm-up (./warmup.ts) and its use by the publisher, against a fake
 * RTCPeerConnection (jsdom has none): once per page, the throwaway connection offered and closed,
 * the certificate kept while it has long to live, and the publisher's connection made with it.
 * The real Chromium side is server/host/pool-webrtc-warmup.int.test.ts.
 */
import type * as Warmup from './warmup';
import type * as Publisher from './publisher';

const DAY = 24 * 3600_000;

interface FakeCert {
  expires: number;
}

class FakePeerConnection {
  static made: FakePeerConnection[] = [];
  static certs: FakeCert[] = [];
  static certLifeMs = 30 * DAY;
  static certFails = false;
  static offerFails = false;
  static async generateCertificate(alg: unknown): Promise<FakeCert> {
    FakePeerConnection.algorithms.push(alg);
    if (FakePeerConnection.certFails) throw new Error('no certificate');
    const c = { expires: Date.now() + FakePeerConnection.certLifeMs };
    FakePeerConnection.certs.push(c);
    return c;
  }
  static algorithms: unknown[] = [];

  transceivers: string[] = [];
  channels: string[] = [];
  offers = 0;
  closed = false;
  onicecandidate: unknown = null;
  constructor(readonly config?: RTCConfiguration) {
    FakePeerConnection.made.push(this);
  }
  addTransceiver(kind: string) {
    this.transceivers.push(kind);
  }
  addTrack() {}
  getTransceivers() {
    return [];
  }
  createDataChannel(label: string) {
    this.channels.push(label);
    return { label, readyState: 'connecting' };
  }
  async createOffer() {
    this.offers++;
    if (FakePeerConnection.offerFails) throw new Error('no offer');
    return { type: 'offer', sdp: 'v=0\r\n' };
  }
  async setLocalDescription() {}
  close() {
    this.closed = true;
  }
}

class FakeWebSocket {
  static OPEN = 1;
  static last: FakeWebSocket | null = null;
  readyState = 0;
  onopen: (() => void) | null = null;
  onmessage: unknown = null;
  onclose: unknown = null;
  constructor(readonly url: string) {
    FakeWebSocket.last = this;
  }
  open() {
    this.readyState = FakeWebSocket.OPEN;
    this.onopen?.();
  }
  send() {}
  close() {}
}

const capabilities = jest.fn(() => ({ codecs: [], headerExtensions: [] }));
const g = globalThis as unknown as Record<string, unknown>;
const saved: Record<string, unknown> = {};
const FAKES: Record<string, unknown> = {
  RTCPeerConnection: FakePeerConnection,
  RTCRtpSender: { getCapabilities: capabilities },
  RTCRtpReceiver: { getCapabilities: capabilities },
  WebSocket: FakeWebSocket,
  MediaStream: class {
    constructor(readonly tracks: unknown[] = []) {}
  },
};

/** Fresh copies of the modules (the warm-up is once per page: once per module instance here). */
function load(): { warmup: typeof Warmup; publisher: typeof Publisher } {
  let out!: { warmup: typeof Warmup; publisher: typeof Publisher };
  jest.isolateModules(() => {
    out = { warmup: jest.requireActual('./warmup'), publisher: jest.requireActual('./publisher') };
  });
  return out;
}

function installFakes(): void {
  for (const [k, v] of Object.entries(FAKES)) {
    saved[k] = g[k];
    g[k] = v;
  }
}

function removeFakes(): void {
  for (const k of Object.keys(FAKES)) {
    if (saved[k] === undefined) delete g[k];
    else g[k] = saved[k];
  }
}

beforeEach(() => {
  FakePeerConnection.made = [];
  FakePeerConnection.certs = [];
  FakePeerConnection.algorithms = [];
  FakePeerConnection.certLifeMs = 30 * DAY;
  FakePeerConnection.certFails = false;
  FakePeerConnection.offerFails = false;
  FakeWebSocket.last = null;
  capabilities.mockClear();
});

afterEach(removeFakes);

/** The connection a publisher makes for its first player once its signalling opens (prepare). */
async function publisherConnection(publisher: typeof Publisher): Promise<FakePeerConnection> {
  const pub = new publisher.WebRtcPublisher();
  const stream = { getTracks: () => [], getVideoTracks: () => [] } as unknown as MediaStream;
  const events = { onRawMessage: () => undefined, onState: () => undefined };
  await pub.publish(stream, { provider: 'webrtc', webrtc: { signalUrl: 'ws://signal.test/v1/signal', signalToken: 't', iceServers: [{ urls: 'stun:stun.test' }] } }, events);
  const before = FakePeerConnection.made.length;
  FakeWebSocket.last!.open();
  expect(FakePeerConnection.made).toHaveLength(before + 1);
  const pc = FakePeerConnection.made[before];
  pub.close();
  return pc;
}

describe('warmUpWebRtc', () => {
  it('does nothing where there is no RTCPeerConnection', async () => {
    const { warmup } = load();
    expect(typeof g.RTCPeerConnection).toBe('undefined');
    await expect(warmup.warmUpWebRtc()).resolves.toBeUndefined();
    expect(warmup.warmCertificate()).toBeUndefined();
  });

  it('offers and closes a throwaway connection, reads the capabilities and keeps an ECDSA P-256 certificate, once per page', async () => {
    installFakes();
    const { warmup } = load();
    expect(warmup.warmCertificate()).toBeUndefined();
    const first = warmup.warmUpWebRtc();
    expect(warmup.warmUpWebRtc()).toBe(first);
    await first;
    await warmup.warmUpWebRtc();
    expect(FakePeerConnection.made).toHaveLength(1);
    const pc = FakePeerConnection.made[0];
    expect(pc.transceivers).toEqual(['video', 'audio']);
    expect(pc.channels).toHaveLength(1);
    expect(pc.offers).toBe(1);
    expect(pc.closed).toBe(true);
    expect(capabilities.mock.calls.map((c) => (c as unknown[])[0]).sort()).toEqual(['audio', 'video']);
    expect(FakePeerConnection.algorithms).toEqual([{ name: 'ECDSA', namedCurve: 'P-256' }]);
    expect(FakePeerConnection.certs).toHaveLength(1);
    expect(warmup.warmCertificate()).toBe(FakePeerConnection.certs[0]);
  });

  it('hands the certificate out only while it has CERT_MIN_LIFE_MS to live', async () => {
    installFakes();
    const { warmup } = load();
    await warmup.warmUpWebRtc();
    const cert = FakePeerConnection.certs[0];
    expect(warmup.warmCertificate(cert.expires - warmup.CERT_MIN_LIFE_MS)).toBe(cert);
    expect(warmup.warmCertificate(cert.expires - warmup.CERT_MIN_LIFE_MS + 1)).toBeUndefined();
    expect(warmup.warmCertificate(cert.expires + 1)).toBeUndefined();
  });

  it('still makes the certificate when the throwaway offer fails, and never rejects when the certificate fails', async () => {
    installFakes();
    FakePeerConnection.offerFails = true;
    const a = load().warmup;
    await a.warmUpWebRtc();
    expect(FakePeerConnection.made[0].closed).toBe(true);
    expect(a.warmCertificate()).toBe(FakePeerConnection.certs[0]);

    FakePeerConnection.offerFails = false;
    FakePeerConnection.certFails = true;
    const b = load().warmup;
    await expect(b.warmUpWebRtc()).resolves.toBeUndefined();
    expect(b.warmCertificate()).toBeUndefined();
  });
});

describe("the publisher's connection", () => {
  it('is made with the warm certificate after the warm-up, and with the ICE servers', async () => {
    installFakes();
    const { warmup, publisher } = load();
    await warmup.warmUpWebRtc();
    const pc = await publisherConnection(publisher);
    expect(pc.config?.certificates).toHaveLength(1);
    expect(pc.config?.certificates?.[0]).toBe(warmup.warmCertificate());
    expect(pc.config?.iceServers).toEqual([{ urls: 'stun:stun.test' }]);
  });

  it("is left to Chromium's own certificate without a warm-up, or once the warm one is near its end", async () => {
    installFakes();
    const cold = await publisherConnection(load().publisher);
    expect(cold.config).toEqual({ iceServers: [{ urls: 'stun:stun.test' }] });

    FakePeerConnection.certLifeMs = DAY / 2;
    const { warmup, publisher } = load();
    await warmup.warmUpWebRtc();
    expect(FakePeerConnection.certs).toHaveLength(1);
    const late = await publisherConnection(publisher);
    expect(late.config?.certificates).toBeUndefined();
  });
});
