/**
 * What streaming users expect of the play page (issue 13 §2), against the running stack: the
 * stats overlay shows real, non-zero figures while a game streams; a gamepad (simulated in the
 * page: navigator.getGamepads is replaced by an init script, as no real pad exists here) advances
 * the story through the same input path as the keyboard; the quality saved in the player's config
 * is applied to a resumed session; fullscreen where the page has no Fullscreen API (iPhone Safari,
 * simulated by removing it) is the full-viewport mode; and the web app manifest is served with its
 * content type and icons. Needs PlayerView to mount the stats overlay and the gamepad hook (docs/play-extras.md).
 */
import { expect, test, type Page } from '@playwright/test';
import { createVerifiedUser } from './support/emulator';
import { loginAsVerified } from './support/session';
import { hostSession, liveSessionId, videoFrame, waitForVideo } from './support/play';

test.describe.configure({ mode: 'serial' });

/**
 * A standard-mapping pad the page sees through navigator.getGamepads; the test presses its buttons.
 * The page's real getGamepads runs under it, so a policy that refuses gamepads fails the test.
 */
async function installFakeGamepad(page: Page) {
  await page.addInitScript(() => {
    const buttons = Array.from({ length: 17 }, () => ({ pressed: false, touched: false, value: 0 }));
    const pad = { id: 'Yumecast test pad (STANDARD GAMEPAD)', index: 0, connected: true, mapping: 'standard', timestamp: 0, axes: [0, 0, 0, 0], buttons, vibrationActuator: null };
    // the browser's own call first: it throws when the page's Permissions-Policy refuses gamepads
    const real = Navigator.prototype.getGamepads;
    Object.defineProperty(Navigator.prototype, 'getGamepads', {
      configurable: true,
      value() {
        real.call(navigator);
        return [pad, null, null, null];
      },
    });
    (window as unknown as { __pad: unknown }).__pad = {
      set(index: number, pressed: boolean) {
        buttons[index] = { pressed, touched: pressed, value: pressed ? 1 : 0 };
        pad.timestamp = performance.now();
      },
      connect() {
        window.dispatchEvent(new Event('gamepadconnected'));
      },
    };
  });
}

/** Presses a pad button for a moment (several animation frames), then lets go. */
async function tap(page: Page, index: number) {
  await page.evaluate((i) => (window as unknown as { __pad: { set(i: number, p: boolean): void } }).__pad.set(i, true), index);
  await page.waitForTimeout(120);
  await page.evaluate((i) => (window as unknown as { __pad: { set(i: number, p: boolean): void } }).__pad.set(i, false), index);
  await page.waitForTimeout(80);
}

/** The number behind one figure of the overlay (data-value), or null when it shows `—`. */
async function figure(page: Page, id: string): Promise<number | null> {
  const v = await page.getByTestId(`stats-${id}`).getAttribute('data-value');
  return v ? Number(v) : null;
}

test('the web app manifest is served as application/manifest+json, with its icons, and linked from pages', async ({ page, request }, info) => {
  test.skip(info.project.name !== 'desktop', 'one check is enough');
  const res = await request.get('/manifest.webmanifest');
  expect(res.status()).toBe(200);
  expect(res.headers()['content-type']).toMatch(/^application\/manifest\+json/);
  const manifest = (await res.json()) as { name: string; short_name: string; start_url: string; display: string; icons: { src: string; sizes: string }[] };
  expect(manifest.short_name).toBe('ユメキャスト');
  expect(manifest.start_url).toBe('/');
  for (const icon of manifest.icons) {
    const r = await request.get(icon.src);
    expect(r.status(), icon.src).toBe(200);
    expect(r.headers()['content-type']).toBe('image/png');
  }
  await page.goto('/');
  await expect(page.locator('link[rel="manifest"]')).toHaveAttribute('href', '/manifest.webmanifest');
  await expect(page.locator('meta[name="apple-mobile-web-app-capable"]')).toHaveAttribute('content', 'yes');
  // the browser really fetched it under the page's CSP (manifest-src 'self')
  const csp = (await page.request.get('/')).headers()['content-security-policy'] ?? '';
  expect(csp).toContain("manifest-src 'self'");
});

