/**
 * Set-up shared by the runtime's page suites (runtime-art, -frames, -music, -sfx, -prepare): the built runtime
 * with the fixture games, served by the host's own page server, and one Debian Chromium for the
 * suite. `runtimePagesForSuite()` registers beforeAll/afterAll and returns the live handles;
 * `openRuntimePage()` opens a runtime page collecting its errors (`openFixture()`: and starts the
 * fixture, with the build's audio files it fetched); the page helpers read the engine's state,
 * press keys, wait for a state and measure the published sound (`streamLevel()`; the fixture's
 * title music on a page of its own: `titleMusicLevel()`, levels compared with `dbApart()`).
 */
import fs from 'node:fs';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../server/shared/chromium';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { EngineState } from '../../runtime/src/types';
import { FIXTURES_DIR, GAMES_DIR } from '../../runtime/build';
import { startPageServer, type PageServer } from '../../server/host/page-server';
import { buildTestRuntime } from '../../server/host/testing/harness';

export const FIXTURE = 'yumecast-fixture';

export interface RuntimePages {
  server: PageServer;
  browser: Browser;
}

export function runtimePagesForSuite(): RuntimePages {
  const handles = {} as RuntimePages;
  beforeAll(async () => {
    const runtimeDir = await buildTestRuntime();
    handles.server = await startPageServer({ runtimeDir, gamesDirs: [GAMES_DIR, FIXTURES_DIR], port: 0 });
    handles.browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: [...CHROMIUM_ARGS] });
  });
  afterAll(async () => {
    await handles.browser?.close();
    await handles.server?.close();
  });
  return handles;
}

export interface OpenedPage {
  page: Page;
  /** Page errors and console errors, in order. */
  errors: string[];
}

/**
 * A runtime page (1280×720) from the suite's page server, once window.yumecast exists. `query`:
 * the page's query string (e.g. `frames=change`); `before`: runs before the page loads (routes,
 * init scripts, more listeners).
 */
export async function openRuntimePage(pages: RuntimePages, opts: { query?: string; before?: (page: Page) => Promise<void> } = {}): Promise<OpenedPage> {
  const page = await pages.browser.newPage({ viewport: { width: 1280, height: 720 } });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  await opts.before?.(page);
  await page.goto(`${pages.server.origin}/runtime/index.html${opts.query ? `?${opts.query}` : ''}`);
  await page.waitForFunction(() => !!window.yumecast);
  return { page, errors };
}

/** A runtime page with the fixture started; `wavTypes`: each audio file it fetched (`<status> <content type>`). */
export interface FixturePage extends OpenedPage {
  wavTypes: string[];
}

/** The fixture started on a runtime page (`query`, `before`: as openRuntimePage's); warnings count as errors. */
export async function openFixture(pages: RuntimePages, opts: { query?: string; before?: (page: Page) => Promise<void> } = {}): Promise<FixturePage> {
  const wavTypes: string[] = [];
  const { page, errors } = await openRuntimePage(pages, opts);
  page.on('console', (m) => {
    if (m.type() === 'warning') errors.push(m.text());
  });
  page.on('response', (r) => {
    if (r.url().endsWith('.wav')) wavTypes.push(`${r.status()} ${r.headers()['content-type'] ?? ''}`);
  });
  await page.evaluate((id) => window.yumecast.start({ gameId: id, assetBase: `/games/${id}/`, storyUrl: `/runtime/games/${id}.json` }), FIXTURE);
  return { page, errors, wavTypes };
}

/**
 * RMS of the page's published sound (its captured stream's audio) over `ms` (default 1.5 s);
 * `key`: pressed through the engine's input once the capture is listening (what it sets off is
 * measured from its start).
 */
export async function streamLevel(page: Page, opts: { ms?: number; key?: string } = {}): Promise<number> {
  const w = await streamLevels(page, opts);
  return Math.sqrt(w.reduce((a, x) => a + x * x, 0) / Math.max(1, w.length));
}

