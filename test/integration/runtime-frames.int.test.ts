/**
 * The runtime's frame modes (runtime/src/frames.ts, docs/vn-engine.md "Frames") in Debian
 * Chromium: in `change` mode a still story line draws nothing and sends only refresh frames
 * (a few right after a change, then one every few seconds), input draws at once, typing, auto
 * mode and the petals still run at their own pace, a new consumer gets a frame, screenshots stay
 * full size, the track's frames are the canvas's pixels (written VideoFrames by default, the
 * canvas's capture with ?capture=canvas); `steady` (the default) keeps drawing at the engine's rate.
 */
import type { Page } from 'playwright-core';
import { FIXTURE, key, openRuntimePage, runtimePagesForSuite, sleep, state, waitFor } from './runtime-page';

jest.setTimeout(120_000);

const pages = runtimePagesForSuite();

/** Opens the fixture in `change` mode with a consumer that counts the video frames it gets. */
async function openChange(): Promise<Page> {
  const { page } = await openRuntimePage(pages, { query: 'frames=change' });
  await page.evaluate(async (id) => {
    await window.yumecast.start({ gameId: id, assetBase: `/games/${id}/`, storyUrl: `/runtime/games/${id}.json`, skipTitle: true });
    const s = window.yumecast.captureStream(30, { mode: 'change' });
    const w = window as unknown as { __frames: number[] };
    w.__frames = [];
    type Reader = { read: () => Promise<{ value?: { close: () => void }; done: boolean }> };
    const Processor = (window as unknown as { MediaStreamTrackProcessor: new (o: { track: MediaStreamTrack }) => { readable: { getReader: () => Reader } } })
      .MediaStreamTrackProcessor;
    const rd = new Processor({ track: s.getVideoTracks()[0] }).readable.getReader();
    void (async () => {
      for (;;) {
        const { value, done } = await rd.read();
        if (done) break;
        w.__frames.push(performance.now());
        value?.close();
      }
    })();
  }, FIXTURE);
  return page;
}

/** Video frames the consumer got in the last `ms`. */
const framesSince = (page: Page, ms: number): Promise<number> =>
  page.evaluate((d) => (window as unknown as { __frames: number[] }).__frames.filter((t) => t > performance.now() - d).length, ms);

