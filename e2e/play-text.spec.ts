/**
 * Every line as text (issue 13), end to end on a streamed game: the runtime's lines reach the
 * play page over the message channel, the screen reader's live region and the backlog panel
 * read them while playing, a choice picked from the panel's buttons moves the game (the host's
 * engine and the picture) to that choice's branch, the captions show the current line under the
 * video, and axe finds nothing on the play page with the panel open.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { createVerifiedUser } from './support/emulator';
import { loginAsVerified } from './support/session';
import { expectPictureChanged, hostSession, liveSessionId, videoFrame, waitForVideo } from './support/play';

test.describe.configure({ mode: 'serial' });

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa', 'best-practice'];
/** The open demo: its first choice comes ~26 lines in (games/hajimari-no-eki/story.ink). */
const GAME = 'hajimari-no-eki';
const FIRST_LINE = '八月三十一日。夏休みの、最後の日。';
const SECOND_CHOICE = '黙って、ベンチの隣に座る';
/** The first line of that choice's branch (=== c1_sit ===). */
const AFTER_CHOICE = '俺は何も聞かずにジョウロを置いて、ベンチの反対の端に腰を下ろした。';

/** The host's summary of what the engine shows (server/host/schemas.ts EngineSummarySchema). */
type Engine = { visibleText?: string; speakerName?: string | null; choices?: string[]; lineCount?: number; screen?: string };
const engineOf = async (sessionId: string) => ((await hostSession(sessionId))?.engine ?? {}) as Engine;

/** The backlog panel's lines, as the page shows them. */
const panelLines = (page: Page) => page.getByTestId('transcript-lines').locator('li').allTextContents();

test('reads the lines as text while playing, picks a choice from the panel, and the picture follows', async ({ page }, info) => {
  test.skip(info.project.name !== 'desktop', 'runs once, on desktop');
  test.setTimeout(180_000);
  const user = await createVerifiedUser();
  await loginAsVerified(page, user);
  await page.goto(`/play/${GAME}`);
  await waitForVideo(page);
  const sessionId = await liveSessionId(user.idToken);

  // The title screen: Enter starts the story; its first line arrives as text in the live region.
  await page.keyboard.press('Enter');
  const live = page.getByRole('log', { name: 'ゲームのテキスト' });
  await expect(live).toContainText(FIRST_LINE, { timeout: 20_000 });

  // T opens the backlog panel (and is not a game key); it lists the line the picture shows.
  await page.keyboard.press('t');
  const panel = page.getByRole('dialog', { name: 'テキスト履歴' });
  await expect(panel).toBeVisible();
  await expect.poll(() => panelLines(page)).toContain(FIRST_LINE);
  await expect.poll(async () => (await engineOf(sessionId)).visibleText, { message: 'the picture types the same line' }).toBe(FIRST_LINE);

  // Click through the lines on the picture (left of every choice button: choices span x 250–1030
  // of 1280, and the panel sits on the right) until the panel offers choices. Each line takes a
  // click to finish typing and one to go on.
  const layer = page.getByTestId('input-layer');
  const choiceButtons = panel.getByTestId('transcript-choice');
  for (let i = 0; i < 200 && (await choiceButtons.count()) === 0; i++) {
    await layer.click({ position: { x: 200, y: 200 } });
    await page.waitForTimeout(120);
  }
  await expect(choiceButtons).toHaveCount(3);
  await expect(choiceButtons.nth(1)).toHaveText(`2. ${SECOND_CHOICE}`);

  // While playing, the transcript read every line: the speaker's lines with their names, and
  // as many lines as the game counted (the choice's line is not a line).
  const lines = await panelLines(page);
  expect(lines[0]).toBe(FIRST_LINE);
  expect(lines).toContain('澪「……あの。次の電車って、何時ですか」');
  // the panel offers the choices the picture shows (the runtime tells them once shown)
  const offered = (await choiceButtons.allTextContents()).map((t) => t.replace(/^\d\. /, ''));
  await expect.poll(async () => (await engineOf(sessionId)).choices).toEqual(offered);
  const before = await engineOf(sessionId);
  expect(lines).toHaveLength(before.lineCount ?? -1);
  await expect(live).toContainText(`選択肢：1. `);

  // An axe scan of the play page with the panel open and its choices on offer.
  const { violations } = await new AxeBuilder({ page }).withTags(TAGS).options({ resultTypes: ['violations'] }).setLegacyMode(true).analyze();
  expect(violations.map((v) => `${v.id} [${v.impact}] ${v.help}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 5).join(' | ')}`)).toEqual([]);

  // Pick the second choice with the panel's button: the game takes that branch.
  const frame = (await videoFrame(page))!;
  await choiceButtons.nth(1).click();
  await expect(panel.getByTestId('transcript-choices')).toHaveCount(0);
  await expect.poll(() => panelLines(page), { timeout: 15_000 }).toContain(`▶ ${SECOND_CHOICE}`);
  await expect.poll(async () => (await panelLines(page)).at(-1), { timeout: 15_000 }).toBe(AFTER_CHOICE);
  await expect.poll(async () => (await engineOf(sessionId)).visibleText, { timeout: 15_000 }).toBe(AFTER_CHOICE);
  expect((await engineOf(sessionId)).choices ?? []).toEqual([]);
  // ... and the picture shows it: the text window holds another line now.
  await expectPictureChanged(page, frame, 'the picture shows the chosen branch', 15_000);
  await expect(live).toContainText(AFTER_CHOICE);

  // Captions: the current line under the video at the size picked, remembered, the picture above it.
  await panel.getByRole('checkbox', { name: '字幕を映像の下に表示' }).check();
  await panel.getByRole('radio', { name: '大' }).check();
  const captions = page.getByTestId('captions');
  await expect(captions).toContainText(AFTER_CHOICE);
  await expect(captions).toHaveAttribute('data-size', 'large');
  const [capBox, videoBox] = await Promise.all([captions.boundingBox(), page.getByTestId('game-video').boundingBox()]);
  expect(videoBox!.y + videoBox!.height).toBeLessThanOrEqual(capBox!.y + 1);
  expect(await page.evaluate(() => localStorage.getItem('yumecast.captions'))).toBe('{"on":true,"size":"large"}');

  // Escape closes the panel; the session ends.
  await panel.getByTestId('transcript-search').press('Escape');
  await expect(panel).toHaveCount(0);
  await page.getByTestId('exit').click();
  await page.waitForURL(new RegExp(`/title/${GAME}$`));
});
