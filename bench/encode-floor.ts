/**
 * What one video frame costs the host's encoder, with nothing else around it (issue 11: ten
 * reading sessions per 2-core host). A session's host CPU is the engine's draw, the encoder,
 * WebRTC's transport and the sound; this bench takes the encoder alone, so the floor under every
 * runtime-side lever is a figure: in one page of the host's own Chromium (its flags:
 * server/host/browser-flags.ts), a 1280×720 canvas (`alpha: false`, like runtime/src/render.ts)
 * holding one of the title's backgrounds under a text window is written as `new VideoFrame(canvas)`
 * to a MediaStreamTrackGenerator (contentHint `detail`, like the publisher), sent by an
 * RTCPeerConnection to a second one in the same page (loopback), with the quality profile's
 * bitrate floor (lib/streaming/types.ts QUALITY_PROFILES via setParameters and the answer's
 * x-google-min-bitrate). Frames come at the reading pace (--fps, 13.5: what a reading session
 * sends, docs/performance.md) for --seconds (15) after 3 s of warm-up, per variant:
 *   - picture `still` (the same picture again: a refresh or refining frame) or `typing` (one more
 *     character of a line every frame, as a typing step),
 *   - codec VP8 (the host's), VP9, AV1, H264,
 *   - size: the canvas at --sizes (1280, 960, 640 wide; a smaller canvas stands for sending a
 *     smaller picture: the encoder's work goes with its pixels),
 *   - source `canvas` (the runtime's path) or `i420` (the same picture already converted once:
 *     what the RGBA → I420 conversion adds),
 *   - the track's contentHint (--hints, `detail`: the publisher's screen-content path; `motion`:
 *     the camera path, whose encoder settings differ per codec and whose frame dropper is on:
 *     WebRTC turns it off for screen content only). The sender keeps the resolution either way.
 * Printed per variant, from the sender's getStats (outbound-rtp): encode ms per frame
 * (totalEncodeTime / framesEncoded), frames encoded, kbit/s, mean QP, and what that frame cost means for a reading session (ms × --fps, % of one
 * core). Figures only; never fails on speed.
 *
 *   npx tsx bench/encode-floor.ts [--codecs VP8,VP9,AV1,H264] [--sizes 1280,960,640] [--pictures still,typing]
 *       [--sources canvas,i420] [--hints detail,motion] [--fps 13.5] [--seconds 15]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_FLAGS, ZERO_PLAYOUT_DELAY_FLAG } from '../server/host/browser-flags';
import { CHROMIUM_PATH } from '../server/shared/chromium';
import { QUALITY_PROFILES } from '../lib/streaming/types';
import { arg, bound, finish, machine } from './play-common';
import { printTable, type Row } from './play-configs';

const list = (name: string, dflt: string) =>
  arg(name, dflt)
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
const CODECS = list('codecs', 'VP8,VP9,AV1,H264');
const SIZES = list('sizes', '1280,960,640').map(Number).filter((w) => w >= 64);
const PICTURES = list('pictures', 'still,typing');
const SOURCES = list('sources', 'canvas,i420');
const HINTS = list('hints', 'detail');
const FPS = Math.max(1, Number(arg('fps', '13.5')));
const SECONDS = Math.max(3, Number(arg('seconds', '15')));
const COLS = ['encode ms / frame', `% of a core at ${FPS} fps`, 'dropped', 'encoded size', 'kbit/s', 'mean QP'];
const BACKGROUND = path.join(__dirname, '..', 'games', 'hajimari-no-eki', 'art', 'bg', 'eki_morning.svg');

interface Variant {
  codec: string;
  width: number;
  picture: string;
  source: string;
  hint: string;
}
interface Figures {
  frames: number;
  /** Of the frames written in the window, the share the encoder did not encode. */
  dropped: number;
  encodeMs: number;
  kbps: number;
  qp: number;
  size: string;
}

/** Every variant asked for, in the order measured (a typing picture changes every frame: converted once to I420 it would be a still one). */
function variants(): Variant[] {
  const out: Variant[] = [];
  for (const codec of CODECS)
    for (const width of SIZES)
      for (const picture of PICTURES)
        for (const source of SOURCES) {
          if (picture === 'typing' && source === 'i420') continue;
          for (const hint of HINTS) out.push({ codec, width, picture, source, hint });
        }
  return out;
}

