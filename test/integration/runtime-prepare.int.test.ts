/**
 * Titles prepared ahead (yumecast.prepare, runtime/src/prepare.ts) in Debian Chromium, served by
 * the host's own page server: start() after prepare() uses the preparation (no fetch or parse,
 * `prepared: true`) and draws the same title screen as a plain start; a resumed save starts from
 * its own scene as without one; a start for another game, or with other URLs, loads afresh and
 * drops the preparations; a failed preparation leaves a plain start working; and the warm
 * runtime's page-side prewarm (server/host/page/prewarm.ts) prepares the plan's titles; a plain
 * start on the title screen waits for the title screen's glyphs only (main.ts, HOST_START_FONTS).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { FIXTURES_DIR, GAMES_DIR } from '../../runtime/build';
import type { EngineState, PrepareInfo, ReadyInfo, StartOptions } from '../../runtime/src/types';
import { PREPARE_MAX, buildPrewarmPlan } from '../../server/host/prewarm';
import { buildTestRuntime } from '../../server/host/testing/harness';
import { FIXTURE, key, openRuntimePage, runtimePagesForSuite, sleep, state, waitFor, type OpenedPage } from './runtime-page';

jest.setTimeout(120_000);

const pages = runtimePagesForSuite();
const GAME = 'hajimari-no-eki';
const urls = (id: string) => ({ assetBase: `/games/${id}/`, storyUrl: `/runtime/games/${id}.json` });

/** A runtime page as a warm runtime has it (`frames=change`: idle animations still, so screens compare). */
const openPage = (): Promise<OpenedPage> => openRuntimePage(pages, { query: 'frames=change' });

/** Two such pages (a plain start beside a prepared one), closed after `fn`; neither logged an error. */
async function withPair(fn: (plain: OpenedPage, warm: OpenedPage) => Promise<void>): Promise<void> {
  const plain = await openPage();
  const warm = await openPage();
  try {
    await fn(plain, warm);
    expect([...plain.errors, ...warm.errors]).toEqual([]);
  } finally {
    await plain.page.close();
    await warm.page.close();
  }
}

function prepare(page: Page, id: string, o: { assetBase?: string; storyUrl?: string } = urls(id)): Promise<PrepareInfo> {
  return page.evaluate(({ id, o }) => window.yumecast.prepare(id, o), { id, o });
}

async function start(page: Page, id: string, o: StartOptions = {}): Promise<{ info: ReadyInfo; atReady: EngineState }> {
  return page.evaluate(
    async ({ id, o }) => {
      const info = await window.yumecast.start({ ...o, gameId: id });
      return { info, atReady: window.yumecast.getState() };
    },
    { id, o: { ...urls(id), ...o } },
  );
}

/** Mean absolute difference per channel between this page's canvas and another screenshot (sampled). */
function screenDistance(page: Page, other: string): Promise<number> {
  return page.evaluate(async (src) => {
    const pixels = async (url: string) => {
      const img = new Image();
      img.src = url;
      await img.decode();
      const c = document.createElement('canvas');
      c.width = 1280;
      c.height = 720;
      const g = c.getContext('2d')!;
      g.drawImage(img, 0, 0);
      return g.getImageData(0, 0, 1280, 720).data;
    };
    const a = await pixels(await window.yumecast.screenshot());
    const b = await pixels(src);
    let sum = 0;
    let n = 0;
    for (let i = 0; i < a.length; i += 4 * 7) {
      for (let ch = 0; ch < 3; ch++) sum += Math.abs(a[i + ch] - b[i + ch]);
      n += 3;
    }
    return sum / n;
  }, other);
}

/** After `settleMs`, the prepared page shows what the plain one does. */
async function sameScreen(plain: OpenedPage, warm: OpenedPage, settleMs: number): Promise<void> {
  await sleep(settleMs);
  const shot = await plain.page.evaluate(() => window.yumecast.screenshot());
  expect(await screenDistance(warm.page, shot)).toBeLessThan(0.5);
}

