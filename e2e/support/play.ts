/**
 * What the play specs share (e2e/play.spec.ts for the web engine's titles, e2e/play-renpy.spec.ts
 * for the native one): reading the received video (size, brightness, a coarse fingerprint and the
 * text window's finer one) and telling when it moved on; the host's view of a session (secret
 * header) and the api's (bearer token); how a test starts (a verified user signed in, the title's
 * page, its play button) and how a failed attempt's session is closed after it; and the steps
 * every title ends its flow with — a screenshot found in the gallery at full resolution, and an
 * exit that closes the session and frees the host.
 */
import { expect, test, type Page } from '@playwright/test';
import { createVerifiedUser, type TestUser } from './emulator';
import { loginAsVerified } from './session';

const HOST_URL = process.env.HOST_URL || 'http://127.0.0.1:8190';
const HOST_SECRET = process.env.HOST_SHARED_SECRET || 'yumecast-local-host-secret';
const API_URL = process.env.API_URL || 'http://127.0.0.1:8180';

/** What the received video shows: size, share of non-black pixels, and a coarse fingerprint. */
export async function videoFrame(page: Page) {
  return page.evaluate(() => {
    const v = document.querySelector<HTMLVideoElement>('[data-testid="game-video"]');
    if (!v || !v.videoWidth) return null;
    const c = document.createElement('canvas');
    c.width = 320;
    c.height = 180;
    const g = c.getContext('2d', { willReadFrequently: true })!;
    g.drawImage(v, 0, 0, 320, 180);
    const d = g.getImageData(0, 0, 320, 180).data;
    let nonBlack = 0;
    let textLike = 0;
    const cells = new Array(64).fill(0);
    // The text window (bottom quarter) in finer cells (32 × 4): a new line changes many of them.
    const textCells = new Array(128).fill(0);
    for (let i = 0; i < d.length; i += 4) {
      const p = i / 4;
      const x = p % 320;
      const y = Math.floor(p / 320);
      const lum = 0.299 * d[i] + 0.587 * d[i + 1] + 0.114 * d[i + 2];
      if (lum > 16) nonBlack++;
      // Text window (bottom quarter): bright glyph pixels next to darker ones.
      if (y > 135 && x > 0 && Math.abs(lum - (0.299 * d[i - 4] + 0.587 * d[i - 3] + 0.114 * d[i - 2])) > 60) textLike++;
      cells[Math.floor(y / 23) * 8 + Math.floor(x / 40)] += lum;
      if (y >= 136 && y < 176) textCells[Math.floor((y - 136) / 10) * 32 + Math.floor(x / 10)] += lum;
    }
    return {
      width: v.videoWidth,
      height: v.videoHeight,
      nonBlack: nonBlack / (320 * 180),
      textEdges: textLike,
      print: cells.map((s) => Math.round(s / (40 * 23))),
      textPrint: textCells.map((s) => Math.round(s / 100)),
      currentTime: v.currentTime,
      volume: v.volume,
    };
  });
}

/** One look at the received video (videoFrame when the video plays). */
export type VideoFrame = NonNullable<Awaited<ReturnType<typeof videoFrame>>>;

export function frameDistance(a: number[], b: number[]): number {
  return a.reduce((sum, v, i) => sum + Math.abs(v - b[i]), 0) / a.length;
}

/**
 * How many cells changed clearly (mean luma by more than `minDiff`). The encoder's noise moves
 * a cell's mean by well under that; a different line of text moves several cells past it, even
 * when the text window's overall mean hardly changes (two short lines).
 */
export function changedCells(a: number[], b: number[], minDiff = 8): number {
  return a.reduce((n, v, i) => n + (Math.abs(v - b[i]) > minDiff ? 1 : 0), 0);
}

/** Whether the picture moved on from `a` to `b`: as a whole, or the text window's finer cells (32 × 4) show another line. */
export function pictureMoved(a: VideoFrame, b: VideoFrame): boolean {
  return frameDistance(a.print, b.print) > 0.15 || changedCells(a.textPrint, b.textPrint) >= 3;
}

/** Waits until the received picture differs from `before` (pictureMoved). */
export async function expectPictureChanged(page: Page, before: VideoFrame, message: string, timeout = 10_000) {
  await expect.poll(async () => pictureMoved(before, (await videoFrame(page))!), { timeout, message }).toBe(true);
}

/**
 * Whether `b` shows the same screen as `a`, up to the encoder: the same screen shown anew is
 * encoded anew, which moves the coarse cells' means by a little more than pictureMoved's
 * threshold for "it moved on" (0.11–0.17 measured for The Question's title and a line after a
 * load) but far less than another screen does (48–89); and no line of text differs (the text
 * window's finer cells, as pictureMoved).
 */
export function samePicture(a: VideoFrame, b: VideoFrame): boolean {
  return frameDistance(a.print, b.print) < SAME_PICTURE_DISTANCE && changedCells(a.textPrint, b.textPrint) < 3;
}

/** The coarse fingerprint's distance under which two frames show one screen (samePicture). */
export const SAME_PICTURE_DISTANCE = 2;

/**
 * Waits until the received picture is `frame` again (samePicture): a screen the game showed
 * before and shows anew, such as its title after "back to the main menu", or a saved line after a
 * load. On timeout, says how far the last frame was.
 */
export async function expectSamePicture(page: Page, frame: VideoFrame, message: string, timeout = 20_000) {
  let last = '';
  try {
    await expect
      .poll(
        async () => {
          const now = (await videoFrame(page))!;
          last = `coarse distance ${frameDistance(frame.print, now.print).toFixed(2)}, text cells changed ${changedCells(frame.textPrint, now.textPrint)}`;
          return samePicture(frame, now);
        },
        { timeout, message },
      )
      .toBe(true);
  } catch (error) {
    throw new Error(`${message}: not the same picture (last: ${last})`, { cause: error });
  }
}

