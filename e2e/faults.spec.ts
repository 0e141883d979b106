import { expect, test, type Page } from '@playwright/test';
import { listProcs, type ProcInfo } from '../server/host/procs';
import { createVerifiedUser } from './support/emulator';
import { loginAsVerified } from './support/session';
import { api, hostSession, liveSessionId, videoFrame, waitForVideo } from './support/play';

/**
 * Faults a player lives through (issue 10, docs/reliability.md), in a real browser against the
 * running stack:
 * - the game's runtime (its browser context's renderer) is killed mid-play: the player reads 「ゲームが停止しました」
 *   within seconds, not 「プレイを開始できませんでした」; 「もう一度プレイする」 resumes from the last
 *   autosave (what is lost: the lines read since it);
 * - the player's network is gone for 20 s (Playwright's offline mode: every request and WebSocket
 *   of the page fails): the game goes on in the same session with nothing lost, and takes input
 *   again once the network is back.
 * A killed host (the player is told within 15 s, the slot freed) is not played here: the test
 * stack has one host, shared with the suites running beside this one. It is covered with two
 * hosts of its own by server/host/hostkill.int.test.ts.
 * Each test logs its measured times (`[fault] …`) for docs/reliability.md.
 * Desktop only, one at a time: each holds a streamed game.
 */

test.describe.configure({ mode: 'serial' });
test.skip(({ isMobile }) => isMobile, 'desktop only: one streamed game at a time');

const GAME = 'hoshifuru-toshokan';

/**
 * The runtime streaming this session, as the game host accounts for it (GET /sessions/:id
 * `footprint.ownPids`): its browser context's renderer processes. Runtimes share a Chromium
 * (docs/host.md "Runtime model"), so "the runtime crashed" is its renderer dying; the browser and
 * the other sessions in it go on. Every pid must be a renderer of a runtime profile (yumecast-rt-…,
 * under this stack's HOST_TMP_DIR when set), so nothing else can be killed by mistake.
 */
async function sessionRenderers(sessionId: string): Promise<ProcInfo[]> {
  const info = await hostSession(sessionId);
  const pids = (info?.footprint as { ownPids?: number[] } | null | undefined)?.ownPids ?? [];
  expect(pids.length, 'the host names the session\'s renderer').toBeGreaterThan(0);
  const tmp = process.env.HOST_TMP_DIR;
  const procs = listProcs().filter((p) => pids.includes(p.pid) && p.state !== 'Z');
  expect(procs.map((p) => p.pid).sort()).toEqual([...pids].sort());
  for (const p of procs) {
    expect(p.cmdline, `process ${p.pid} is a runtime's renderer`).toContain('--type=renderer');
    expect(p.cmdline).toContain('yumecast-rt-');
    if (tmp) expect(p.cmdline).toContain(tmp);
    expect(p.pid).not.toBe(process.pid);
  }
  return procs;
}

/** The line the host's engine reports for a session (-1 before it reports any). */
const lineCount = async (sessionId: string) => ((await hostSession(sessionId))?.engine as { lineCount?: number } | undefined)?.lineCount ?? -1;

/** A new verified user opens the play page (its peer connections recorded) until video shows. */
async function startPlaying(page: Page) {
  const user = await createVerifiedUser();
  await loginAsVerified(page, user);
  await page.goto(`/play/${GAME}`);
  await waitForVideo(page);
  return { user, sessionId: await liveSessionId(user.idToken) };
}

/** Starts the game and reads a dozen lines, so there is progress (and an autosave at line 10). */
async function playSomeLines(page: Page, sessionId: string, lines: number): Promise<number> {
  await page.keyboard.press('Enter');
  const input = page.getByTestId('input-layer');
  let count = 0;
  for (let i = 0; i < 120 && count < lines; i++) {
    await input.click({ position: { x: 100, y: 60 } });
    await page.waitForTimeout(120);
    if (i % 4 === 3) count = Math.max(count, await lineCount(sessionId));
  }
  expect(count).toBeGreaterThanOrEqual(lines);
  return count;
}


