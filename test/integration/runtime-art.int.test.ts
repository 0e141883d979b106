/**
 * The runtime's lazy art (runtime/src/art.ts) in Debian Chromium, served by the host's own page
 * server: start() rasterises only the first screen's images and resolves before the rest; the
 * rest comes in idle time; an image a scene needs before then is loaded at once, the scene change
 * waits for it, and it is drawn (not the placeholder); a resumed save rasterises its own scene.
 */
import type { Page } from 'playwright-core';
import type { EngineState, ReadyInfo, StartOptions } from '../../runtime/src/types';
import { FIXTURE, key, openRuntimePage, runtimePagesForSuite, sleep, state, waitFor } from './runtime-page';

jest.setTimeout(120_000);

const pages = runtimePagesForSuite();

interface Started {
  page: Page;
  errors: string[];
  info: ReadyInfo;
  /** The engine's state in the same task start() resolved in. */
  atReady: EngineState;
}

/**
 * Opens the runtime page and starts a game. `idle: false` takes requestIdleCallback away, so
 * nothing is rasterised in the background and every later image must come on demand.
 */
async function start(gameId: string, options: StartOptions, idle: boolean): Promise<Started> {
  const { page, errors } = await openRuntimePage(pages, {
    before: async (p) => {
      if (!idle) await p.addInitScript(() => Object.assign(window, { requestIdleCallback: () => 0 }));
    },
  });
  const { info, atReady } = await page.evaluate(
    async ({ id, o }) => {
      const info = await window.yumecast.start({ ...o, gameId: id, assetBase: `/games/${id}/`, storyUrl: `/runtime/games/${id}.json` });
      return { info, atReady: window.yumecast.getState() };
    },
    { id: gameId, o: options },
  );
  return { page, errors, info, atReady };
}

/**
 * Presses Enter (one line at a time) until `pred` holds. Never while a choice is shown: Enter
 * would pick one, and on a loaded machine a choice can appear between reading the state and
 * pressing (so the check and the press happen in one page task).
 */
async function until(page: Page, pred: (s: EngineState) => boolean, what: string): Promise<EngineState> {
  for (let i = 0; i < 80; i++) {
    const s = await state(page);
    if (pred(s)) return s;
    await page.evaluate(() => {
      if (window.yumecast.getState().choices.length > 0) return;
      window.yumecast.applyInput({ v: 1, type: 'key', kind: 'down', key: 'Enter' });
      window.yumecast.applyInput({ v: 1, type: 'key', kind: 'up', key: 'Enter' });
    });
    await sleep(60);
  }
  const s = await state(page);
  throw new Error(`never reached ${what}: ${JSON.stringify({ ...s, saves: s.saves.length })}`);
}

/**
 * How far the top strip of the canvas (above the sprites) is from the SVG `url` drawn to cover
 * the screen, and how far the missing-art placeholder would be: mean absolute difference per
 * channel, sampled.
 */
function stripDistance(page: Page, url: string): Promise<{ drawn: number; placeholder: number }> {
  return page.evaluate(async (src) => {
    const W = 1280;
    const H = 720;
    const STRIP = 60;
    const img = new Image();
    img.src = src;
    await img.decode();
    const paint = (draw: (g: CanvasRenderingContext2D) => void) => {
      const c = document.createElement('canvas');
      c.width = W;
      c.height = H;
      const g = c.getContext('2d')!;
      draw(g);
      return g.getImageData(0, 0, W, STRIP).data;
    };
    const ref = paint((g) => g.drawImage(img, 0, 0, W, H));
    const placeholder = paint((g) => {
      const grad = g.createLinearGradient(0, 0, 0, H);
      grad.addColorStop(0, '#23284a');
      grad.addColorStop(1, '#0d0f1f');
      g.fillStyle = grad;
      g.fillRect(0, 0, W, H);
    });
    const screen = (document.getElementById('screen') as HTMLCanvasElement).getContext('2d')!.getImageData(0, 0, W, STRIP).data;
    const dist = (a: Uint8ClampedArray) => {
      let sum = 0;
      let n = 0;
      for (let i = 0; i < a.length; i += 4 * 5) {
        for (let ch = 0; ch < 3; ch++) sum += Math.abs(a[i + ch] - ref[i + ch]);
        n += 3;
      }
      return sum / n;
    };
    return { drawn: dist(screen), placeholder: dist(placeholder) };
  }, url);
}