describe('runtime frames: change mode', () => {
  let page: Page;
  beforeAll(async () => {
    page = await openChange();
  });
  afterAll(async () => {
    await page?.close();
  });

  it('types the first line at its own pace, then holds a still line without drawing', async () => {
    const s0 = await waitFor(page, (s) => s.screen === 'story' && s.text.length > 0, 'the first line');
    expect(s0.frameMode).toBe('change');
    const typed = await waitFor(page, (s) => !s.typing && s.visibleText === s.text, 'the line typed out');
    expect(typed.frame).toBeGreaterThan(5);
    // the fade and the refining frames are over after ~2 s; then nothing is drawn
    await sleep(2500);
    const a = await state(page);
    await sleep(1500);
    const b = await state(page);
    expect(b.frame - a.frame).toBe(0);
  });

  it('refreshes a still picture: a few frames after a change, then one every few seconds', async () => {
    await key(page, 'Enter');
    await waitFor(page, (s) => !s.typing && s.lineCount === 2, 'the second line typed');
    await sleep(2000);
    // refining frames after the change (the draws of the typing and 3 refreshes; a loaded
    // machine may coalesce some)
    expect(await framesSince(page, 2500)).toBeGreaterThanOrEqual(2);
    await sleep(5600);
    const still = await framesSince(page, 5500);
    expect(still).toBeGreaterThanOrEqual(1);
    expect(still).toBeLessThanOrEqual(4);
  });

  it('sends three refining frames of a still picture after a change (six were no sharper to the player: bench/play-sharpness)', async () => {
    await waitFor(page, (s) => s.overlay === null && !s.typing, 'a still line');
    await sleep(2000); // the last change's refining frames are over
    const a = await state(page);
    await key(page, 'Escape'); // the menu: a change drawn at once, nothing typed after it
    await waitFor(page, (s) => s.overlay === 'menu', 'the menu');
    await sleep(2200);
    const b = await state(page);
    const drawn = b.frame - a.frame;
    const stillFrames = (b.videoFrames ?? NaN) - (a.videoFrames ?? NaN) - drawn;
    expect(drawn).toBeGreaterThanOrEqual(1);
    // 3 refining frames (at 100, 500, 1700 ms); one more if the 2.5 s refresh fell just before the key
    expect(stillFrames).toBeGreaterThanOrEqual(3);
    expect(stillFrames).toBeLessThanOrEqual(4);
    await key(page, 'Escape');
    await waitFor(page, (s) => s.overlay === null, 'the menu closed');
  });

  it('draws at once on input', async () => {
    const before = await state(page);
    const t = await page.evaluate(async () => {
      const f0 = window.yumecast.getState().frame;
      const t0 = performance.now();
      window.yumecast.applyInput({ v: 1, type: 'key', kind: 'down', key: 'Escape' });
      for (;;) {
        await new Promise((r) => setTimeout(r, 5));
        if (window.yumecast.getState().frame > f0) return performance.now() - t0;
        if (performance.now() - t0 > 2000) return -1;
      }
    });
    expect(t).toBeGreaterThanOrEqual(0);
    expect(t).toBeLessThan(500);
    expect((await state(page)).overlay).toBe('menu');
    await key(page, 'Escape');
    await waitFor(page, (s) => s.overlay === null && s.frame > before.frame + 1, 'the menu closed');
  });

  it("draws nothing for a release that changes nothing (a key's up, a tap's up); Control's up still redraws", async () => {
    await waitFor(page, (s) => s.overlay === null && !s.typing, 'a still line');
    await sleep(300);
    const drawsAfter = (msgs: object[]) =>
      page.evaluate(async (list) => {
        const f0 = window.yumecast.getState().frame;
        for (const m of list) window.yumecast.applyInput(m as Parameters<typeof window.yumecast.applyInput>[0]);
        await new Promise((r) => setTimeout(r, 400));
        return window.yumecast.getState().frame - f0;
      }, msgs);
    // the line's text, away from every button: where a player's tap lands to read on
    const release = [
      { v: 1, type: 'key', kind: 'up', key: 'Enter' },
      { v: 1, type: 'key', kind: 'up', key: '1' },
      { v: 1, type: 'pointer', kind: 'up', x: 0.5, y: 0.3, button: 0 },
    ];
    expect(await drawsAfter(release)).toBe(0);
    expect(await drawsAfter([{ v: 1, type: 'key', kind: 'up', key: 'Control' }])).toBeGreaterThan(0);
    expect((await state(page)).lineCount).toBe(2);
  });

  it('gives a new consumer a frame at once, and keeps screenshots full size', async () => {
    const got = await page.evaluate(async () => {
      const s = window.yumecast.captureStream(30, { mode: 'change' });
      const track = s.getVideoTracks()[0];
      const Processor = (window as unknown as { MediaStreamTrackProcessor: new (o: { track: MediaStreamTrack }) => { readable: ReadableStream<{ close: () => void }> } })
        .MediaStreamTrackProcessor;
      const rd = new Processor({ track }).readable.getReader();
      const t0 = performance.now();
      const first = await Promise.race([rd.read().then(() => performance.now() - t0), new Promise<number>((r) => setTimeout(() => r(-1), 1500))]);
      track.stop();
      return { first, hint: track.contentHint };
    });
    expect(got.hint).toBe('detail');
    expect(got.first).toBeGreaterThanOrEqual(0);
    expect(got.first).toBeLessThan(1000);
    const before = (await state(page)).frame;
    const size = await page.evaluate(async () => {
      const url = await window.yumecast.screenshot();
      const img = new Image();
      img.src = url;
      await img.decode();
      return [img.width, img.height];
    });
    expect(size).toEqual([1280, 720]);
    expect((await state(page)).frame).toBe(before + 1);
  });

  it('moves on by itself in auto mode, and draws the petals at ~30 fps', async () => {
    const s0 = await state(page);
    await key(page, 'Auto');
    const s1 = await waitFor(page, (s) => s.lineCount > s0.lineCount || s.effects.includes('sakura'), 'auto mode to move on', 20_000);
    expect(s1.lineCount).toBeGreaterThan(s0.lineCount);
    await key(page, 'Auto');
    await waitFor(page, (s) => s.effects.includes('sakura') || s.choices.length > 0, 'the petals', 30_000).catch(async () => {
      // not there yet: read on to them
      for (let i = 0; i < 10 && !(await state(page)).effects.includes('sakura'); i++) {
        await key(page, 'Enter');
        await sleep(300);
      }
    });
    expect((await state(page)).effects).toContain('sakura');
    const a = await state(page);
    await sleep(2000);
    const b = await state(page);
    // 30 fps at most; a loaded test machine may do fewer
    expect((b.frame - a.frame) / 2).toBeGreaterThan(10);
    expect((b.frame - a.frame) / 2).toBeLessThanOrEqual(32);
  });
});

