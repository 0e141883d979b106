/**
 * The runtime's art within its memory budget (issue 11: memory per session), in Debian Chromium
 * served by the host's own page server: over a play of hajimari-no-eki (23 images, ~58 MB of
 * rasters if all were kept) the art store (runtime/src/art.ts) holds at most its budget of
 * rasters, beyond it only what the screen shows and what a change just asked for
 * (getState().art: heldBytes ≤ max(budget, keptBytes)); it did free rasters; a save slot shows a
 * thumbnail of its own; the title, whose art was freed during the play, is drawn with its art
 * again, not the placeholder; and no draw throws (a freed canvas drawn would).
 */
import type { Page } from 'playwright-core';
import type { ArtStats, EngineState } from '../../runtime/src/types';
import { ART_CACHE_BYTES, pageArtBudget } from '../../runtime/src/art';
import { pageOptions } from '../../runtime/src/page-options';
import { key, openRuntimePage, runtimePagesForSuite, sleep, state, waitFor } from './runtime-page';

jest.setTimeout(240_000);

const pages = runtimePagesForSuite();
const GAME = 'hajimari-no-eki';

/** The bound the art store keeps (see the file header). */
function withinBound(art: ArtStats): boolean {
  return art.heldBytes <= Math.max(art.budget, art.keptBytes);
}

/** RGB samples of the canvas's top strip (the title's art under its darkening, no text there). */
function strip(page: Page): Promise<number[]> {
  return page.evaluate(() => {
    const data = (document.getElementById('screen') as HTMLCanvasElement).getContext('2d')!.getImageData(0, 0, 1280, 60).data;
    const out: number[] = [];
    for (let i = 0; i < data.length; i += 4 * 7) out.push(data[i], data[i + 1], data[i + 2]);
    return out;
  });
}

const distance = (a: number[], b: number[]) => a.reduce((s, v, i) => s + Math.abs(v - b[i]), 0) / a.length;

/** A pointer click at canvas coordinates (the engine's input API, as the host sends it). */
async function click(page: Page, x: number, y: number): Promise<void> {
  await page.evaluate(
    ([px, py]) => {
      for (const kind of ['move', 'down', 'up'] as const) window.yumecast.applyInput({ v: 1, type: 'pointer', kind, x: px / 1280, y: py / 720, button: 0 });
    },
    [x, y],
  );
}

describe("the runtime page's options (page-options.ts)", () => {
  it('reads the query the host opens the page with, and falls back on anything else', () => {
    expect(pageOptions('?frames=change&artMb=8&loops=pcm&fonts=all&sfx=live')).toMatchObject({ frames: 'change', artMb: 8, loops: 'pcm', fonts: 'all', sfx: 'live' });
    expect(pageOptions('')).toMatchObject({ frames: 'steady', artMb: null, loops: 'buffer', fonts: 'first', sfx: 'file', game: null, monitor: false, autostart: null });
    expect(pageOptions('?frames=x&artMb=-1&loops=wav&sfx=off')).toMatchObject({ frames: 'steady', artMb: null, loops: 'buffer', sfx: 'file' });
    expect(pageOptions('?capture=canvas&sink=none')).toMatchObject({ capture: 'canvas', sink: 'none' });
    expect(pageOptions('?capture=x&sink=x')).toMatchObject({ capture: 'frame', sink: 'device' });
    expect(pageOptions('?game=hajimari-no-eki&monitor=1&autostart=0&session=s1')).toMatchObject({ game: 'hajimari-no-eki', monitor: true, autostart: '0', session: 's1' });
    // the art budget: MB, 0 = keep everything, else the store's own
    expect(pageArtBudget('?artMb=8')).toBe(8 * 1024 * 1024);
    expect(pageArtBudget('?artMb=0')).toBe(Infinity);
    expect(pageArtBudget('?artMb=abc')).toBe(ART_CACHE_BYTES);
    expect(pageArtBudget('')).toBe(ART_CACHE_BYTES);
  });
});

describe('runtime: memory', () => {
  it('keeps the art within its budget over a play, and draws freed art again', async () => {
    const { page, errors } = await openRuntimePage(pages);
    try {
      await page.evaluate((id) => window.yumecast.start({ gameId: id, assetBase: `/games/${id}/`, storyUrl: `/runtime/games/${id}.json` }), GAME);
      await sleep(1500); // the title's fade in
      const title = await strip(page);

      // idle time rasterises every image once; what does not fit is freed again
      let s = await waitFor(page, (x) => x.art!.rasterised === x.art!.total, 'every image rasterised once', 90_000);
      const budget = s.art!.budget;
      expect(s.art!.total).toBe(23);
      expect(budget).toBeLessThan(23 * 1.4e6);
      expect(withinBound(s.art!)).toBe(true);

      // into the story, and on through its scenes (the first choice each time)
      await key(page, 'Enter');
      await waitFor(page, (x) => x.screen === 'story' && x.text !== '', 'the first line');
      const scenes = new Set<string>();
      const breaches: unknown[] = [];
      for (let i = 0; i < 600 && (scenes.size < 4 || s.lineCount < 150); i++) {
        s = await state(page);
        if (s.scene) scenes.add(s.scene);
        if (!withinBound(s.art!)) breaches.push({ line: s.lineCount, scene: s.scene, art: s.art });
        if (s.screen !== 'story') break;
        await key(page, s.choices.length ? '1' : 'Enter');
        await sleep(100);
      }
      expect(breaches).toEqual([]);
      expect(scenes.size).toBeGreaterThanOrEqual(4);
      expect(s.art!.evicted).toBeGreaterThan(0);
      expect(s.art!.failed).toBe(0);

      // a save slot's picture: a thumbnail, not a background raster kept for it
      await key(page, 'Save');
      await waitFor(page, (x) => x.overlay === 'save', 'the save slots');
      await key(page, '1');
      await waitFor(page, (x) => x.saves.length === 1 && x.overlay === null, 'slot 1 saved');
      await key(page, 'Load');
      s = await waitFor(page, (x) => x.overlay === 'load' && x.art!.thumbBytes > 0, 'the load slots with their thumbnail');
      expect(s.art!.thumbBytes).toBeLessThan(400_000);
      await key(page, 'Escape');
      await waitFor(page, (x) => x.overlay === null, 'the slots closed');

      // back to the title: its background (freed while the story went on, or kept) is drawn again
      await key(page, 'Menu');
      await waitFor(page, (x) => x.overlay === 'menu', 'the menu');
      await click(page, 640, 150 + 5 * 66 + 27); // タイトルに戻る
      await waitFor(page, (x) => x.overlay === 'confirm', 'the confirm');
      await click(page, 640 - 190 + 85, 390 + 27); // はい
      await waitFor(page, (x: EngineState) => x.screen === 'title', 'the title');
      await sleep(2500); // the art's hold (if it was freed) and the fade
      expect(distance(await strip(page), title)).toBeLessThan(3);

      // once nothing was asked for lately, the rasters fit the budget itself
      await sleep(2500);
      s = await state(page);
      expect(s.art!.heldBytes).toBeLessThanOrEqual(budget);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
