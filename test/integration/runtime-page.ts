/**
 * Set-up shared by the runtime's page suites (runtime-art, runtime-frames): the built runtime
 * with the fixture games, served by the host's own page server, and one Debian Chromium for the
 * suite. `runtimePagesForSuite()` registers beforeAll/afterAll and returns the live handles.
 */
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../server/shared/chromium';
import { chromium, type Browser } from 'playwright-core';
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
