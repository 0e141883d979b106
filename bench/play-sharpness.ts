/**
 * What the player sees of a still line, against what the host drew (issue 11's "text is sharp from
 * the first frame; no frozen or blurred picture after a long still scene"). The encoder codes a
 * changed picture coarsely first and refines it with the frames that follow; a host that sends
 * frames only on change (runtime/src/frames.ts) sends a few refining frames of the still picture
 * after each change (REFINE_MS) and then one every REFRESH_MS. This bench shows how close the
 * picture on the player's screen is to the host's canvas at moments after a line has finished
 * typing, so a change to those frames can be judged by what the player sees, not by the encoder's
 * QP (a frame of an unchanged picture reports a high QP while coding nothing).
 *
 * Per configuration (bench/play-configs.ts, default `after`): a fresh host with one warm runtime,
 * one real player (a test player page in its own Chromium, decoding), into the story; then for
 * --lines changes (6; --mode typed|completed|menu, below): the change, wait until it is drawn and
 * its line typed (the engine's state, read without drawing), and at each of --at (0.15, 0.5, 1,
 * 2, 4 s) after that: the player's current video frame drawn at 1280×720 against the runtime
 * page's canvas (read, not redrawn), luma PSNR over the text window (play-capacity's TEXT_WINDOW)
 * and over the whole picture, and the frames the host had sent since the line was typed and
 * since the key. Prints the medians and minimums per moment. Figures
 * only; never fails on quality.
 *
 *   npx tsx bench/play-sharpness.ts [--config after] [--lines 6] [--mode typed|completed|menu] [--at 0.15,0.5,1,2,4] [--game hajimari-no-eki] [--fake]
 */
import os from 'node:os';
import type { Page } from 'playwright-core';
import { sleep, until, type TestAgent } from '../server/host/testing/harness';
import type { ProbedPlayer } from '../server/host/testing/player-probe';
import { describe, playConfigs, printTables, num, type PlayConfig, type Row } from './play-configs';
import { TEXT_WINDOW } from './play-capacity';
import { arg, bound, engineState, finish, fullVideo, intoStory, machine, median, sendKey, benchRuntime } from './play-common';
import { startStackAndPlayers, type PlayStack } from './play-stack';
import { pageOf } from '../server/host/testing/page-runtime';

const LINES = Math.max(1, Number(arg('lines', '6')));
/**
 * What makes each change: `typed` Enter and the next line typed to its end; `completed` Enter, and
 * Enter again 120 ms later (the rest of the line appears in one frame); `menu` the menu overlay
 * opened and closed in turn (Menu / Escape: most of the picture changes in one frame).
 */
const MODES = ['typed', 'completed', 'menu'] as const;
const MODE = arg('mode', 'typed') as (typeof MODES)[number];
if (!MODES.includes(MODE)) throw new Error(`--mode ${MODE}: one of ${MODES.join(', ')}`);
const AT_S = arg('at', '0.15,0.5,1,2,4')
  .split(',')
  .map(Number)
  .filter((x) => Number.isFinite(x) && x >= 0)
  .sort((a, b) => a - b);

/** Pixel i's 8-bit luma in RGBA data d (as the player probe's comparisons), for both pages' scripts. */
const LUMA = '((d, i) => (d[4 * i] * 2 + d[4 * i + 1] * 5 + d[4 * i + 2]) >> 3)';

/** The host's canvas as 8-bit luma, base64 (read from the runtime page; nothing is drawn). */
const HOST_LUMA = `(() => {
  const luma = ${LUMA};
  const c = document.getElementById('screen') || document.querySelector('canvas');
  const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
  const y = new Uint8Array(d.length / 4);
  for (let i = 0; i < y.length; i++) y[i] = luma(d, i);
  let s = '';
  for (let i = 0; i < y.length; i += 0x8000) s += String.fromCharCode.apply(null, y.subarray(i, i + 0x8000));
  return { w: c.width, h: c.height, b64: btoa(s) };
})()`;

/** In the player page: its video's current frame at the host's size against the host's luma. */
const COMPARE = `(async ({ w, h, b64, box }) => {
  const luma = ${LUMA};
  const v = document.querySelector('video');
  if (!v || !v.videoWidth) return null;
  const c = document.createElement('canvas');
  c.width = w; c.height = h;
  const g = c.getContext('2d', { willReadFrequently: true });
  g.drawImage(v, 0, 0, w, h);
  const d = g.getImageData(0, 0, w, h).data;
  const ref = Uint8Array.from(atob(b64), (ch) => ch.charCodeAt(0));
  const psnr = (x0, y0, x1, y1) => {
    let se = 0, n = 0;
    for (let y = y0; y < y1; y++)
      for (let x = x0; x < x1; x++) {
        const i = y * w + x;
        const e = luma(d, i) - ref[i];
        se += e * e; n++;
      }
    return se === 0 ? 99 : 10 * Math.log10((255 * 255 * n) / se);
  };
  return { text: psnr(box[0], box[1], box[2], box[3]), all: psnr(0, 0, w, h) };
})`;

interface Reading {
  text: number;
  all: number;
  /** Video frames the host sent since the line was typed (EngineState.videoFrames). */
  sent: number;
  /** …and since the key that made the change (the change, its typing, and the still picture's frames). */
  total: number;
}

