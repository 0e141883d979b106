/**
 * What the host's sender does with the frames the engine makes (issue 11): with frames only on
 * change, the bandwidth estimate never grew and the encoder dropped most changed frames while the
 * pacer held packets (the latency outliers); HOST_BITRATE_FLOOR (docs/streaming.md) is the lever.
 * This bench shows it side by side. Per configuration (bench/play-configs.ts, default
 * `-bitrate,after`: every lever on, with and without the floor), one session on a fresh host,
 * received by a cheap peer (bench/play-session.ts), into the story; after --settle (20 s) a
 * static-line window, then a reading-on window (Enter and '1' every 250 ms; --keys h toggles the
 * text window instead, one change a press; --release-ms 120 lets each key go that long after it
 * went down, as a player's finger does, instead of at once), --window (15 s) each. The publisher page's
 * RTCPeerConnection.getStats() (the connection to the player) is read every second:
 *   - media-source (video) frames: frames the capture delivered (on change: the changed ones);
 *   - outbound-rtp (video): framesEncoded, framesSent, keyFramesEncoded, bytesSent,
 *     totalEncodeTime, totalPacketSendDelay / packetsSent, targetBitrate,
 *     qualityLimitationReason / Durations; candidate-pair availableOutgoingBitrate;
 * and printed per window: frames captured, % dropped before encode (1 − encoded / captured),
 * mean pacer delay per packet, mean target bitrate and outgoing estimate (the per-second
 * readings' mean), encode ms per frame, kbit/s sent, what limited quality; the engine's own frame
 * requests and the peer's received fps beside them. Figures only; never fails on speed.
 *
 * The publisher's connection is reached as the session-6 scratch did: the host keeps one warm
 * runtime (HOST_WARM_POOL=1, HOST_CAPACITY=1: no replacement launches after the start), and the
 * bench wraps RTCPeerConnection in its page before the click, recording every connection made
 * there (the bridge makes its publisher in begin(), after the click).
 *
 *   npx tsx bench/play-sender.ts [--config -bitrate,after] [--settle 20] [--window 15] [--keys Enter,1] [--release-ms 0]
 *       [--game hajimari-no-eki] [--minutes 3] [--fake]
 *   npx tsx server/dev/with-services.ts -- npx tsx bench/play-sender.ts   # through the real api
 */
import type { Page } from 'playwright-core';
import { sleep, type TestAgent } from '../server/host/testing/harness';
import { num, printTables, type Row } from './play-configs';
import { arg, engineState, finish } from './play-common';
import { READING_EVERY_MS, READING_KEYS, eachConfig, setUp, storySession, type Bench, type Received, type StorySession } from './play-session';
import { pageRuntimes } from '../server/host/testing/page-runtime';

const SETTLE_MS = Math.max(0, Number(arg('settle', '20'))) * 1000;
const WINDOW_MS = Math.max(2, Number(arg('window', '15'))) * 1000;
const KEYS = arg('keys', READING_KEYS.join(','))
  .split(',')
  .filter(Boolean);
/** --release-ms: each key let go this long after it went down, as a finger is (default 0: down and up at once). */
const RELEASE_MS = Math.max(0, Number(arg('release-ms', '0')));

/** Records every RTCPeerConnection the page makes from now on (window.__benchPcs). */
const RECORD_PCS = `(() => {
  if (window.__benchPcs) return;
  const pcs = (window.__benchPcs = []);
  const Native = window.RTCPeerConnection;
  window.RTCPeerConnection = class extends Native {
    constructor(...args) { super(...args); pcs.push(this); }
  };
})()`;

/** One reading of the sender's stats (cumulative counters, as getStats gives them). */
interface SenderStats {
  /** Date.now() of the reading. */
  at: number;
  sourceFrames: number;
  framesEncoded: number;
  framesSent: number;
  keyFramesEncoded: number;
  bytesSent: number;
  packetsSent: number;
  /** Seconds. */
  totalEncodeTime: number;
  totalPacketSendDelay: number;
  /** Sum of the encoded frames' QP (mean QP = its growth / framesEncoded's). */
  qpSum: number;
  /** bit/s (NaN when not reported). */
  targetBitrate: number;
  availableOutgoingBitrate: number;
  qualityLimitationReason: string;
  /** Seconds per reason. */
  qualityLimitationDurations: Record<string, number>;
}

