/**
 * A player for the light runtime's sender in tests and benches (test/integration/light-sender,
 * bench/light-draw): one page of a real Chromium with one RTCPeerConnection that answers the
 * sender's offer, shows its video and keeps the "input" channel; and the relay of signalling
 * between the two (lib/streaming/signal.ts's offer, answer and ICE, as the api relays them). Not
 * the product's player (components/play, lib/streaming/webrtc/subscriber.ts), which is reached
 * through the api's signalling once the host starts this runtime (slice 2 of
 * docs/light-runtime.md).
 */
import type { Browser, Page } from 'playwright-core';
import type { LightSender } from '../sender';

type PlayerWindow = Window & {
  pc: RTCPeerConnection;
  channel?: RTCDataChannel;
  video?: HTMLVideoElement;
  got: string[];
  toHost: (json: string) => void;
  onOffer: (sdp: string) => Promise<void>;
};

export interface Player {
  page: Page;
  /** The player's inbound video: frames decoded and their size. */
  inbound(): Promise<{ decoded: number; width: number; height: number }>;
  /** Sends a raw message on the input channel (false before it is open). */
  send(data: string): Promise<boolean>;
  /** What the player received on the channel so far. */
  received(): Promise<string[]>;
  /** The picture the player's video shows now, as a PNG. */
  picture(): Promise<Buffer>;
}

/** A player page connected to `sender` (the offer is asked for here); its input goes to `onInput`. */
export async function connectPlayer(browser: Browser, sender: LightSender, onInput: (data: string) => void): Promise<Player> {
  const page = await browser.newPage();
  await page.exposeBinding('toHost', (_src, json: string) => {
    const m = JSON.parse(json) as { type: string; sdp?: string; candidate?: RTCIceCandidateInit | null };
    if (m.type === 'answer' && m.sdp) sender.send({ type: 'answer', sdp: m.sdp });
    else if (m.type === 'ice') sender.send({ type: 'ice', candidate: m.candidate ?? null });
  });
  await page.evaluate(() => {
    const w = window as unknown as PlayerWindow;
    const pc = new RTCPeerConnection();
    w.pc = pc;
    w.got = [];
    pc.onicecandidate = (e) => w.toHost(JSON.stringify({ type: 'ice', candidate: e.candidate ? e.candidate.toJSON() : null }));
    pc.ontrack = (e) => {
      if (e.track.kind !== 'video') return;
      const v = document.createElement('video');
      v.muted = true;
      v.srcObject = new MediaStream([e.track]);
      document.body.append(v);
      w.video = v;
      void v.play().catch(() => undefined);
    };
    pc.ondatachannel = (e) => {
      w.channel = e.channel;
      e.channel.onmessage = (m) => w.got.push(String(m.data));
    };
    w.onOffer = async (sdp) => {
      await pc.setRemoteDescription({ type: 'offer', sdp });
      const answer = await pc.createAnswer();
      await pc.setLocalDescription(answer);
      w.toHost(JSON.stringify({ type: 'answer', sdp: answer.sdp }));
    };
  });
  sender.on((e) => {
    if (e.type === 'offer') void page.evaluate((sdp) => (window as unknown as PlayerWindow).onOffer(sdp), e.sdp).catch(() => undefined);
    else if (e.type === 'ice' && e.candidate) void page.evaluate((c) => (window as unknown as PlayerWindow).pc.addIceCandidate(c).catch(() => undefined), e.candidate).catch(() => undefined);
    else if (e.type === 'message') onInput(e.data);
  });
  sender.send({ type: 'offer' });
  return {
    page,
    inbound: () =>
      page.evaluate(async () => {
        const out = { decoded: 0, width: 0, height: 0 };
        (await (window as unknown as PlayerWindow).pc.getStats()).forEach((s: { type: string; kind?: string; framesDecoded?: number; frameWidth?: number; frameHeight?: number }) => {
          if (s.type === 'inbound-rtp' && s.kind === 'video') Object.assign(out, { decoded: s.framesDecoded ?? 0, width: s.frameWidth ?? 0, height: s.frameHeight ?? 0 });
        });
        return out;
      }),
    send: (data) =>
      page.evaluate((d) => {
        const ch = (window as unknown as PlayerWindow).channel;
        if (ch?.readyState !== 'open') return false;
        ch.send(d);
        return true;
      }, data),
    received: () => page.evaluate(() => [...(window as unknown as PlayerWindow).got]),
    picture: async () => {
      const url = await page.evaluate(() => {
        const v = (window as unknown as PlayerWindow).video!;
        const c = document.createElement('canvas');
        c.width = v.videoWidth;
        c.height = v.videoHeight;
        c.getContext('2d')!.drawImage(v, 0, 0);
        return c.toDataURL('image/png');
      });
      return Buffer.from(url.slice(url.indexOf(',') + 1), 'base64');
    },
  };
}
