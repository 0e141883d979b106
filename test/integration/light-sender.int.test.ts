/**
 * The light runtime's sender (runtime/node/sender.ts + sender/sender.py, docs/light-runtime.md
 * slice 2): GStreamer's webrtcbin sends the light runtime's frames as VP8 to a real Debian
 * Chromium, which answers, decodes them at 1280×720 and sends its input on the "input" data
 * channel. The signalling between the two is relayed as the api relays it (offer, answer,
 * trickled ICE: lib/streaming/signal.ts's messages; runtime/node/testing/player.ts). Checked: the first frame arrives,
 * the player's Enter presses reach the engine and the picture it then receives is the engine's
 * (PSNR against the engine's own screenshot), a host message reaches the player, and at the
 * end the sender's process is gone and its frames file removed.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { LightRuntime } from '../../runtime/node/runtime';
import { LightSender } from '../../runtime/node/sender';
import { connectPlayer, type Player } from '../../runtime/node/testing/player';
import { TEXT_WINDOW } from '../../runtime/src/ui';
import { runtimePagesForSuite, sleep } from './runtime-page';

jest.setTimeout(120_000);

const pages = runtimePagesForSuite();
const GAME = 'hajimari-no-eki';
/** What the received picture must reach against the engine's (measured 33.4 / 38.2 dB). */
const PICTURE_DB = 28;

async function until<T>(f: () => Promise<T>, ok: (v: T) => boolean, what: string, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (ok(v)) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(v)}`);
    await sleep(100);
  }
}

async function psnr(a: Buffer, b: Buffer, r?: { x: number; y: number; w: number; h: number }): Promise<number> {
  const rgb = (png: Buffer) => {
    let s = sharp(png).removeAlpha();
    if (r) s = s.extract({ left: r.x, top: r.y, width: r.w, height: r.h });
    return s.raw().toBuffer();
  };
  const [x, y] = await Promise.all([rgb(a), rgb(b)]);
  let se = 0;
  for (let i = 0; i < x.length; i++) se += (x[i] - y[i]) ** 2;
  return se === 0 ? Infinity : 10 * Math.log10((255 * 255 * x.length) / se);
}

describe('the light runtime sends its picture through webrtcbin to a real Chromium', () => {
  let dir: string;
  let sender: LightSender;
  let rt: LightRuntime;
  let player: Player;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'yumecast-light-'));
    sender = await LightSender.start({ width: 1280, height: 720, dir });
    rt = new LightRuntime({ baseHref: `${pages.server.origin}/runtime/index.html`, onFrame: () => sender.frame(rt.pixels()) });
    await rt.start({ gameId: GAME, assetBase: `/games/${GAME}/`, storyUrl: `/runtime/games/${GAME}.json` });
  });

  afterAll(async () => {
    await player?.page.close();
    rt?.close();
    await sender?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('connects, and the first frame is decoded at full size', async () => {
    const t0 = Date.now();
    player = await connectPlayer(pages.browser, sender, (data) => {
      try {
        rt.applyInput(JSON.parse(data));
      } catch {
        /* not JSON: refused as the page's bridge refuses it */
      }
    });
    const first = await until(() => player.inbound(), (s) => s.decoded > 0, 'the first decoded frame');
    console.info(`[light-sender] first frame decoded ${Date.now() - t0} ms after the offer was asked for`);
    expect([first.width, first.height]).toEqual([1280, 720]);
    await until(() => player.send(JSON.stringify({ v: 1, type: 'ping', t: 0 })), (sent) => sent, 'the input channel open');
  });

  it("takes the player's input from the channel, and sends the picture the engine then draws", async () => {
    const before = await player.inbound();
    for (let i = 0; i < 2; i++) {
      await player.send(JSON.stringify({ v: 1, type: 'key', kind: 'down', key: 'Enter' }));
      await player.send(JSON.stringify({ v: 1, type: 'key', kind: 'up', key: 'Enter' }));
      await sleep(1500);
    }
    const s = rt.getState();
    expect(s.screen).toBe('story');
    expect(s.visibleText.length).toBeGreaterThan(0);
    await until(() => player.inbound(), (x) => x.decoded > before.decoded + 3, 'frames of the story');
    await sleep(3000); // typed out, and a refresh frame or two at the encoder's settled quality
    const [got, own] = [await player.picture(), rt.screenshot()];
    const whole = await psnr(got, own);
    const text = await psnr(got, own, TEXT_WINDOW);
    console.info(`[light-sender] received against the engine's picture: ${whole.toFixed(1)} dB, text window ${text.toFixed(1)} dB`);
    expect([whole >= PICTURE_DB, text >= PICTURE_DB]).toEqual([true, true]);
  });

  it('sends a host message to the player on the channel', async () => {
    sender.send({ type: 'send', data: JSON.stringify({ v: 1, type: 'pong', t: 1 }) });
    await until(() => player.received(), (got) => got.some((m) => m.includes('"pong"')), 'the host message');
  });

  it('leaves no process and no frames file when closed', async () => {
    const pid = sender.pid!;
    expect(fs.readdirSync(dir)).toEqual(['frames.rgba']);
    await sender.close();
    expect(fs.existsSync(`/proc/${pid}`)).toBe(false);
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});