async function compare(runtimePage: Page, player: ProbedPlayer): Promise<{ text: number; all: number } | null> {
  const ref = (await runtimePage.evaluate(HOST_LUMA)) as { w: number; h: number; b64: string };
  const box = TEXT_WINDOW.map((f, i) => Math.round(f * (i % 2 ? ref.h : ref.w)));
  return (await player.page.evaluate(`${COMPARE}(${JSON.stringify({ ...ref, box })})`)) as { text: number; all: number } | null;
}

async function run(stack: PlayStack, player: ProbedPlayer, cfg: PlayConfig, game: string): Promise<Reading[][]> {
  const host: TestAgent = await stack.startHost({ HOST_WARM_POOL: '1', HOST_CAPACITY: '1', ...cfg.hostEnv });
  try {
    await host.agent.pool.whenWarm(1, 120_000);
    await sleep(1500);
    const click = await stack.click(host, game);
    try {
      await click.join(player);
      await fullVideo(player);
      await intoStory(host, click.sid, player);
      const page = pageOf(host.agent.sessions.get(click.sid)!.runtime).livePage;
      const byMoment: Reading[][] = AT_S.map(() => []);
      for (let line = 0; line < LINES; line++) {
        const before = await engineState(host, click.sid);
        if (MODE === 'menu') await sendKey(player, line % 2 ? 'Escape' : 'Menu');
        else {
          await sendKey(player, 'Enter');
          if (MODE === 'completed') {
            await sleep(120);
            await sendKey(player, 'Enter');
          }
        }
        // the change drawn and the line typed to its end (the engine's state: nothing drawn)
        const s = await until(
          async () => {
            const now = await engineState(host, click.sid);
            const changed = MODE === 'menu' ? now.overlay !== before.overlay : now.text !== before.text;
            return changed && !now.typing ? now : null;
          },
          `change ${line + 1} (${MODE}) drawn, its line typed`,
          20_000,
          20,
        );
        const t0 = performance.now();
        const sent0 = s.videoFrames ?? NaN;
        const sentBefore = before.videoFrames ?? NaN;
        for (let i = 0; i < AT_S.length; i++) {
          await sleep(Math.max(0, t0 + AT_S[i] * 1000 - performance.now()));
          const r = await compare(page, player);
          const sent = ((await engineState(host, click.sid)).videoFrames ?? NaN) - sent0;
          if (r) byMoment[i].push({ ...r, sent, total: sent + sent0 - sentBefore });
        }
        await sleep(300);
      }
      return byMoment;
    } finally {
      await player.leave().catch(() => undefined);
      await click.end().catch(() => undefined);
    }
  } finally {
    await host.stop();
  }
}

function rows(figs: Map<string, Reading[][]>, names: string[]): Row[] {
  const out: Row[] = [];
  AT_S.forEach((at, i) => {
    const cell = (n: string, f: (rs: Reading[]) => string) => {
      const rs = figs.get(n)?.[i] ?? [];
      return rs.length ? f(rs) : '–';
    };
    const row = (figure: string, f: (rs: Reading[]) => string) => out.push({ figure, values: Object.fromEntries(names.map((n) => [n, cell(n, f)])) });
    row(`${at} s after the line is typed`, () => '');
    row('  text window PSNR median (min), dB', (rs) => `${num(median(rs.map((r) => r.text)), 1)} (${num(Math.min(...rs.map((r) => r.text)), 1)})`);
    row('  whole picture PSNR median (min), dB', (rs) => `${num(median(rs.map((r) => r.all)), 1)} (${num(Math.min(...rs.map((r) => r.all)), 1)})`);
    row('  frames sent since the line was typed / since the key (medians)', (rs) => `${num(median(rs.map((r) => r.sent)))} / ${num(median(rs.map((r) => r.total)))}`);
  });
  return out;
}

async function main(): Promise<void> {
  const configs = playConfigs('after');
  bound(Number(arg('minutes', String(4 * configs.length))) * 60_000);
  const { game } = await benchRuntime();
  const { stack, players } = await startStackAndPlayers();
  console.log(`sharpness bench: ${new Date().toISOString()}, api: ${stack.mode === 'api' ? 'real' : 'fake api peer'}, game ${game}, ${LINES} changes (${MODE}), moments ${AT_S.join(', ')} s`);
  console.log(`machine: ${machine()}`);
  for (const c of configs) console.log(`  config ${describe(c)}`);
  const figs = new Map<string, Reading[][]>();
  for (const cfg of configs) {
    console.log(`\n[${cfg.name}] ${new Date().toISOString().slice(11, 19)} UTC, load ${os.loadavg()[0].toFixed(1)}`);
    const player = await players.newPlayer();
    try {
      const f = await run(stack, player, cfg, game);
      figs.set(cfg.name, f);
      AT_S.forEach((at, i) => console.log(`  +${at} s: text ${f[i].map((r) => r.text.toFixed(1)).join(', ')} dB; frames sent ${f[i].map((r) => r.sent).join(', ')}`));
    } catch (e) {
      console.error(`[${cfg.name}] stopped: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      await player.close().catch(() => undefined);
    }
  }
  printTables('what the player sees of a still line against the host canvas (luma PSNR)', rows(figs, configs.map((c) => c.name)), configs);
  await finish(0);
}

main().catch(async (e) => {
  console.error(e);
  await finish(1);
});