test.describe('while a game streams', () => {
  test.beforeEach(({}, info) => {
    test.skip(info.project.name !== 'desktop', 'the streamed flow runs once, on desktop');
  });

  test('stats overlay figures, a gamepad that advances the story, the saved quality on a resumed session', async ({ page }) => {
    test.setTimeout(180_000);
    await installFakeGamepad(page);
    const user = await createVerifiedUser();
    await loginAsVerified(page, user);
    await page.goto('/play/hajimari-no-eki');
    await waitForVideo(page);
    const sessionId = await liveSessionId(user.idToken);

    // The stats overlay: shown by its toggle, figures from getStats() and the ping, non-zero.
    await page.getByTestId('stats-toggle').click();
    await expect(page.getByTestId('stats-overlay')).toBeVisible();
    await expect(page.getByTestId('stats-overlay')).toContainText('往復遅延');
    await expect.poll(() => figure(page, 'rtt'), { timeout: 15_000, message: 'a round trip is measured' }).toBeGreaterThan(0);
    await expect.poll(() => figure(page, 'bitrate'), { timeout: 15_000, message: 'bytes arrive' }).toBeGreaterThan(0);
    await expect.poll(() => figure(page, 'resolution')).toBe(1280 * 720);
    await expect(page.getByTestId('stats-resolution')).toHaveText('1280×720');
    await expect(page.getByTestId('stats-codec')).not.toHaveText('—');
    await expect.poll(() => figure(page, 'loss')).not.toBeNull();
    await expect.poll(() => figure(page, 'jitter-buffer')).not.toBeNull();

    // The gamepad: A on the title screen starts the story (as Enter does), then advances lines.
    await page.evaluate(() => (window as unknown as { __pad: { connect(): void } }).__pad.connect());
    const before = (await hostSession(sessionId))!;
    await tap(page, 0);
    await expect.poll(async () => (await videoFrame(page))!.textEdges, { timeout: 15_000, message: 'the story started: text is visible' }).toBeGreaterThan(40);
    const started = (await hostSession(sessionId))!;
    for (let i = 0; i < 6; i++) {
      await tap(page, 0);
      await page.waitForTimeout(250);
    }
    await expect
      .poll(async () => ((await hostSession(sessionId))!.engine as { lineCount: number }).lineCount, { message: 'the pad advanced the story' })
      .toBeGreaterThan(((started.engine as { lineCount?: number }).lineCount ?? 0) + 2);
    expect((await hostSession(sessionId))!.counters!.inputs).toBeGreaterThan((before.counters?.inputs ?? 0) + 6);
    // the picture changed while lines typed: frames were received
    await expect
      .poll(
        async () => {
          await tap(page, 0);
          await page.waitForTimeout(500);
          return figure(page, 'fps');
        },
        { timeout: 20_000, message: 'frames arrive while the text types' },
      )
      .toBeGreaterThan(0);

    // Hidden, the overlay is gone (and reads nothing).
    await page.getByTestId('stats-toggle').click();
    await expect(page.getByTestId('stats-overlay')).toHaveCount(0);

    // The saved quality is applied to a resumed session (a reload), not only to a new one.
    expect(((await hostSession(sessionId))!.engine as { quality?: string }).quality).toBe('high');
    await page.evaluate(() => {
      const key = 'yumecast.playerConfig';
      const stored = JSON.parse(localStorage.getItem(key) ?? '{}') as Record<string, unknown>;
      localStorage.setItem(key, JSON.stringify({ ...stored, videoQuality: 'low' }));
    });
    // From the reload on, the page is an iPhone's Safari: no Fullscreen API for the page.
    await page.addInitScript(() => {
      for (const proto of [Element.prototype, Document.prototype] as unknown as Record<string, unknown>[]) {
        for (const name of ['requestFullscreen', 'webkitRequestFullscreen', 'fullscreenEnabled', 'webkitFullscreenEnabled']) delete proto[name];
      }
    });
    await page.reload();
    await waitForVideo(page);
    expect(await liveSessionId(user.idToken)).toBe(sessionId);
    await expect.poll(async () => ((await hostSession(sessionId))!.engine as { quality?: string }).quality, { timeout: 20_000 }).toBe('low');
    await expect(page.getByTestId('quality')).toHaveValue('low');

    // Fullscreen without the API: the full-viewport mode, the stage over the whole viewport, and
    // the game still takes input; pressed again, the page is as it was.
    await page.getByTestId('fullscreen').click();
    await expect(page.locator('html')).toHaveAttribute('data-full-viewport', 'true');
    await expect(page.getByTestId('fullscreen')).toHaveAttribute('aria-pressed', 'true');
    const box = (await page.getByTestId('play-stage').boundingBox())!;
    const viewport = page.viewportSize()!;
    expect([Math.round(box.width), Math.round(box.height)]).toEqual([viewport.width, viewport.height]);
    const inputs = (await hostSession(sessionId))!.counters!.inputs;
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await expect.poll(async () => (await hostSession(sessionId))!.counters!.inputs).toBeGreaterThan(inputs);
    await page.getByTestId('fullscreen').click();
    await expect(page.locator('html')).not.toHaveAttribute('data-full-viewport', 'true');
    await page.getByTestId('exit').click();
  });
});
