/**
 * Live play of the web engine's titles through the whole stack: a verified user starts a title,
 * watches the real video, plays it with clicks and keys (checked on the host and in the picture),
 * changes volume and quality, takes a screenshot and exits; a cancel while the game starts; the
 * one-session limit and a stranger's calls; an unknown title's message; and touch play of the open demo on a phone.
 *
 * A failed attempt leaves its game session live, and its retry would wait in the host's start
 * queue behind it until it timed out: every test that starts a game records its user (`owner`,
 * the visitor's too), and afterEach closes that user's live sessions (closeSessionsAfterEach).
 */
import { expect, test, type Page } from '@playwright/test';
import { currentIdToken } from './support/accounts';
import { createVerifiedUser } from './support/emulator';
import { loginAsVerified } from './support/session';
import { api, closeSessionsAfterEach, exitAndClosed, expectPictureChanged, hostOverview, hostSession, liveSessionId, screenshotSaved, signInPlayer, startPlay, videoFrame, waitForVideo } from './support/play';

// One streamed game at a time per worker; the host holds two runtimes.
test.describe.configure({ mode: 'serial' });

/** Records the user whose game the running test started; their live sessions are closed after it. */
const owner = closeSessionsAfterEach();

/**
 * The anonymous visitor's idToken, once the app reports that user (read before then, the SDK's
 * database may not exist yet: support/accounts.ts reads it without creating it).
 */
async function browserIdToken(page: Page): Promise<string | null> {
  if ((await page.evaluate(() => document.documentElement.dataset.auth)) !== 'anonymous') return null;
  return currentIdToken(page);
}

test.describe('live play', () => {
  test.beforeEach(({}, info) => {
    test.skip(info.project.name !== 'desktop', 'the full flow runs once, on desktop');
  });

  test('start, watch, click through lines and a choice, change volume and quality, screenshot, exit', async ({ page }) => {
    test.setTimeout(150_000);
    const user = await startPlay(page, 'hoshifuru-toshokan', owner);

    // Each step of starting is shown.
    await expect(page.getByTestId('start-progress')).toBeVisible();
    await expect(page.getByTestId('start-progress')).toContainText('ゲームを準備しています');
    await waitForVideo(page);
    const sessionId = await liveSessionId(user.idToken);

    // Real decoded video: 1280x720, not black.
    const first = (await videoFrame(page))!;
    expect(first.width).toBe(1280);
    expect(first.height).toBe(720);

    // Title screen → Enter starts the story; text appears in the text window.
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await videoFrame(page))!.textEdges, { timeout: 15_000, message: 'text is visible' }).toBeGreaterThan(40);
    const before = await hostSession(sessionId);

    // Click through several lines on the video (mouse), verified by the host and the picture.
    const video = page.getByTestId('input-layer');
    let frame = (await videoFrame(page))!;
    for (let i = 0; i < 6; i++) {
      await video.click({ position: { x: 640, y: 400 } });
      await page.waitForTimeout(350);
    }
    // The picture changed (new lines in the text window) and the game says it moved on.
    await expectPictureChanged(page, frame, 'the picture shows the new lines');
    const after = (await hostSession(sessionId))!;
    expect(after.counters!.inputs).toBeGreaterThan((before?.counters?.inputs ?? 0) + 5);
    expect((after.engine as { lineCount: number }).lineCount).toBeGreaterThan(((before?.engine as { lineCount?: number })?.lineCount ?? 0) + 2);

    // Reach the first choice by clicking the top of the picture, and pick it with the digit key.
    // Not with Enter: Enter picks the first choice when one is shown, and on a loaded machine a
    // choice can appear between two looks at the host's state. A click outside every button only
    // ever goes on to the next line (choice buttons span x 250–1030 of 1280).
    let engine = after.engine as { choices?: string[]; lineCount?: number } | undefined;
    // Each line takes one click to finish typing and one to go on; the first choice is ~40 lines in.
    for (let i = 0; i < 240 && !(engine?.choices && engine.choices.length); i++) {
      await video.click({ position: { x: 100, y: 60 } });
      await page.waitForTimeout(100);
      if (i % 4 === 3) engine = (await hostSession(sessionId))!.engine as typeof engine;
    }
    expect(engine?.choices?.length ?? 0).toBeGreaterThan(1);
    frame = (await videoFrame(page))!;
    await page.keyboard.press('1');
    await expect.poll(async () => ((await hostSession(sessionId))!.engine as { choices?: unknown[] }).choices?.length ?? 0).toBe(0);

    // Volume: the slider drives the video element; quality: the host records it.
    await page.getByTestId('volume').fill('0.3');
    await expect.poll(async () => (await videoFrame(page))!.volume).toBeCloseTo(0.3, 2);
    await page.getByTestId('quality').selectOption('low');
    await expect.poll(async () => ((await hostSession(sessionId))!.engine as { quality?: string }).quality).toBe('low');
    await expect.poll(async () => (await videoFrame(page))!.height, { timeout: 20_000, message: 'lower resolution arrives' }).toBeLessThan(720);

    // Screenshot: taken on the host at full resolution, found through the api.
    await screenshotSaved(page, user.idToken);

    // Exit: the session is closed and its runtime freed.
    await exitAndClosed(page, 'hoshifuru-toshokan', sessionId, user.idToken);
  });

  test('a second session for the same user is refused with the limit code; a stranger gets 404', async ({ page }) => {
    test.setTimeout(90_000);
    const user = await signInPlayer(page, owner);
    await page.goto('/play/hajimari-no-eki');
    await waitForVideo(page);
    const sessionId = await liveSessionId(user.idToken);

    const second = await api<{ status: string; error: { code: string } }>('/v1/game/hoshifuru-toshokan/start', user.idToken);
    expect(second.status).toBe(409);
    expect(second.body.error.code).toBe('instance_limit');

    const stranger = await createVerifiedUser();
    for (const path of [`/v1/session/${sessionId}/status`, `/v1/session/${sessionId}/get_token`, `/v1/session/${sessionId}/force_close`]) {
      const r = await api<{ error: { code: string } }>(path, stranger.idToken);
      expect(r.status).toBe(404);
      expect(r.body.error.code).toBe('session_not_found');
    }
    // The stranger changed nothing: the owner's game still plays.
    expect((await api<{ session_state: string }>(`/v1/session/${sessionId}/status`, user.idToken)).body.session_state).toBe('playing');

    // In the browser, the other title shows the limit message with a way out.
    await page.goto('/play/hoshifuru-toshokan');
    await expect(page.getByTestId('play-failure')).toHaveAttribute('data-failure', 'instance_limit');
    await page.getByTestId('close-others').click();
    await waitForVideo(page);
    await page.getByTestId('exit').click();
  });
});