/** Waits until the play page plays real video (`timeout`: to the playing step; a native title starts slower on a busy machine). */
export async function waitForVideo(page: Page, timeout = 30_000) {
  await expect(page.getByTestId('play-stage')).toHaveAttribute('data-step', 'playing', { timeout });
  await expect
    .poll(async () => (await videoFrame(page))?.nonBlack ?? 0, { timeout: 20_000, message: 'video shows a picture' })
    .toBeGreaterThan(0.3);
}

export async function hostSession(sessionId: string) {
  const r = await fetch(`${HOST_URL}/sessions/${sessionId}`, { headers: { 'x-host-secret': HOST_SECRET } });
  return r.ok ? ((await r.json()) as { session: Record<string, unknown> & { engine?: Record<string, unknown>; counters?: Record<string, number> } }).session : null;
}

export async function hostOverview() {
  const r = await fetch(`${HOST_URL}/sessions`, { headers: { 'x-host-secret': HOST_SECRET } });
  return (await r.json()) as { sessions: { sessionId: string; state: string }[]; pool: Record<string, number>; chromiumProcesses: number };
}

export async function api<T>(path: string, idToken: string, init: RequestInit = {}): Promise<{ status: number; body: T }> {
  const r = await fetch(`${API_URL}${path}`, { ...init, headers: { authorization: `Bearer ${idToken}`, ...(init.headers ?? {}) } });
  return { status: r.status, body: (await r.json().catch(() => null)) as T };
}

/** The session id the play page is using, from the api (the user's one live session). */
export async function liveSessionId(idToken: string): Promise<string> {
  const r = await api<{ game_sessions: { id: string }[] }>('/v1/session/all', idToken);
  expect(r.body.game_sessions.length).toBe(1);
  return r.body.game_sessions[0].id;
}

/**
 * Closes every live session of the user through the api (force_close), so a failed attempt does
 * not hold the host's slot while its retry waits in the queue.
 */
export async function closeLiveSessions(idToken: string) {
  const r = await api<{ game_sessions?: { id: string }[] }>('/v1/session/all', idToken);
  for (const s of r.body?.game_sessions ?? []) await api(`/v1/session/${s.id}/force_close`, idToken);
}

/** Records the user whose live sessions are closed after the running test (closeSessionsAfterEach); returns the idToken. */
export type SessionOwner = (idToken: string) => string;

/**
 * Closes, after each test of the file (or describe) that calls this, the live sessions of the
 * user whose game the test started: a failed attempt leaves its session live, and its retry would
 * wait in the host's start queue behind it until it timed out. A test records that user with the
 * SessionOwner returned (signInPlayer and startPlay do; a visitor's token is recorded by hand);
 * a test that records none closes nothing.
 */
export function closeSessionsAfterEach(): SessionOwner {
  let idToken = '';
  test.afterEach(async () => {
    const token = idToken;
    idToken = '';
    if (token) await closeLiveSessions(token).catch(() => undefined);
  });
  return (token) => (idToken = token);
}

/** A new verified user, recorded with `owner` (before any game can start), signed in through the real login form. */
export async function signInPlayer(page: Page, owner: SessionOwner): Promise<TestUser> {
  const user = await createVerifiedUser();
  owner(user.idToken);
  await loginAsVerified(page, user);
  return user;
}

/**
 * A verified user starts `game` as a user does: signed in (signInPlayer), the title's page
 * (checked by `onTitlePage` when given), its play button, and on the play page of that title.
 */
export async function startPlay(page: Page, game: string, owner: SessionOwner, onTitlePage?: () => Promise<void>): Promise<TestUser> {
  const user = await signInPlayer(page, owner);
  await page.goto(`/title/${game}`);
  await onTitlePage?.();
  await page.getByTestId('play-button').click();
  await page.waitForURL(new RegExp(`/play/${game}$`));
  return user;
}

/** The play page's screenshot button: the toast says it was saved, and the user's gallery holds it, at 1280×720. */
export async function screenshotSaved(page: Page, idToken: string) {
  await page.getByTestId('screenshot').click();
  await expect(page.getByTestId('toast').filter({ hasText: 'スクリーンショットを保存しました' })).toBeVisible();
  const shots = await api<{ screenshots: { id: string; width: number; height: number }[] }>('/v1/screenshots', idToken);
  expect(shots.body.screenshots).toHaveLength(1);
  expect(shots.body.screenshots[0]).toMatchObject({ width: 1280, height: 720 });
}

/** The play page's exit: back on the title's page, the session closed on the api, and the host holds it no more. */
export async function exitAndClosed(page: Page, gameId: string, sessionId: string, idToken: string) {
  await page.getByTestId('exit').click();
  await page.waitForURL(new RegExp(`/title/${gameId}$`));
  await expect
    .poll(async () => (await api<{ session_state: string }>(`/v1/session/${sessionId}/status`, idToken)).body.session_state, { timeout: 20_000 })
    .toBe('closed');
  await expect.poll(async () => (await hostOverview()).sessions.some((s) => s.sessionId === sessionId), { timeout: 20_000 }).toBe(false);
  // the title page took the play page's place in the history: Back never starts the game again
  await page.goBack();
  await page.waitForTimeout(500);
  expect(new URL(page.url()).pathname.startsWith('/play/'), `back after exit left ${page.url()}`).toBe(false);
}