/** The stats of the page's last connected RTCPeerConnection (null: none connected). */
const READ_STATS = `(async () => {
  const pc = (window.__benchPcs || []).filter((p) => p.connectionState === 'connected').pop();
  if (!pc) return null;
  const o = { at: Date.now(), sourceFrames: 0, framesEncoded: 0, framesSent: 0, keyFramesEncoded: 0, bytesSent: 0, packetsSent: 0, totalEncodeTime: 0,
    totalPacketSendDelay: 0, qpSum: 0, targetBitrate: NaN, availableOutgoingBitrate: NaN, qualityLimitationReason: '?', qualityLimitationDurations: {} };
  (await pc.getStats()).forEach((r) => {
    if (r.type === 'media-source' && r.kind === 'video') o.sourceFrames = r.frames ?? 0;
    if (r.type === 'outbound-rtp' && r.kind === 'video') {
      for (const k of ['framesEncoded', 'framesSent', 'keyFramesEncoded', 'bytesSent', 'packetsSent', 'totalEncodeTime', 'totalPacketSendDelay', 'qpSum']) o[k] = r[k] ?? 0;
      o.targetBitrate = r.targetBitrate ?? NaN;
      o.qualityLimitationReason = r.qualityLimitationReason ?? '?';
      o.qualityLimitationDurations = r.qualityLimitationDurations ?? {};
    }
    if (r.type === 'candidate-pair' && r.nominated && r.state === 'succeeded') o.availableOutgoingBitrate = r.availableOutgoingBitrate ?? NaN;
  });
  return o;
})()`;

async function readStats(page: Page): Promise<SenderStats> {
  const s = (await page.evaluate(READ_STATS)) as SenderStats | null;
  if (!s) throw new Error('the publisher page has no connected RTCPeerConnection');
  return s;
}

/** What the sender did over one window. */
interface Window {
  seconds: number;
  captured: number;
  encoded: number;
  sent: number;
  keyFrames: number;
  /** Video frames the engine requested from its captured track (EngineState.videoFrames; NaN unless frames on change). */
  requested: number;
  /** Of those, the ones it drew (EngineState.frame: a change, a typing step, an input); the rest are refining or refresh frames of a still picture. */
  drawn: number;
  pacerMs: number;
  encodeMs: number;
  /** Mean QP of the frames encoded in the window. */
  qp: number;
  kbps: number;
  targetKbps: number;
  estimateKbps: number;
  /** Seconds per quality-limitation reason in the window, and the reason at its end. */
  limited: Record<string, number>;
  reason: string;
  rx: Received;
}

const mean = (xs: number[]): number => {
  const ok = xs.filter((x) => Number.isFinite(x));
  return ok.length ? ok.reduce((a, b) => a + b, 0) / ok.length : NaN;
};

async function measure(host: TestAgent, s: StorySession): Promise<Window> {
  const frames = async () => {
    const e = await engineState(host, s.click.sid);
    return e.frameMode === 'change' ? { sent: e.videoFrames ?? NaN, drawn: e.frame } : { sent: NaN, drawn: NaN };
  };
  const got = await s.received();
  const f0 = await frames();
  const readings = [await readStats(s.page)];
  for (const end = performance.now() + WINDOW_MS; performance.now() < end; ) {
    await sleep(Math.min(1000, end - performance.now()));
    readings.push(await readStats(s.page));
  }
  const f1 = await frames();
  const a = readings[0];
  const z = readings[readings.length - 1];
  const d = (k: keyof SenderStats) => (z[k] as number) - (a[k] as number);
  const later = readings.slice(1);
  return {
    seconds: (z.at - a.at) / 1000,
    captured: d('sourceFrames'),
    encoded: d('framesEncoded'),
    sent: d('framesSent'),
    keyFrames: d('keyFramesEncoded'),
    requested: f1.sent - f0.sent,
    drawn: f1.drawn - f0.drawn,
    pacerMs: (d('totalPacketSendDelay') * 1000) / d('packetsSent'),
    encodeMs: (d('totalEncodeTime') * 1000) / d('framesEncoded'),
    qp: d('qpSum') / d('framesEncoded'),
    kbps: (d('bytesSent') * 8) / Math.max(1, z.at - a.at),
    targetKbps: mean(later.map((r) => r.targetBitrate)) / 1000,
    estimateKbps: mean(later.map((r) => r.availableOutgoingBitrate)) / 1000,
    limited: Object.fromEntries(Object.entries(z.qualityLimitationDurations).map(([k, v]) => [k, v - (a.qualityLimitationDurations[k] ?? 0)])),
    reason: z.qualityLimitationReason,
    rx: await got(),
  };
}