/** The same sound's RMS in each 50 ms window (the analyser's last 2048 samples at each): for gaps. */
export function streamLevels(page: Page, opts: { ms?: number; key?: string } = {}): Promise<number[]> {
  return page.evaluate(async ({ ms, key }) => {
    const stream = window.yumecast.captureStream(30);
    const ac = new AudioContext();
    const an = ac.createAnalyser();
    an.fftSize = 2048;
    ac.createMediaStreamSource(new MediaStream(stream.getAudioTracks())).connect(an);
    const buf = new Float32Array(an.fftSize);
    const wait = (t: number) => new Promise((r) => setTimeout(r, t));
    if (key) {
      await wait(300);
      window.yumecast.applyInput({ v: 1, type: 'key', kind: 'down', key });
      window.yumecast.applyInput({ v: 1, type: 'key', kind: 'up', key });
    }
    const levels: number[] = [];
    for (let t = 0; t < ms; t += 50) {
      await wait(50);
      an.getFloatTimeDomainData(buf);
      let sum = 0;
      for (const v of buf) sum += v * v;
      levels.push(Math.sqrt(sum / buf.length));
    }
    await ac.close();
    return levels;
  }, { ms: opts.ms ?? 1500, key: opts.key ?? null });
}

/** What titleMusicLevel() found: the state it waited for, the published sound's RMS, the page's errors. */
export interface TitleMusic {
  state: EngineState;
  level: number;
  errors: string[];
}

/**
 * The fixture's title music on a page opened with `query` (as openFixture's): waits until it plays
 * from its loop with the context running, sleeps past the fade in, and measures the published
 * sound (streamLevel). `after`: more steps and checks on the page, with the state waited for, before
 * it is closed. Returns that state, the level and the page's errors (those of `after` too).
 */
export async function titleMusicLevel(pages: RuntimePages, query?: string, after?: (page: Page, s: EngineState) => Promise<void>): Promise<TitleMusic> {
  const { page, errors } = await openFixture(pages, { query });
  try {
    const s = await waitFor(page, (st) => st.audio.music === 'loop' && st.audio.state === 'running', 'the title music from its loop', 10_000);
    await sleep(1500); // past the fade in
    const level = await streamLevel(page);
    await after?.(page, s);
    return { state: s, level, errors: [...errors] };
  } finally {
    await page.close();
  }
}

/** How far apart two levels (RMS) are, in dB (≥ 0). */
export const dbApart = (a: number, b: number): number => Math.abs(20 * Math.log10(a / b));

/** The format of one of the build's WAV files (loops/, sfx/), from its 44-byte header; null if it is not a RIFF/WAVE file. */
export function wavFormat(file: string): { channels: number; sampleRate: number; bits: number; frames: number } | null {
  const head = Buffer.alloc(44);
  const fd = fs.openSync(file, 'r');
  fs.readSync(fd, head, 0, 44, 0);
  fs.closeSync(fd);
  if (head.toString('ascii', 0, 4) !== 'RIFF' || head.toString('ascii', 8, 12) !== 'WAVE') return null;
  const channels = head.readUInt16LE(22);
  const bits = head.readUInt16LE(34);
  return { channels, sampleRate: head.readUInt32LE(24), bits, frames: head.readUInt32LE(40) / ((channels * bits) / 8) };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export const state = (page: Page): Promise<EngineState> => page.evaluate(() => window.yumecast.getState());

/** A key press (down, up) through the engine's input API. */
export async function key(page: Page, k: string): Promise<void> {
  await page.evaluate((name) => {
    window.yumecast.applyInput({ v: 1, type: 'key', kind: 'down', key: name });
    window.yumecast.applyInput({ v: 1, type: 'key', kind: 'up', key: name });
  }, k);
}

/** Polls the engine's state until `pred` holds (throws with the state after `ms`). */
export async function waitFor(page: Page, pred: (s: EngineState) => boolean, what: string, ms = 15_000): Promise<EngineState> {
  const end = Date.now() + ms;
  for (;;) {
    const s = await state(page);
    if (pred(s)) return s;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}: ${JSON.stringify({ ...s, saves: s.saves.length })}`);
    await sleep(40);
  }
}