test('a runtime killed mid-play: the player reads that the game stopped, and plays on from the last autosave', async ({ page }) => {
  test.setTimeout(180_000);
  const { user, sessionId } = await startPlaying(page);
  const before = await playSomeLines(page, sessionId, 14);

  const renderers = await sessionRenderers(sessionId);
  const killedAt = Date.now();
  for (const p of renderers) process.kill(p.pid, 'SIGKILL');

  const failure = page.getByTestId('play-failure');
  await expect(failure).toHaveAttribute('data-failure', 'game_crashed', { timeout: 15_000 });
  const toldMs = Date.now() - killedAt;
  await expect(failure).toContainText('ゲームが停止しました');
  await expect(failure).not.toContainText('プレイを開始できませんでした');
  const status = await api<{ session_state: string; failure_reason: string }>(`/v1/session/${sessionId}/status`, user.idToken);
  expect(status.body).toMatchObject({ session_state: 'failed', failure_reason: 'runtime_crashed' });
  // Nothing of the dead runtime stays.
  const killed = new Set(renderers.map((p) => p.pid));
  await expect.poll(() => listProcs().filter((p) => p.state !== 'Z' && killed.has(p.pid) && p.cmdline.includes('yumecast-rt-')).length, { timeout: 20_000 }).toBe(0);

  // 「もう一度プレイする」: a new session, resumed from the last autosave.
  const retry = page.getByTestId('play-retry');
  await expect(retry).toHaveText('もう一度プレイする');
  const retriedAt = Date.now();
  await retry.click();
  await waitForVideo(page);
  const playingAgainMs = Date.now() - retriedAt;
  const second = await liveSessionId(user.idToken);
  expect(second).not.toBe(sessionId);
  await expect.poll(() => lineCount(second), { timeout: 20_000, message: 'the new runtime reports its state' }).toBeGreaterThanOrEqual(0);
  const resumedAt = await lineCount(second);
  expect(resumedAt).toBeGreaterThanOrEqual(10);
  expect(resumedAt).toBeLessThanOrEqual(before);
  console.log(`[fault] runtime killed: told in ${toldMs} ms (game_crashed); playing again ${playingAgainMs} ms after the retry; resumed at line ${resumedAt} of ${before} (lost ${before - resumedAt} lines since the autosave)`);
  await page.getByTestId('exit').click();
});

test('the player’s network is gone for 20 s: same session, nothing lost, input works again', async ({ page, context }) => {
  test.setTimeout(180_000);
  const { user, sessionId } = await startPlaying(page);
  const stage = page.getByTestId('play-stage');
  await expect(stage).toHaveAttribute('data-session', sessionId);
  const read = await playSomeLines(page, sessionId, 4);
  const runtimeBefore = (await hostSession(sessionId))!.runtimeId;

  await context.setOffline(true);
  const offlineAt = Date.now();
  // While offline: no failure is shown (the page keeps trying, the game waits). What the player
  // sees meanwhile is logged: Chromium's offline mode cuts HTTP and WebSockets, not the WebRTC
  // media path, so the picture may go on (the controller's rejoin after a dropped peer connection
  // is unit-tested in lib/session/playController.test.ts).
  const shown = new Set<string>();
  while (Date.now() - offlineAt < 20_000) {
    await expect(page.getByTestId('play-failure')).toHaveCount(0);
    shown.add(`connection=${await stage.getAttribute('data-connection')}`);
    if (await page.getByTestId('reconnecting').count()) shown.add('reconnecting overlay');
    await page.getByTestId('input-layer').click({ position: { x: 100, y: 60 } });
    await page.waitForTimeout(2_000);
  }
  const readOffline = await lineCount(sessionId);
  // The api polls failed meanwhile: the page itself could not reach anything.
  expect(await page.evaluate(() => fetch(`/favicon.ico?${Date.now()}`, { cache: 'no-store' }).then(() => 'reached', () => 'offline'))).toBe('offline');
  await context.setOffline(false);
  const onlineAt = Date.now();

  // Back: the same session, the same runtime, the story where it was, and input reaches the game.
  await expect(stage).toHaveAttribute('data-step', 'playing', { timeout: 30_000 });
  await expect(stage).toHaveAttribute('data-session', sessionId);
  await expect(page.getByTestId('play-failure')).toHaveCount(0);
  expect(await liveSessionId(user.idToken)).toBe(sessionId);
  expect((await api<{ session_state: string }>(`/v1/session/${sessionId}/status`, user.idToken)).body.session_state).toBe('playing');
  expect((await hostSession(sessionId))!.runtimeId).toBe(runtimeBefore);
  expect(await lineCount(sessionId)).toBeGreaterThanOrEqual(readOffline);
  const input = page.getByTestId('input-layer');
  const readBack = await lineCount(sessionId);
  await expect
    .poll(
      async () => {
        await input.click({ position: { x: 100, y: 60 } });
        return lineCount(sessionId);
      },
      { timeout: 30_000, message: 'clicks reach the game again' },
    )
    .toBeGreaterThan(readBack);
  const inputBackMs = Date.now() - onlineAt;
  await expect.poll(async () => (await videoFrame(page))?.nonBlack ?? 0, { message: 'the picture is there' }).toBeGreaterThan(0.3);
  console.log(
    `[fault] network gone 20 s: same session ${sessionId}, shown while offline: ${[...shown].join(', ')}; lines ${read} → ${readOffline} while offline; input reached the game again ${inputBackMs} ms after the network came back`,
  );
  await page.getByTestId('exit').click();
});

test.skip('a host killed: the player is told within 15 s', () => {
  // Not on the shared test stack: it has one host, and the suites beside this one stream through it.
  // server/host/hostkill.int.test.ts kills one of two hosts of its own (failed host_lost within a
  // few seconds, the player's signalling closed, the slot freed, the next start placed on the other).
});
