/**
 * The play benches on a native title (issue 15: a Ren'Py game under Xvfb, server/host/native/):
 * what differs from a web-engine title, in one place, so bench/play-latency.ts and
 * bench/play-host-cost.ts keep their web-title behaviour unchanged and branch here only.
 *
 * Why a file of its own: the web benches drive our engine through its state (`screen`, `typing`,
 * `effects` from window.yumecast.getState(): play-common.ts intoStory / intoPetals). A Ren'Py game
 * has no such state: its picture is only known from the video. So the scene drivers here watch
 * pictures instead: the runtime page's count of pictures received from the X helper (the
 * native engine's `frame`, which grows only when the game window changed), and, in the real
 * player, the received video's pixels (player-probe keyLatency).
 *
 *   title screen  the first picture, then no new picture for STILL_MS;
 *   story         スタート clicked at (0.06, 0.414) of the picture (the title menu as the host runs it, RENPY_VARIANT=large: no Help or Quit entries) (as a player: a pointer
 *                 message into the runtime page's input path), the picture changed, then still;
 *   reading on    Enter every 250 ms from the peer; the game stops at its menus and at its end,
 *                 so a helper here clicks the first choice (0.5, 0.33), or スタート after the
 *                 ending, whenever no picture came for 1.2 s (`unstick`);
 *   input-to-photon  Enter (line 2 → 3 of the lecture hall, no transition) until the received
 *                 text window changes; between samples PageUp (Ren'Py's rollback, not measured)
 *                 goes back to line 2 and the picture is let settle.
 * Also: the host settings a native session needs on this shared machine (displays :200–:239,
 * a private run folder), and the game's processes of a session (its cgroup) by kind.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runtimeKindOf } from '../lib/api-types/titleRuntime';
import { GAMES_DIR } from '../runtime/build';
import { listProcs, type ProcInfo } from '../server/host/procs';
import { sleep, until, type TestAgent } from '../server/host/testing/harness';
import { keyLatency, type LatencySample, type ProbedPlayer } from '../server/host/testing/player-probe';
import { engineState, sendKey } from './play-common';
import { pageOf } from '../server/host/testing/page-runtime';

/** スタート on The Question's title screen, as a fraction of the picture (docs/renpy.md §3). */
export const START_BUTTON = { x: 0.06, y: 0.414 };
/** The first of two choices (screens.rpy: choice_vbox centred at y 270 of 720). */
export const FIRST_CHOICE = { x: 0.5, y: 0.33 };
/** Where Ren'Py writes a line: the say window's text (gui.rpy: textbox 185 px at the bottom, text from x 268). */
export const RENPY_TEXT: [number, number, number, number] = [0.2, 0.76, 0.82, 0.97];
/** The picture counts as still after this long without a new one. */
export const STILL_MS = 800;

/** True when the title is played by the native runtime (its meta.json's runtime kind). */
export function isNativeTitle(gameId: string): boolean {
  try {
    return runtimeKindOf(JSON.parse(fs.readFileSync(path.join(GAMES_DIR, gameId, 'meta.json'), 'utf8'))) !== 'web';
  } catch {
    return false;
  }
}

let runDir: string | null = null;
/**
 * The host settings of a native session on this shared machine: X displays :200–:239 (the
 * helpers' range, overridable), and a run folder of this bench process (removed at exit).
 */
export function nativeHostEnv(): Record<string, string> {
  if (!runDir) {
    runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'yumecast-bench-native-'));
    // the game's user (nobody) passes through it to its session folder
    fs.chmodSync(runDir, 0o711);
    const dir = runDir;
    process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  }
  return {
    HOST_NATIVE_DISPLAY_BASE: process.env.HOST_NATIVE_DISPLAY_BASE ?? '200',
    HOST_NATIVE_DISPLAYS: process.env.HOST_NATIVE_DISPLAYS ?? '40',
    HOST_NATIVE_RUN_DIR: path.join(runDir, 'run'),
  };
}

/** Pictures the session's runtime page has received from the X helper (each one a change of the game window). */
export async function pictures(host: TestAgent, sid: string): Promise<number> {
  return (await engineState(host, sid)).frame;
}

/** Waits until no new picture came for `stillMs` (a transition, a fade or the music's redraws are over). */
export async function whenStill(host: TestAgent, sid: string, stillMs = STILL_MS, timeoutMs = 20_000): Promise<number> {
  let last = await pictures(host, sid);
  let since = Date.now();
  const t0 = Date.now();
  while (Date.now() - since < stillMs) {
    if (Date.now() - t0 > timeoutMs) throw new Error(`the picture did not settle within ${timeoutMs} ms`);
    await sleep(50);
    const now = await pictures(host, sid);
    if (now !== last) since = Date.now();
    last = now;
  }
  return last;
}

/** A player's click at (x, y) of the picture, into the runtime page's input path (what the bridge does with a pointer message). */
export async function clickAt(host: TestAgent, sid: string, at: { x: number; y: number }): Promise<void> {
  const page = pageOf(host.agent.sessions.get(sid)!.runtime).livePage;
  await page.evaluate(
    `(() => { const y = window.yumecast; const m = { v: 1, type: 'pointer', x: ${at.x}, y: ${at.y} };
      y.applyInput({ ...m, kind: 'move' }); y.applyInput({ ...m, kind: 'down', button: 0 }); y.applyInput({ ...m, kind: 'up', button: 0 }); })()`,
  );
}

