/**
 * The light runtime's engine (runtime/node/, docs/light-runtime.md slice 1): runtime/src's own
 * Engine and Renderer in Node on @napi-rs/canvas, its art rasterised by sharp, against the page's
 * own picture in Debian Chromium. Both load the same title from the host's own page server and
 * get the same keys; at each settled scene (the page in the host's `change` mode, its idle
 * animations held still as the light runtime's are) the two show the same screen and text, and
 * their pictures agree: PSNR over the whole picture and over the text window, each above a bound
 * that the picture of the wrong line falls below (checked here, so the bound can fail). Then: a
 * session's memory does not grow with its frames (the pinned canvas version; 1.2.1 leaked a
 * frame a read-back), and bad input is refused and changes nothing.
 */
import sharp from 'sharp';
import type { Page } from 'playwright-core';
import { LightRuntime } from '../../runtime/node/runtime';
import type { EngineState } from '../../runtime/src/types';
import { TEXT_WINDOW } from '../../runtime/src/ui';
import { FIXTURE, key, openRuntimePage, runtimePagesForSuite, sleep, state, waitFor } from './runtime-page';

jest.setTimeout(120_000);

const pages = runtimePagesForSuite();

/** The whole picture's PSNR (dB) the two must reach (measured 28.0–38.2 on the scenes below). */
const PICTURE_DB = 26;
/** The text window's (measured 22.8–36.2; the wrong line's 14.8). */
const TEXT_DB = 20;
/** After the text is typed: the transitions and the typing's last frame are over. */
const SETTLE_MS = 1200;

type Region = { x: number; y: number; w: number; h: number };

async function rgb(png: Buffer, r?: Region): Promise<Buffer> {
  let s = sharp(png).removeAlpha();
  if (r) s = s.extract({ left: r.x, top: r.y, width: r.w, height: r.h });
  return s.raw().toBuffer();
}

/** PSNR of two PNGs of the same size (dB; Infinity when equal), over `r` or the whole picture. */
async function psnr(a: Buffer, b: Buffer, r?: Region): Promise<number> {
  const [x, y] = await Promise.all([rgb(a, r), rgb(b, r)]);
  let se = 0;
  for (let i = 0; i < x.length; i++) se += (x[i] - y[i]) ** 2;
  return se === 0 ? Infinity : 10 * Math.log10((255 * 255 * x.length) / se);
}

interface Pair {
  page: Page;
  rt: LightRuntime;
}

/** The title started on a runtime page (`change` mode) and in the light runtime, from the same page server. */
async function startBoth(gameId: string): Promise<Pair & { errors: string[] }> {
  const { page, errors } = await openRuntimePage(pages, { query: 'frames=change' });
  const rt = new LightRuntime({ baseHref: `${pages.server.origin}/runtime/index.html` });
  const urls = { gameId, assetBase: `/games/${gameId}/`, storyUrl: `/runtime/games/${gameId}.json` };
  await Promise.all([page.evaluate((o) => window.yumecast.start(o), urls), rt.start(urls)]);
  return { page, rt, errors };
}

function pressBoth({ page, rt }: Pair, k: string): Promise<void> {
  rt.applyInput({ v: 1, type: 'key', kind: 'down', key: k });
  rt.applyInput({ v: 1, type: 'key', kind: 'up', key: k });
  return key(page, k);
}

/** Waits until both have typed their line, then for the scene to settle. */
async function settle({ page, rt }: Pair): Promise<void> {
  await waitFor(page, (s) => !s.typing, 'the page to type its line');
  for (let i = 0; rt.getState().typing && i < 200; i++) await sleep(40);
  await sleep(SETTLE_MS);
}

async function pageShot(page: Page): Promise<Buffer> {
  const url = await page.evaluate(() => window.yumecast.screenshot());
  return Buffer.from(url.slice(url.indexOf(',') + 1), 'base64');
}

interface Scene {
  name: string;
  page: EngineState;
  light: EngineState;
  pagePng: Buffer;
  lightPng: Buffer;
}

/** The title screen and the first `lines` story lines, in both. */
async function scenes(gameId: string, lines: number): Promise<{ shots: Scene[]; errors: string[] }> {
  const pair = await startBoth(gameId);
  const shots: Scene[] = [];
  try {
    await sleep(SETTLE_MS + 300); // the title's fade in
    for (let i = 0; i <= lines; i++) {
      if (i > 0) {
        await pressBoth(pair, 'Enter');
        await settle(pair);
      }
      const [pagePng, pageState] = [await pageShot(pair.page), await state(pair.page)];
      const lightPng = pair.rt.screenshot();
      shots.push({ name: i === 0 ? 'title' : `line ${i}`, page: pageState, light: pair.rt.getState(), pagePng, lightPng });
    }
  } finally {
    pair.rt.close();
    await pair.page.close();
  }
  return { shots, errors: pair.errors };
}

