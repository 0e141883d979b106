/**
 * A Ren'Py game, unchanged, played like any title (issue 15): "The Question" (Debian's
 * renpy-thequestion) runs on the game host's native runtime (server/host/native/, docs/renpy.md)
 * and reaches the play page over the same streaming protocol as the web engine's titles. A
 * verified user opens its title page (the licence is shown), starts it, sees the real picture
 * with text, clicks スタート and through several lines, picks a menu choice (each checked from the
 * received video, and the lines and the menu also read as text from the transcript), takes a screenshot
 * and finds it in the gallery, then exits: every process of the game (its X display, sound
 * server, helpers and Ren'Py) is gone.
 */
import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { createVerifiedUser } from './support/emulator';
import { loginAsVerified } from './support/session';
import { closeLiveSessions, exitAndClosed, hostSession, liveSessionId, pictureMoved, screenshotSaved, videoFrame, waitForVideo, type VideoFrame } from './support/play';

test.describe.configure({ mode: 'serial' });

const GAME = 'the-question';

/** Clicks the picture at (fx, fy) of the video (0..1 of its width and height). */
async function clickPicture(page: Page, fx: number, fy: number): Promise<void> {
  const box = (await page.getByTestId('game-video').boundingBox())!;
  await page.mouse.click(box.x + box.width * fx, box.y + box.height * fy);
}

/** The picture once it has not changed for 700 ms (a transition or a line's typing is over). */
async function settled(page: Page): Promise<VideoFrame> {
  let last = (await videoFrame(page))!;
  let since = Date.now();
  const t0 = Date.now();
  while (Date.now() - since < 700 && Date.now() - t0 < 15_000) {
    await page.waitForTimeout(100);
    const now = (await videoFrame(page))!;
    if (pictureMoved(last, now)) since = Date.now();
    last = now;
  }
  return last;
}

/** Whether the picture moves away from `before` within `ms` (a busy machine answers a click late). */
async function movesWithin(page: Page, before: VideoFrame, ms: number): Promise<boolean> {
  const t0 = Date.now();
  while (Date.now() - t0 < ms) {
    if (pictureMoved(before, (await videoFrame(page))!)) return true;
    await page.waitForTimeout(100);
  }
  return false;
}

/** Clicks (fx, fy) until the picture changes (a busy machine may deliver a click during a transition, which Ren'Py ignores). */
async function clickUntilChanged(page: Page, fx: number, fy: number, what: string): Promise<void> {
  const before = await settled(page);
  for (let i = 0; i < 3; i++) {
    await clickPicture(page, fx, fy);
    if (await movesWithin(page, before, 6000)) return;
  }
  throw new Error(`the picture did not change: ${what}`);
}

function alive(pid: number): boolean {
  try {
    return !/\) Z /.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

test.describe("a Ren'Py title", () => {
  test.beforeEach(({}, info) => {
    test.skip(info.project.name !== 'desktop', 'the native runtime flow runs once, on desktop');
    test.skip(!fs.existsSync('/usr/share/games/renpy/the_question'), "Ren'Py's sample game is not installed (scripts/setup.sh)");
  });

  let idToken = '';
  test.afterEach(async () => {
    // a failed attempt leaves its session live: close it so a retry starts at once
    if (idToken) await closeLiveSessions(idToken).catch(() => undefined);
  });

  test('The Question: start, text on the picture, lines and a menu choice by clicks, screenshot in the gallery, exit with every process gone', async ({ page }) => {
    test.setTimeout(240_000);
    const user = await createVerifiedUser();
    idToken = user.idToken;
    await loginAsVerified(page, user);
    await page.goto(`/title/${GAME}`);
    await expect(page.locator('#license')).toContainText('Expat');
    await page.getByTestId('play-button').click();
    await page.waitForURL(new RegExp(`/play/${GAME}$`));
    await expect(page.getByTestId('start-progress')).toBeVisible();
    await waitForVideo(page, 60_000);
    const sessionId = await liveSessionId(user.idToken);

    // The real picture of the game's title screen, at the game's size.
    const first = (await videoFrame(page))!;
    expect(first).toMatchObject({ width: 1280, height: 720 });
    expect(first.nonBlack).toBeGreaterThan(0.3);
    // The game's processes, as the host counts them for this session (its runtime page's renderers and the game's own).
    const live = (await hostSession(sessionId))!;
    const pids = (live.footprint as { ownPids: number[] }).ownPids;
    expect(pids.length).toBeGreaterThanOrEqual(5);

    // スタート (the title menu's first entry, left) starts the story: a line in the text window.
    await clickUntilChanged(page, 0.06, 0.414, 'the story after スタート');
    await expect.poll(async () => (await videoFrame(page))!.textEdges, { timeout: 15_000, message: 'a line of text is visible' }).toBeGreaterThan(40);
    // ... and the same line reaches the page as text (our overlay in the game reports it), in Japanese
    const transcript = page.getByRole('log', { name: 'ゲームのテキスト' });
    await expect(transcript).toContainText(/[ぁ-んァ-ヶ一-龯]{4,}/, { timeout: 15_000 });

    // Lines go on with clicks outside any button (top left); when clicks stop changing the
    // picture (none moves it within 3 s), the menu is shown (its choices are buttons across the middle).
    let lines = 0;
    let still = 0;
    for (let i = 0; i < 40 && still < 3; i++) {
      const before = await settled(page);
      await clickPicture(page, 0.04, 0.06);
      if (await movesWithin(page, before, 3000)) {
        lines++;
        still = 0;
      } else still++;
    }
    expect(lines).toBeGreaterThanOrEqual(5);
    expect(still).toBe(3);
    // the transcript offers the menu the picture shows
    await expect(transcript).toContainText('選択肢：1. 今すぐ彼女に聞いてみよう');

    // The first choice, 「今すぐ彼女に聞いてみよう」 (y ≈ 240 of 720): the menu goes, the story goes on.
    const menu = await settled(page);
    await clickPicture(page, 0.5, 0.333);
    await expect.poll(async () => pictureMoved(menu, (await videoFrame(page))!), { timeout: 10_000, message: 'the choice was taken' }).toBe(true);
    // and clicks advance lines again
    await clickUntilChanged(page, 0.04, 0.06, 'a line after the choice');

    // Screenshot: the display's own pixels at full resolution, in the gallery.
    await screenshotSaved(page, user.idToken);

    // Exit: the session closes and every process of the game goes with it.
    await exitAndClosed(page, GAME, sessionId, user.idToken);
    await expect.poll(() => pids.filter(alive), { timeout: 10_000, message: 'no process of the game is left' }).toEqual([]);

    await page.goto('/mylist/screenshot');
    const tile = page.getByTestId('screenshot-tile');
    await expect(tile).toHaveCount(1);
    await tile.click();
    await expect(page.getByTestId('screenshot-viewer')).toContainText('The Question');
    await expect.poll(() => page.getByTestId('screenshot-viewer').locator('img').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1280);
  });
});