/** Does `act` until a new picture comes (at most 4 times, 4 s each: Ren'Py ignores input during a transition). */
async function untilChanged(host: TestAgent, sid: string, act: () => Promise<unknown>, what: string): Promise<void> {
  for (let i = 0; i < 4; i++) {
    const before = await pictures(host, sid);
    await act();
    const t0 = Date.now();
    while (Date.now() - t0 < 4000) {
      await sleep(50);
      if ((await pictures(host, sid)) !== before) return;
    }
  }
  throw new Error(`the picture did not change: ${what}`);
}

/** The title screen drawn and still. */
export async function intoNativeTitle(host: TestAgent, sid: string): Promise<void> {
  await until(async () => (await engineState(host, sid)).ready, 'the native picture', 60_000, 50);
  await whenStill(host, sid, STILL_MS, 30_000);
}

/** From the title screen into the story: スタート clicked, its fade over, the first line still. */
export async function intoNativeStory(host: TestAgent, sid: string): Promise<void> {
  await intoNativeTitle(host, sid);
  await untilChanged(host, sid, () => clickAt(host, sid, START_BUTTON), 'スタート');
  await whenStill(host, sid, STILL_MS, 30_000);
}

/**
 * While reading on: clicks the first choice at a menu, or スタート after the ending, whenever no
 * picture came for 1.2 s (Enter does nothing there). Returns the function that stops it and says
 * how many clicks it made.
 */
export function unstick(host: TestAgent, sid: string): () => Promise<number> {
  let on = true;
  let clicks = 0;
  const loop = (async () => {
    let last = -1;
    let since = Date.now();
    while (on) {
      await sleep(200);
      const n = await pictures(host, sid).catch(() => last);
      if (n !== last) {
        last = n;
        since = Date.now();
      } else if (Date.now() - since > 1200 && on) {
        await clickAt(host, sid, clicks % 2 === 0 ? FIRST_CHOICE : START_BUTTON).catch(() => undefined);
        clicks++;
        since = Date.now();
      }
    }
  })();
  return async () => {
    on = false;
    await loop;
    return clicks;
  };
}

/**
 * Input-to-photon on Ren'Py, over `samples` Enter presses from the real player: each one from
 * the story's 2nd line (the lecture hall) to the 3rd, measured by the player probe's keyLatency
 * (send Enter on the data channel → the first presented frame whose text window differs from
 * the picture before it, by more than the still picture's own noise); after each, PageUp (Ren'Py's
 * rollback) back to the 2nd line and the picture let settle (not measured).
 */
export async function nativeEnterLatency(host: TestAgent, sid: string, player: ProbedPlayer, samples: number): Promise<LatencySample[]> {
  // line 1 → line 2: from here on Enter and rollback stay in the lecture hall
  await sendKey(player, 'Enter');
  await whenStill(host, sid);
  const out: LatencySample[] = [];
  for (let i = 0; i < samples; i++) {
    const [s] = await keyLatency(player.page, { key: 'Enter', samples: 1, region: RENPY_TEXT, gapMs: 250, timeoutMs: 2000, minDiff: 2 });
    out.push(s);
    await whenStill(host, sid, 500);
    await sendKey(player, 'PageUp');
    await whenStill(host, sid, 500);
  }
  return out;
}

/**
 * The processes of a native session's game now (its cgroup: Ren'Py, Xvfb, PulseAudio, parec, the
 * X helper), as a function to call at any time (the CPU meters'); none for a web session.
 */
export async function gameProcsOf(host: TestAgent, sid: string): Promise<(all?: ProcInfo[]) => ProcInfo[]> {
  const run = await host.agent.sessions.get(sid)?.native?.catch(() => null);
  if (!run) return () => [];
  return (all = listProcs()) => {
    const pids = new Set(run.game.pids());
    return all.filter((p) => pids.has(p.pid) && p.state !== 'Z');
  };
}

/** The session's X display number (a native session), for tools run beside it (bench/native-capture.ts). */
export async function nativeRunOf(host: TestAgent, sid: string): Promise<{ display: number; runDir: string; pids: () => number[] } | null> {
  const run = await host.agent.sessions.get(sid)?.native?.catch(() => null);
  return run ? { display: run.game.display, runDir: run.game.runDir, pids: () => run.game.pids() } : null;
}

/** A game process's kind, for the memory split of docs/performance.md. */
export type GameProcKind = 'renpy' | 'xvfb' | 'pulse' | 'xhelper' | 'other';
export const GAME_PROC_KINDS: readonly GameProcKind[] = ['renpy', 'xvfb', 'pulse', 'xhelper', 'other'];
export function gameProcKind(p: ProcInfo): GameProcKind {
  if (p.cmdline.includes('renpy-py311.py')) return 'renpy';
  if (/(^|\/)Xvfb /.test(p.cmdline)) return 'xvfb';
  if (/(^|\/)(pulseaudio|parec) /.test(p.cmdline)) return 'pulse';
  if (p.cmdline.includes('xhelper.py')) return 'xhelper';
  return 'other';
}