describe('the light runtime draws as the page does', () => {
  it.each([
    [FIXTURE, 2],
    ['hajimari-no-eki', 3],
  ])('%s: the title screen and %i story lines', async (gameId, lines) => {
    const { shots, errors } = await scenes(gameId, lines);
    for (const s of shots) {
      const what = `${gameId} ${s.name}`;
      expect([what, s.light.screen, s.light.visibleText, s.light.speakerName, s.light.scene]).toEqual([what, s.page.screen, s.page.visibleText, s.page.speakerName, s.page.scene]);
      const whole = await psnr(s.pagePng, s.lightPng);
      const text = await psnr(s.pagePng, s.lightPng, TEXT_WINDOW);
      console.info(`[light] ${what}: PSNR ${whole.toFixed(1)} dB, text window ${text.toFixed(1)} dB`);
      expect([what, whole >= PICTURE_DB, text >= TEXT_DB]).toEqual([what, true, true]);
    }
    expect(shots.map((s) => s.light.screen)).toEqual(['title', ...Array(lines).fill('story')]);
    // the measure tells lines apart: the page's first line against the light runtime's second
    const wrong = await psnr(shots[1].pagePng, shots[2].lightPng, TEXT_WINDOW);
    expect(wrong).toBeLessThan(TEXT_DB);
    expect(errors).toEqual([]);
  });
});

describe('a light session', () => {
  it("holds its memory while it draws and hands out its pixels (none is kept a frame each)", async () => {
    const rt = new LightRuntime({ baseHref: `${pages.server.origin}/runtime/index.html` });
    try {
      await rt.start({ gameId: FIXTURE, assetBase: `/games/${FIXTURE}/`, storyUrl: `/runtime/games/${FIXTURE}.json`, skipTitle: true });
      let bytes = 0;
      const frame = () => {
        rt.drawNow();
        bytes = rt.pixels().length;
      };
      for (let i = 0; i < 60; i++) frame();
      const before = process.memoryUsage().rss;
      // no forced collection: as a session runs
      for (let i = 0; i < 300; i++) frame();
      expect(bytes).toBe(1280 * 720 * 4);
      const grown = (process.memoryUsage().rss - before) / 1048576;
      console.info(`[light] 300 frames read back: RSS ${grown.toFixed(1)} MB more; ${rt.getState().drawMs} ms a draw`);
      // a frame's pixels are 3.5 MB: keeping one a read-back would be ~1 GB
      expect(grown).toBeLessThan(100);
    } finally {
      rt.close();
    }
  });

  it('refuses bad input and a bad game id, and changes nothing', async () => {
    const rt = new LightRuntime({ baseHref: `${pages.server.origin}/runtime/index.html` });
    try {
      await expect(rt.start({ gameId: '../etc/passwd' })).rejects.toThrow('bad game id');
      expect(() => rt.getState()).toThrow('not started');
    } finally {
      rt.close();
    }
    const ok = new LightRuntime({ baseHref: `${pages.server.origin}/runtime/index.html` });
    try {
      await ok.start({ gameId: FIXTURE, assetBase: `/games/${FIXTURE}/`, storyUrl: `/runtime/games/${FIXTURE}.json` });
      const before = ok.getState();
      for (const bad of [null, 'Enter', { v: 1, type: 'key', kind: 'down' }, { v: 2, type: 'key', kind: 'down', key: 'Enter' }, { v: 1, type: 'pointer', kind: 'down', x: 'a', y: 0 }, { v: 1, type: 'key', kind: 'down', key: 'x'.repeat(10_000) }]) {
        expect(ok.applyInput(bad)).toBe(false);
      }
      await sleep(200);
      const after = ok.getState();
      expect([after.screen, after.lineCount, after.visibleText]).toEqual([before.screen, before.lineCount, before.visibleText]);
    } finally {
      ok.close();
    }
    const missing = new LightRuntime({ baseHref: `${pages.server.origin}/runtime/index.html` });
    try {
      await expect(missing.start({ gameId: 'no-such-title' })).rejects.toThrow();
      expect(missing.getState().error).toMatch(/^game_not_found: 404 /);
    } finally {
      missing.close();
    }
  });
});
