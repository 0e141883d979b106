import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { listProcs, type ProcInfo } from '../server/host/procs';
import { createVerifiedUser } from './support/emulator';
import { loginAsVerified } from './support/session';
import { api, hostSession, liveSessionId, videoFrame, waitForVideo } from './support/play';

/**
 * Faults a player lives through (issue 10, docs/reliability.md), in a real browser against the
 * running stack:
 * - the game's runtime (its Chromium) is killed mid-play: the player reads 「ゲームが停止しました」
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

/** Keeps every RTCPeerConnection the page makes, so the test can read which runtime it is connected to. */
async function recordPeerConnections(page: Page) {
  await page.addInitScript(() => {
    const Native = window.RTCPeerConnection;
    const all: RTCPeerConnection[] = [];
    (window as unknown as { __pcs: RTCPeerConnection[] }).__pcs = all;
    window.RTCPeerConnection = class extends Native {
      constructor(...args: ConstructorParameters<typeof RTCPeerConnection>) {
        super(...args);
        all.push(this);
      }
    } as typeof RTCPeerConnection;
  });
}

/** The UDP port of the runtime's end of the page's live peer connection (the selected ICE pair). */
async function runtimePort(page: Page): Promise<number> {
  const port = await page.evaluate(async () => {
    const pcs = (window as unknown as { __pcs: RTCPeerConnection[] }).__pcs ?? [];
    for (const pc of [...pcs].reverse()) {
      if (pc.connectionState !== 'connected') continue;
      const stats = await pc.getStats();
      let pair: { remoteCandidateId?: string } | undefined;
      stats.forEach((s) => {
        if (s.type === 'transport' && s.selectedCandidatePairId) pair = stats.get(s.selectedCandidatePairId);
      });
      if (!pair) stats.forEach((s) => s.type === 'candidate-pair' && s.nominated && s.state === 'succeeded' && (pair = s));
      const remote = pair?.remoteCandidateId ? stats.get(pair.remoteCandidateId) : undefined;
      if (remote?.port) return remote.port as number;
    }
    return null;
  });
  expect(port, 'the page has a connected peer').not.toBeNull();
  return port!;
}

/** Socket inodes bound to this local UDP port (IPv4 and IPv6). */
function udpInodes(port: number): Set<string> {
  const out = new Set<string>();
  for (const file of ['/proc/net/udp', '/proc/net/udp6']) {
    const lines = fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').slice(1) : [];
    for (const line of lines) {
      const f = line.trim().split(/\s+/);
      if (f.length > 9 && parseInt(f[1].split(':').pop() ?? '', 16) === port) out.add(f[9]);
    }
  }
  return out;
}

/** The process that holds one of these sockets, among the game host's runtimes. */
function socketOwner(inodes: Set<string>, runtimes: ProcInfo[]): ProcInfo | null {
  for (const p of runtimes) {
    let fds: string[] = [];
    try {
      fds = fs.readdirSync(`/proc/${p.pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        const m = /^socket:\[(\d+)\]$/.exec(fs.readlinkSync(`/proc/${p.pid}/fd/${fd}`));
        if (m && inodes.has(m[1])) return p;
      } catch {
        /* closed meanwhile */
      }
    }
  }
  return null;
}

/**
 * The process group of the runtime streaming to this page: its Chromium holds the UDP socket the
 * page's ICE pair goes to. Every member must name the same runtime profile (yumecast-rt-…, under
 * this stack's HOST_TMP_DIR when set), so nothing else can be killed by mistake.
 */
function runtimeGroup(port: number): { pgid: number; profile: string; members: ProcInfo[] } {
  const tmp = process.env.HOST_TMP_DIR;
  const procs = listProcs();
  const runtimes = procs.filter((p) => p.cmdline.includes('yumecast-rt-') && (!tmp || p.cmdline.includes(tmp)));
  const owner = socketOwner(udpInodes(port), runtimes);
  expect(owner, `a runtime process holds UDP port ${port}`).not.toBeNull();
  const profile = /--user-data-dir=(\S*yumecast-rt-[^\s/]+)/.exec(owner!.cmdline)?.[1];
  expect(profile, 'the runtime names its profile').toBeTruthy();
  const members = procs.filter((p) => p.pgid === owner!.pgid && p.state !== 'Z');
  expect(members.length).toBeGreaterThan(0);
  for (const m of members) expect(m.cmdline, `process ${m.pid} belongs to the runtime`).toContain(profile!);
  expect(owner!.pgid).not.toBe(process.pid);
  return { pgid: owner!.pgid, profile: profile!, members };
}

/** The line the host's engine reports for a session (-1 before it reports any). */
const lineCount = async (sessionId: string) => ((await hostSession(sessionId))?.engine as { lineCount?: number } | undefined)?.lineCount ?? -1;

/** A new verified user opens the play page (its peer connections recorded) until video shows. */
async function startPlaying(page: Page) {
  await recordPeerConnections(page);
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

  const group = runtimeGroup(await runtimePort(page));
  const killedAt = Date.now();
  process.kill(-group.pgid, 'SIGKILL');

  const failure = page.getByTestId('play-failure');
  await expect(failure).toHaveAttribute('data-failure', 'game_crashed', { timeout: 15_000 });
  const toldMs = Date.now() - killedAt;
  await expect(failure).toContainText('ゲームが停止しました');
  await expect(failure).not.toContainText('プレイを開始できませんでした');
  const status = await api<{ session_state: string; failure_reason: string }>(`/v1/session/${sessionId}/status`, user.idToken);
  expect(status.body).toMatchObject({ session_state: 'failed', failure_reason: 'runtime_crashed' });
  // Nothing of the dead runtime stays.
  await expect.poll(() => listProcs().filter((p) => p.state !== 'Z' && p.cmdline.includes(group.profile)).length, { timeout: 20_000 }).toBe(0);

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