test.describe('cancel while starting', () => {
  test.beforeEach(({}, info) => {
    test.skip(info.project.name !== 'desktop', 'the api and host side are the same on a phone');
  });

  test('キャンセル while the start call is on its way closes the session it makes and returns to the title page', async ({ page }) => {
    test.setTimeout(90_000);
    // the start answers 1.5 s late: the cancel comes before the page knows its session
    let started: string | null = null;
    await page.route(/\/v1\/game\/[^/]+\/start/, async (route) => {
      const res = await route.fetch();
      const body = (await res.json()) as { game_session_id?: string };
      started = body.game_session_id ?? null;
      await new Promise((r) => setTimeout(r, 1500));
      await route.fulfill({ response: res, json: body });
    });
    const user = await startPlay(page, 'hoshifuru-toshokan', owner);
    await expect(page.getByTestId('start-progress')).toBeVisible();
    await page.getByTestId('start-cancel').click();
    await page.waitForURL(/\/title\/hoshifuru-toshokan$/);
    await expect.poll(() => started, { timeout: 10_000 }).not.toBeNull();
    await expect
      .poll(async () => (await api<{ session_state: string }>(`/v1/session/${started}/status`, user.idToken)).body.session_state, { timeout: 20_000 })
      .toBe('closed');
    expect((await api<{ game_sessions: unknown[] }>('/v1/session/all', user.idToken)).body.game_sessions).toEqual([]);
    await expect.poll(async () => (await hostOverview()).sessions.some((s) => s.sessionId === started), { timeout: 20_000 }).toBe(false);
    await expect(page.getByTestId('play-stage')).toHaveCount(0);
  });
});