/** Wraps RTCPeerConnection in the warm runtime the next session takes. */
async function recordConnections(host: TestAgent): Promise<void> {
  await host.agent.pool.whenWarm(1, 120_000);
  for (const rt of pageRuntimes(host.agent.pool)) await rt.livePage.evaluate(RECORD_PCS);
}

const PHASES = ['static line', 'reading on'];

async function sender(b: Bench, host: TestAgent): Promise<Map<string, Window>> {
  await recordConnections(host);
  const s = await storySession(b, host);
  const out = new Map<string, Window>();
  try {
    if (!(await s.page.evaluate('Array.isArray(window.__benchPcs) && window.__benchPcs.length > 0'))) throw new Error('the session ran in a runtime whose connections were not recorded');
    await sleep(SETTLE_MS);
    out.set(PHASES[0], await measure(host, s));
    await s.readingOn(true, KEYS, RELEASE_MS);
    await sleep(1000);
    out.set(PHASES[1], await measure(host, s));
    await s.readingOn(false);
  } finally {
    await s.end();
  }
  for (const [name, w] of out) {
    const limited = Object.entries(w.limited).filter(([, v]) => v >= 0.05).map(([k, v]) => `${k} ${v.toFixed(1)} s`).join(', ');
    console.log(`  ${name} (${w.seconds.toFixed(1)} s): captured ${w.captured}, encoded ${w.encoded}, sent ${w.sent} (${w.keyFrames} key), requested by the engine ${num(w.requested)}; quality limited: ${limited || '–'}`);
  }
  return out;
}

function rows(figs: Map<string, Map<string, Window>>, names: string[]): Row[] {
  const out: Row[] = [];
  for (const phase of PHASES) {
    const row = (figure: string, f: (w: Window) => string) =>
      out.push({ figure: `  ${figure}`, values: Object.fromEntries(names.map((n) => [n, figs.get(n)?.get(phase) ? f(figs.get(n)!.get(phase)!) : '–'])) });
    out.push({ figure: phase, values: Object.fromEntries(names.map((n) => [n, ''])) });
    row('frames the engine requested (on change)', (w) => num(w.requested));
    row('— drawn (changes, typing, input) / refining or refresh', (w) => `${num(w.drawn)} / ${num(w.requested - w.drawn)}`);
    row('frames captured (per s)', (w) => `${w.captured} (${num(w.captured / w.seconds, 1)})`);
    row('dropped before encode', (w) => (w.captured > 0 ? `${num((1 - w.encoded / w.captured) * 100)}%` : '–'));
    row('encoded / sent (key frames)', (w) => `${w.encoded} / ${w.sent} (${w.keyFrames})`);
    row('mean pacer delay per packet', (w) => num(w.pacerMs, 1, ' ms'));
    row('mean target bitrate', (w) => num(w.targetKbps, 0, ' kbit/s'));
    row('mean outgoing estimate', (w) => num(w.estimateKbps, 0, ' kbit/s'));
    row('sent', (w) => num(w.kbps, 0, ' kbit/s'));
    row('encode time per frame', (w) => num(w.encodeMs, 1, ' ms'));
    row('mean QP of the encoded frames', (w) => num(w.qp, 1));
    row('quality limited by (at the end)', (w) => w.reason);
    row('received by the peer', (w) => `${num(w.rx.fps, 1)} fps (${w.rx.codec.replace(/^video\//, '')})`);
  }
  return out;
}

async function main(): Promise<void> {
  const b = await setUp(`sender stats (settle ${SETTLE_MS / 1000} s, window ${WINDOW_MS / 1000} s, keys ${KEYS.join('+')} every ${READING_EVERY_MS} ms)`, '-bitrate,after', 3);
  const figs = await eachConfig(b, { HOST_WARM_POOL: '1', HOST_CAPACITY: '1' }, (_cfg, host) => sender(b, host));
  printTables('what the sender does with the frames (publisher getStats, video)', rows(figs, b.configs.map((c) => c.name)), b.configs);
  await finish(0);
}

main().catch(async (e) => {
  console.error(e);
  await finish(1);
});