/** Runs in the page: one variant, start to end (a fresh canvas and connection pair). */
async function measure(a: { v: Variant; svg: string; fps: number; seconds: number; minKbps: number; maxKbps: number }): Promise<Figures> {
  const { v } = a;
  const W = v.width;
  const H = Math.round((W * 9) / 16);
  const c = document.createElement('canvas');
  c.width = W;
  c.height = H;
  const g = c.getContext('2d', { alpha: false })!;
  const img = new Image();
  img.src = `data:image/svg+xml;base64,${btoa(unescape(encodeURIComponent(a.svg)))}`;
  await img.decode();
  const windowBox = [W * 0.03, H * 0.67, W * 0.94, H * 0.3] as const;
  const base = () => {
    g.drawImage(img, 0, 0, W, H);
    g.fillStyle = 'rgba(10,10,30,0.72)';
    g.fillRect(...windowBox);
  };
  base();
  const line = 'ホームに朝の光が差し込んで、始発の電車がゆっくりと滑り込んでくる。';
  let n = 0;
  const typeStep = () => {
    base();
    g.fillStyle = '#fff';
    g.font = `${Math.round(H / 26)}px sans-serif`;
    g.fillText(line.slice(0, 1 + (n % line.length)), W * 0.06, H * 0.76);
  };
  let i420: Uint8Array | null = null;
  if (v.source === 'i420') {
    // the picture converted once (BT.601, like the encoder's own conversion), sent again as is
    const px = g.getImageData(0, 0, W, H).data;
    i420 = new Uint8Array((W * H * 3) / 2);
    for (let y = 0; y < H; y++)
      for (let x = 0; x < W; x++) {
        const k = (y * W + x) * 4;
        i420[y * W + x] = ((66 * px[k] + 129 * px[k + 1] + 25 * px[k + 2] + 128) >> 8) + 16;
      }
    for (let y = 0; y < H / 2; y++)
      for (let x = 0; x < W / 2; x++) {
        const k = (2 * y * W + 2 * x) * 4;
        i420[W * H + (y * W) / 2 + x] = ((-38 * px[k] - 74 * px[k + 1] + 112 * px[k + 2] + 128) >> 8) + 128;
        i420[(W * H * 5) / 4 + (y * W) / 2 + x] = ((112 * px[k] - 94 * px[k + 1] - 18 * px[k + 2] + 128) >> 8) + 128;
      }
  }
  type Generator = MediaStreamTrack & { writable: WritableStream<VideoFrame> };
  const Gen = (globalThis as unknown as { MediaStreamTrackGenerator: new (o: { kind: 'video' }) => Generator }).MediaStreamTrackGenerator;
  const gen = new Gen({ kind: 'video' });
  gen.contentHint = v.hint;
  const writer = gen.writable.getWriter();
  const tx = new RTCPeerConnection();
  const rx = new RTCPeerConnection();
  tx.onicecandidate = (e) => void (e.candidate && rx.addIceCandidate(e.candidate));
  rx.onicecandidate = (e) => void (e.candidate && tx.addIceCandidate(e.candidate));
  const tr = tx.addTransceiver(gen, { direction: 'sendonly' });
  const codecs = RTCRtpSender.getCapabilities('video')!.codecs.filter((x) => x.mimeType === `video/${v.codec}`);
  if (!codecs.length) throw new Error(`${v.codec}: not offered by this Chromium`);
  tr.setCodecPreferences(codecs);
  const p = tr.sender.getParameters();
  p.degradationPreference = 'maintain-resolution';
  p.encodings = p.encodings.map((e) => ({ ...e, maxBitrate: a.maxKbps * 1000 }));
  await tr.sender.setParameters(p);
  await tx.setLocalDescription();
  await rx.setRemoteDescription(tx.localDescription!);
  await rx.setLocalDescription();
  // the answer's bitrate floor and start, as the publisher's answer carries them (docs/streaming.md)
  const sdp = rx.localDescription!.sdp.replace(/(a=fmtp:\d+ [^\r]*)/g, `$1;x-google-min-bitrate=${a.minKbps};x-google-start-bitrate=${a.maxKbps}`);
  await tx.setRemoteDescription({ type: 'answer', sdp });
  let ts = 0;
  const frame = () => {
    if (v.picture === 'typing') typeStep();
    n++;
    ts += Math.round(1e6 / a.fps);
    const f = i420 ? new VideoFrame(i420, { format: 'I420', codedWidth: W, codedHeight: H, timestamp: ts }) : new VideoFrame(c, { timestamp: ts });
    return writer.write(f);
  };
  const run = async (ms: number) => {
    const end = performance.now() + ms;
    while (performance.now() < end) {
      const t = performance.now();
      await frame();
      await new Promise((r) => setTimeout(r, Math.max(0, 1000 / a.fps - (performance.now() - t))));
    }
  };
  const outbound = async () => {
    let o: Record<string, number | string> | undefined;
    (await tx.getStats()).forEach((s: Record<string, number | string>) => {
      if (s.type === 'outbound-rtp' && s.kind === 'video') o = s;
    });
    if (!o) throw new Error('no outbound-rtp');
    return o as Record<string, number>;
  };
  await run(3000);
  const s0 = await outbound();
  const n0 = n;
  const t0 = performance.now();
  await run(a.seconds * 1000);
  const s1 = await outbound();
  const frames = s1.framesEncoded - s0.framesEncoded;
  const out: Figures = {
    frames,
    dropped: Math.max(0, 1 - frames / Math.max(1, n - n0)),
    encodeMs: (1000 * (s1.totalEncodeTime - s0.totalEncodeTime)) / Math.max(1, frames),
    kbps: (8 * (s1.bytesSent - s0.bytesSent)) / (performance.now() - t0),
    qp: (s1.qpSum - s0.qpSum) / Math.max(1, frames),
    size: `${s1.frameWidth}×${s1.frameHeight}`,
  };
  tx.close();
  rx.close();
  gen.stop();
  return out;
}

