/**
 * webrtc provider, host side: WebRTC's first-use work in a page, done before a session needs it.
 * A warm runtime's preload (server/host/page/prewarm.ts) calls warmUpWebRtc() once; the
 * publisher (./publisher.ts) then makes the session's connection with warmCertificate().
 *
 * Why: Chromium makes a page's PeerConnectionFactory (its signalling, worker and network threads,
 * the codec factories) on the page's first RTCPeerConnection, and a connection given no
 * certificate has one generated before its first offer. Without a warm-up both fell on the
 * session's first connection, which the publisher makes while begin() runs, on the page's
 * thread, in the page's busiest time (the game's first draws; with a player who joined during the
 * start, right in front of the offer). Measured on the fake-api host (warm starts of
 * hajimari-no-eki with a player joining at once, 24 sessions with and 24 without, alternated;
 * load 3–5 on 2 cores; medians): the connection's constructor 8.2 → 2.9 ms, the synchronous part
 * of prepare() 19 → 11 ms, its offer set locally 64 → 46 ms after the constructor, the host's
 * `ready` 128 → 108 ms after the start request; the warm-up itself ~20–35 ms, the prewarm no
 * longer for it. Far less than the 40–90 ms once estimated, and mostly the factory's start: the
 * throwaway connection without the kept certificate gave about the same figures (an ECDSA key is
 * cheap to make).
 *
 * What: a throwaway connection with a video and an audio transceiver and a data channel, offered
 * (createOffer: the codec lists and the SDP path) and closed; RTCRtpSender.getCapabilities of
 * both kinds; and one ECDSA P-256 certificate (Chromium's own default kind), kept for the page's
 * connections: one page serves one session, so its connections share the certificate as a
 * session's rejoins would share an identity anyway. Nothing happens where RTCPeerConnection is
 * missing (node, jsdom), and a failure leaves the publisher on Chromium's own certificate.
 */

/** The certificate's key: what Chromium generates by itself for a connection given none. */
const CERT_ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256' };
/**
 * A warm certificate is handed out only while it stays valid at least this long (Chromium makes
 * them valid for 30 days; a warm runtime waiting that long gets a connection of its own making).
 */
export const CERT_MIN_LIFE_MS = 24 * 3600_000;

let warming: Promise<void> | null = null;
let certificate: RTCCertificate | undefined;

/** The page's WebRTC warmed up: once per page (later calls return the first call's promise); never rejects. */
export function warmUpWebRtc(): Promise<void> {
  warming ??= warmUp().catch(() => undefined);
  return warming;
}

async function warmUp(): Promise<void> {
  if (typeof RTCPeerConnection !== 'function') return;
  await throwawayConnection().catch(() => undefined);
  if (typeof RTCPeerConnection.generateCertificate === 'function') certificate = await RTCPeerConnection.generateCertificate(CERT_ALGORITHM);
}

/** The factory, its threads and codec factories, the SDP path: a connection like the publisher's, offered and closed. */
async function throwawayConnection(): Promise<void> {
  const pc = new RTCPeerConnection();
  try {
    for (const kind of ['video', 'audio']) pc.addTransceiver(kind, { direction: 'sendonly' });
    pc.createDataChannel('warm-up');
    await pc.createOffer();
  } finally {
    pc.close();
  }
  if (typeof RTCRtpSender !== 'undefined') {
    RTCRtpSender.getCapabilities?.('video');
    RTCRtpSender.getCapabilities?.('audio');
  }
}

/** The certificate warmUpWebRtc made, while it has at least CERT_MIN_LIFE_MS to live; else undefined (Chromium makes one). */
export function warmCertificate(now = Date.now()): RTCCertificate | undefined {
  return certificate && certificate.expires - now >= CERT_MIN_LIFE_MS ? certificate : undefined;
}
