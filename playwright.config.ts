import { defineConfig, devices } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './server/shared/chromium';

/**
 * Playwright against the running stack (scripts/test.ts starts it and sets BASE_URL).
 * Debian Chromium, never a downloaded browser; flags measured on this machine (DESIGN §6).
 */

export default defineConfig({
  testDir: './e2e',
  timeout: 60_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 2,
  // Two cores run the whole stack, several Chromium runtimes and two test browsers at once:
  // a streamed-game test that loses that race is retried once (and reported as flaky).
  retries: 1,
  reporter: 'list',
  outputDir: process.env.TEST_SLOT ? `.run/test-${process.env.TEST_SLOT}/playwright-output` : '.run/test/playwright-output',
  use: {
    baseURL: process.env.BASE_URL || 'http://localhost:3100',
    locale: 'ja-JP',
    timezoneId: 'Asia/Tokyo',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: { executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS] },
  },
  projects: [
    { name: 'desktop', use: { viewport: { width: 1280, height: 800 } } },
    { name: 'phone', use: { ...devices['Pixel 7'], browserName: 'chromium', defaultBrowserType: 'chromium' } },
  ],
});