describe('runtime: lazy art', () => {
  it('start() rasterises only the title screen art, and idle time does the rest', async () => {
    const { page, errors, info, atReady } = await start('hajimari-no-eki', {}, true);
    try {
      expect(atReady.screen).toBe('title');
      const art = atReady.art!;
      expect(art.total).toBeGreaterThan(10);
      // the title's background only: the story's other backgrounds and every sprite come later
      expect(art.rasterised).toBe(1);
      expect(info.timings.artDeferred).toBe(art.total - 1);
      const s = await waitFor(page, (x) => x.art!.rasterised === x.art!.total, 'every image rasterised in idle time', 60_000);
      expect(s.art).toMatchObject({ failed: 0, misses: 0, holds: 0 });
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('loads an image a scene needs at once, waits for it, and draws it; a resumed save rasterises its scene', async () => {
    const { page, errors, atReady } = await start(FIXTURE, { textSpeed: 200 }, false);
    let saved = '';
    try {
      expect(atReady.art).toMatchObject({ total: 6, rasterised: 1 });
      // 「はじめから」: the first scene is the title's background; its second line brings hana
      await key(page, 'Enter');
      await waitFor(page, (x) => x.screen === 'story' && x.text !== '', 'the first line');
      await key(page, 'Enter');
      await key(page, 'Enter');
      let s = await waitFor(page, (x) => x.characters.length === 1, 'hana on stage');
      expect(s.art!.holds).toBeGreaterThanOrEqual(1);
      // her sprite, asked for by that scene change (nothing rasterises in the background here)
      s = await waitFor(page, (x) => x.art!.rasterised === 2, 'her sprite');
      // on to the choice, take 「一緒に待つ」 and reach the night scene, whose art nobody loaded
      s = await until(page, (x) => x.choices.length > 0, 'the choice');
      const before = s.art!.holds;
      await key(page, '1');
      s = await until(page, (x) => x.scene === 'night', 'the night scene');
      expect(s.art!.holds).toBeGreaterThan(before);
      await waitFor(page, (x) => !x.typing, 'the line typed');
      await sleep(800); // the crossfade
      const d = await stripDistance(page, `/games/${FIXTURE}/art/bg-night.svg`);
      expect(d.placeholder).toBeGreaterThan(15);
      expect(d.drawn).toBeLessThan(Math.min(8, d.placeholder / 3));
      saved = (await page.evaluate(() => window.yumecast.snapshot())) ?? '';
      expect(JSON.parse(saved)).toMatchObject({ format: 'yumecast-vn-save' });
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }

    // a resumed play: start() rasterises the saved scene and its characters before ready
    const resumed = await start(FIXTURE, { state: saved }, false);
    try {
      expect(resumed.atReady.screen).toBe('story');
      expect(resumed.atReady.scene).toBe('night');
      const shown = 1 + resumed.atReady.characters.length;
      expect(resumed.atReady.art).toMatchObject({ total: 6, rasterised: shown });
      await sleep(2600); // the fade in, and the 「ロードしました」 toast over the strip
      const d = await stripDistance(resumed.page, `/games/${FIXTURE}/art/bg-night.svg`);
      expect(d.drawn).toBeLessThan(Math.min(8, d.placeholder / 3));
      expect(resumed.errors).toEqual([]);
    } finally {
      await resumed.page.close();
    }
  });
});
