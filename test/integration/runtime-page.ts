/**
 * Set-up shared by the runtime's page suites (runtime-art, runtime-frames): the built runtime
 * with the fixture games, served by the host's own page server, and one Debian Chromium for the
 * suite. `runtimePagesForSuite()` registers beforeAll/afterAll and returns the live handles;
 * `openRuntimePage()` opens a runtime page collecting its errors; the page helpers read the
 * engine's state, press keys and wait for a state.
 */
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