/** A save of the fixture in its story, with a character on the stage. */
async function fixtureSave(): Promise<string> {
  const { page } = await openPage();
  try {
    await start(page, FIXTURE, { skipTitle: true, textSpeed: 200 });
    for (let i = 0; i < 12 && (await state(page)).characters.length === 0; i++) {
      await key(page, 'Enter');
      await sleep(120);
    }
    const s = await waitFor(page, (x) => x.characters.length > 0 && !x.typing, 'a character on the stage');
    expect(s.scene).toBeTruthy();
    const save = await page.evaluate(() => window.yumecast.snapshot());
    expect(save).toBeTruthy();
    return save!;
  } finally {
    await page.close();
  }
}

describe('runtime: titles prepared ahead', () => {
  it('start() after prepare() uses it and draws the same title screen as a plain start', () =>
    withPair(async (plain, warm) => {
      const p = await prepare(warm.page, GAME);
      expect(p).toMatchObject({ gameId: GAME, ok: true });
      expect(Object.keys(p.timings)).toEqual(expect.arrayContaining(['files', 'fonts', 'art', 'draw']));
      expect((await state(warm.page)).prepared).toEqual([GAME]);
      // the same call again is the same preparation
      expect(await prepare(warm.page, GAME)).toEqual(p);

      const a = await start(plain.page, GAME);
      const b = await start(warm.page, GAME);
      expect(a.info.prepared).toBe(false);
      expect(b.info.prepared).toBe(true);
      expect(b.info.timings.files).toBe(0);
      expect(b.info.timings.parse).toBe(0);
      expect(b.info.title).toBe(a.info.title);
      for (const s of [a.atReady, b.atReady]) expect(s).toMatchObject({ ready: true, screen: 'title', fontsReady: true });
      // the first screen's art only, as without a preparation
      expect(b.atReady.art).toEqual(a.atReady.art);
      expect(b.atReady.prepared).toBeUndefined();

      await sameScreen(plain, warm, 1500); // the title's fade in
      // and it plays on: 「はじめから」 into the story
      await key(warm.page, 'Enter');
      await waitFor(warm.page, (x) => x.screen === 'story' && x.text !== '', 'the first line');
    }));

  it('a resumed save starts from its scene with a prepared title, as without one', async () => {
    const save = await fixtureSave();
    await withPair(async (plain, warm) => {
      expect(await prepare(warm.page, FIXTURE)).toMatchObject({ ok: true });
      const a = await start(plain.page, FIXTURE, { state: save });
      const b = await start(warm.page, FIXTURE, { state: save });
      expect(b.info.prepared).toBe(true);
      const pick = (s: EngineState) => ({ screen: s.screen, scene: s.scene, characters: s.characters, text: s.text, speaker: s.speaker });
      expect(pick(b.atReady)).toEqual(pick(a.atReady));
      expect(b.atReady.screen).toBe('story');
      // its scene and characters rasterised before ready (the title's background too: prepared)
      const shown = 1 + b.atReady.characters.length;
      expect(b.atReady.art!.rasterised).toBeGreaterThanOrEqual(shown);
      await sameScreen(plain, warm, 3000); // the fade in and the 「ロードしました」 toast
    });
  });

  it('a start for another game, or with other URLs, loads afresh and drops the preparations', () =>
    withPair(async (other, moved) => {
      expect(await prepare(other.page, GAME)).toMatchObject({ ok: true });
      const a = await start(other.page, FIXTURE);
      expect(a.info).toMatchObject({ gameId: FIXTURE, prepared: false });
      expect(a.atReady).toMatchObject({ screen: 'title', ready: true });
      // one game per page: preparing after a start does nothing
      expect(await prepare(other.page, GAME)).toMatchObject({ ok: false, error: expect.stringContaining('started') });

      expect(await prepare(moved.page, FIXTURE, { assetBase: `/games/${FIXTURE}/`, storyUrl: '' })).toMatchObject({ ok: true });
      const b = await start(moved.page, FIXTURE);
      expect(b.info).toMatchObject({ prepared: false, storySource: 'precompiled' });
      expect(b.atReady.screen).toBe('title');
    }));

  it('a preparation that fails leaves a plain start working', async () => {
    const { page } = await openPage();
    try {
      const bad = await prepare(page, 'no-such-game');
      expect(bad).toMatchObject({ gameId: 'no-such-game', ok: false });
      expect(bad.error).toBeTruthy();
      expect(await prepare(page, '../x')).toMatchObject({ ok: false, error: expect.stringContaining('bad game id') });
      expect((await state(page)).prepared).toEqual([]);
      const a = await start(page, FIXTURE);
      expect(a.info.prepared).toBe(false);
      expect(a.atReady.screen).toBe('title');
    } finally {
      await page.close();
    }
  });

  it("a start on the title screen waits for the title screen's glyphs only, the story's load after it (?fonts=all: all before)", async () => {
    const runtimeDir = await buildTestRuntime();
    const { charset } = JSON.parse(fs.readFileSync(path.join(runtimeDir, 'games', `${GAME}.json`), 'utf8')) as { charset: string };
    // the story's characters whose glyphs are not loaded (string code: no bundler helper in it)
    const missing = `[...${JSON.stringify(charset)}].filter((c) => !document.fonts.check('400 30px "Noto Sans JP"', c)).length`;
    const startThenCount = `window.yumecast.start(${JSON.stringify({ gameId: GAME, ...urls(GAME) })}).then((info) => ({ missing: ${missing}, screen: window.yumecast.getState().screen, fontsReady: window.yumecast.getState().fontsReady }))`;
    const first = await openRuntimePage(pages);
    const all = await openRuntimePage(pages, { query: 'fonts=all' });
    try {
      const a = (await first.page.evaluate(startThenCount)) as { missing: number; screen: string; fontsReady: boolean };
      expect(a).toMatchObject({ screen: 'title', fontsReady: true });
      expect(a.missing).toBeGreaterThan(0);
      // the rest arrive while the title shows
      for (let t = Date.now(); Date.now() - t < 30_000 && ((await first.page.evaluate(missing)) as number) > 0; ) await sleep(250);
      expect(await first.page.evaluate(missing)).toBe(0);
      const b = (await all.page.evaluate(startThenCount)) as { missing: number; screen: string };
      // all of them were waited for (up to preloadFonts' 5 s cap: on a loaded machine a few may be late)
      expect(b).toMatchObject({ screen: 'title' });
      expect(b.missing).toBeLessThan(a.missing / 4);
      expect([...first.errors, ...all.errors]).toEqual([]);
    } finally {
      await first.page.close();
      await all.page.close();
    }
  });

  it("the warm runtime's prewarm prepares the plan's titles with the URLs a session starts with", async () => {
    const runtimeDir = await buildTestRuntime();
    const dirs = [GAMES_DIR, FIXTURES_DIR];
    const byDefault = buildPrewarmPlan(runtimeDir, dirs);
    expect(byDefault.prepare!.length).toBe(PREPARE_MAX);
    expect(buildPrewarmPlan(runtimeDir, dirs, { prepareMax: 0 }).prepare).toEqual([]);
    const plan = buildPrewarmPlan(runtimeDir, dirs, { prepare: [FIXTURE, 'not-built', GAME] });
    expect(plan.prepare).toEqual([
      { gameId: FIXTURE, ...urls(FIXTURE) },
      { gameId: GAME, ...urls(GAME) },
    ]);

    const { page, errors } = await openPage();
    try {
      await page.addScriptTag({ url: `${pages.server.origin}/host/bridge.js` });
      await page.waitForFunction(() => !!window.__yumecastHost);
      const res = await page.evaluate((p) => window.__yumecastHost!.prewarm(p), plan);
      expect(res).toMatchObject({ fontsOk: true, failed: 0 });
      expect(res.prepared.map((x) => [x.gameId, x.ok])).toEqual([
        [FIXTURE, true],
        [GAME, true],
      ]);
      expect((await state(page)).prepared).toEqual([FIXTURE, GAME]);
      const a = await start(page, GAME);
      expect(a.info).toMatchObject({ prepared: true, gameId: GAME });
      expect(a.atReady).toMatchObject({ screen: 'title', fontsReady: true });
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