async function main(): Promise<void> {
  bound((variants().length * (SECONDS + 8) + 60) * 1000);
  console.log(`encode floor bench: ${new Date().toISOString()}\nmachine: ${machine()}`);
  const svg = fs.readFileSync(BACKGROUND, 'utf8');
  const high = QUALITY_PROFILES.high;
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_FLAGS, ZERO_PLAYOUT_DELAY_FLAG] });
  const rows: Row[] = [];
  try {
    const page = await browser.newPage();
    await page.setContent('<!doctype html><meta charset="utf-8"><title>encode floor</title>');
    // tsx keeps function names with a helper the page lacks
    await page.evaluate('globalThis.__name = (f) => f');
    for (const v of variants()) {
      const name = `${v.codec} ${v.width} ${v.picture} ${v.source}${HINTS.length > 1 ? ` ${v.hint}` : ''}`;
      try {
        const f = await page.evaluate(measure, { v, svg, fps: FPS, seconds: SECONDS, minKbps: high.minBitrate / 1000, maxKbps: high.maxBitrate / 1000 });
        const share = (f.encodeMs * FPS) / 10;
        const dropped = `${(100 * f.dropped).toFixed(0)} %`;
        console.log(`  ${name}: ${f.encodeMs.toFixed(2)} ms a frame (${f.frames} frames, ${dropped} dropped, ${f.size}), ${f.kbps.toFixed(0)} kbit/s, QP ${f.qp.toFixed(1)}; at ${FPS} fps ${share.toFixed(1)} % of a core; load ${os.loadavg()[0].toFixed(1)}`);
        rows.push({ figure: name, values: { [COLS[0]]: f.encodeMs.toFixed(2), [COLS[1]]: `${share.toFixed(1)} %`, [COLS[2]]: dropped, [COLS[3]]: f.size, [COLS[4]]: f.kbps.toFixed(0), [COLS[5]]: f.qp.toFixed(1) } });
      } catch (e) {
        console.log(`  ${name}: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`);
        rows.push({ figure: name, values: { [COLS[0]]: 'failed' } });
      }
    }
  } finally {
    await browser.close();
  }
  printTable(`one frame in the host's encoder (codec, canvas width, picture, source${HINTS.length > 1 ? ', contentHint' : ''}), ${FPS} fps`, rows, COLS);
}

main()
  .then(() => finish(0))
  .catch(async (e) => {
    console.error(e);
    await finish(1);
  });