test('an unknown title on the play page gives a clear Japanese message', async ({ page }) => {
  // A visitor would be sent home by the guard (play pages are for verified users), so sign in.
  await loginAsVerified(page);
  const res = await page.goto('/play/no-such-title');
  expect(res?.status()).toBe(404);
  await expect(page.getByTestId('play-failure')).toContainText('タイトルが見つかりません');
});

test.describe('touch play on a phone', () => {
  test.beforeEach(({}, info) => {
    test.skip(info.project.name !== 'phone', 'touch flow runs on the phone project');
  });

  test('a visitor plays the open demo with taps and the touchpad knob', async ({ page }) => {
    test.setTimeout(90_000);
    await page.goto('/play/hajimari-no-eki');
    // the page signs the visitor in anonymously before it starts the demo: keep that user's token
    await expect.poll(async () => owner((await browserIdToken(page)) ?? ''), { message: 'the visitor is signed in' }).not.toBe('');
    await waitForVideo(page);
    // The touch tutorial is shown once.
    await page.getByTestId('tutorial-touch').getByRole('button', { name: 'OK' }).click();
    // The top row's controls lie side by side, none over another: a tap at each one's middle
    // reaches it (the control bar once covered the transcript's button, and a tap moved the volume).
    for (const id of ['transcript-toggle', 'volume', 'quality', 'touch-mode', 'screenshot', 'exit']) {
      const own = await page.getByTestId(id).evaluate((el) => {
        const r = el.getBoundingClientRect();
        const at = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
        return !!at && (at === el || el.contains(at));
      });
      expect(own, `${id} takes the tap at its middle`).toBe(true);
    }
    await page.getByTestId('transcript-toggle').tap();
    await expect(page.getByTestId('transcript-panel')).toBeVisible();
    await page.getByTestId('transcript-close').tap();
    await expect(page.getByTestId('transcript-panel')).toHaveCount(0);
    const mine = { sessionId: (await page.getByTestId('play-stage').getAttribute('data-session'))! };
    expect(mine.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    const before = (await hostSession(mine.sessionId))!.counters!.inputs;
    const layer = page.getByTestId('input-layer');
    await layer.tap();
    await layer.tap();
    await expect.poll(async () => (await hostSession(mine.sessionId))!.counters!.inputs).toBeGreaterThan(before + 3);

    await page.getByTestId('touch-mode').selectOption('touchpad');
    await page.getByTestId('tutorial-knob').getByRole('button', { name: 'OK' }).click();
    const mid = (await hostSession(mine.sessionId))!.counters!.inputs;
    await page.getByTestId('knob').tap();
    await expect.poll(async () => (await hostSession(mine.sessionId))!.counters!.inputs).toBeGreaterThan(mid + 1);
    // With the keypad shown, the knob sits above it, not on its ↓ key.
    await page.getByTestId('keypad-toggle').tap();
    await expect(page.getByTestId('keypad')).toBeVisible();
    await expect
      .poll(async () => {
        const knob = (await page.getByTestId('knob').boundingBox())!;
        const pad = (await page.getByTestId('keypad').boundingBox())!;
        return Math.round(pad.y - (knob.y + knob.height));
      }, { message: 'the knob ends above the keypad' })
      .toBeGreaterThanOrEqual(0);
    await page.getByTestId('keypad-toggle').tap();
    await expect(page.getByTestId('keypad')).toHaveCount(0);
    // The tutorials are remembered.
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('yumecast.playerConfig') ?? '{}'));
    expect(stored.guidance).toBe(3);
    expect(stored.touchControllerMode).toBe('touchpad');

    // In landscape the picture fills the height: the top row steps aside after a while without
    // a touch, and a touch brings it back. In portrait it lies above the picture and stays.
    const row = page.getByTestId('top-row');
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.waitForTimeout(3500);
    await expect(row).toHaveAttribute('data-hidden', 'false');
    await page.setViewportSize({ width: 844, height: 390 });
    await expect(row).toHaveAttribute('data-hidden', 'true', { timeout: 8000 });
    await expect(row).toHaveCSS('opacity', '0');
    await page.touchscreen.tap(600, 300);
    await expect(row).toHaveAttribute('data-hidden', 'false');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByTestId('exit').click();
  });
});