describe('runtime frames: how a change track gets its frames (?capture)', () => {
  it("sends the canvas's own pixels both ways: VideoFrames written to a track generator (default), the canvas's capture (?capture=canvas)", async () => {
    for (const capture of ['frame', 'canvas'] as const) {
      const { page } = await openRuntimePage(pages, { query: `frames=change${capture === 'canvas' ? '&capture=canvas' : ''}` });
      try {
        await page.evaluate(async (id) => {
          await window.yumecast.start({ gameId: id, assetBase: `/games/${id}/`, storyUrl: `/runtime/games/${id}.json`, skipTitle: true });
        }, FIXTURE);
        await waitFor(page, (s) => s.screen === 'story' && !s.typing && s.text.length > 0, 'the first line typed');
        await sleep(2000); // the refining frames are over: the picture is still
        // a new consumer's frames (the first at once, then refining ones) against the canvas's pixels
        const got = await page.evaluate(`(async () => {
          const s = window.yumecast.captureStream(30, { mode: 'change' });
          const track = s.getVideoTracks()[0];
          const rd = new MediaStreamTrackProcessor({ track }).readable.getReader();
          const { value: frame } = await rd.read();
          const c = new OffscreenCanvas(frame.displayWidth, frame.displayHeight);
          const g = c.getContext('2d');
          g.drawImage(frame, 0, 0);
          frame.close();
          const a = g.getImageData(0, 0, c.width, c.height).data;
          const b = document.getElementById('screen').getContext('2d').getImageData(0, 0, 1280, 720).data;
          let diff = 0;
          for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) diff++;
          const generated = 'writable' in track;
          track.stop();
          return { width: c.width, height: c.height, diff, generated, hint: track.contentHint };
        })()`);
        expect(got).toEqual({ width: 1280, height: 720, diff: 0, generated: capture === 'frame', hint: 'detail' });
        expect((await state(page)).capture).toBe(capture);
      } finally {
        await page.close();
      }
    }
  });
});

describe('runtime frames: steady mode (the default)', () => {
  it('keeps drawing on a still line at the waiting rate', async () => {
    const page = await pages.browser.newPage({ viewport: { width: 1280, height: 720 } });
    try {
      await page.goto(`${pages.server.origin}/runtime/index.html`);
      await page.waitForFunction(() => !!window.yumecast);
      await page.evaluate(async (id) => {
        await window.yumecast.start({ gameId: id, assetBase: `/games/${id}/`, storyUrl: `/runtime/games/${id}.json`, skipTitle: true });
        window.yumecast.captureStream(30);
      }, FIXTURE);
      await waitFor(page, (s) => s.screen === 'story' && !s.typing && s.text.length > 0, 'the first line typed');
      await sleep(1500);
      const a = await state(page);
      await sleep(1000);
      const b = await state(page);
      expect(a.frameMode).toBe('steady');
      expect(b.frame - a.frame).toBeGreaterThanOrEqual(5); // ~12 fps: the indicator bobs
    } finally {
      await page.close();
    }
  });
});
