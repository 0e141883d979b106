/**
 * npx tsx scripts/catalog/capture-screenshots.ts [id...] [--no-build]
 *
 * Photographs every title for its catalogue page, by hand (not at build time): builds the VN
 * runtime (runtime/dist), serves it and games/ with the game host's own page server, opens each
 * title in Debian Chromium (CHROMIUM_PATH) through window.yumecast, plays it from the start,
 * saves the moments of scripts/catalog/shots.ts as 1280×720 WebP files
 * public/games/<id>/screenshots/01.webp …, plays on to an ending (a headless play-through), and
 * writes the list into the "screenshots" field of games/<id>/meta.json (the rest of the file
 * is left byte for byte as it was). See docs/titles.md. Web-engine titles only: a Ren'Py title
 * ("The Question") is photographed from the running game by scripts/catalog/capture-renpy.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { buildRuntime, DEFAULT_OUT_DIR, GAMES_DIR, isWebEngineGameDir } from '../../runtime/build';
import type { EngineState } from '../../runtime/src/types';
import { startPageServer } from '../../server/host/page-server';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../server/shared/chromium';
import { writeScreenshots, type ScreenshotEntry } from './meta-screenshots';
import { matches, SHOT_PLANS, type ShotPlan } from './shots';

const ROOT = path.resolve(__dirname, '..', '..');
const WIDTH = 1280;
const HEIGHT = 720;
/** WebP quality: keeps a busy 1280×720 frame well under 250 kB. */
const QUALITY = 0.86;
/** A crossfade is 400 ms; characters and effects settle well within this. */
const SETTLE_MS = 900;
const MAX_STEPS = 3000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const state = (page: Page): Promise<EngineState> => page.evaluate(() => window.yumecast.getState());

async function press(page: Page, key: string): Promise<void> {
  await page.evaluate((k) => {
    window.yumecast.applyInput({ v: 1, type: 'key', kind: 'down', key: k });
    window.yumecast.applyInput({ v: 1, type: 'key', kind: 'up', key: k });
  }, key);
}

/**
 * Presses `key` until the engine shows something new after `before` (a line, choices, or a
 * screen). A press can be spent finishing a line whose typing waits behind a transition, so one
 * press is not always one line.
 */
async function advance(page: Page, before: EngineState, key: string): Promise<EngineState> {
  for (let attempt = 0; attempt < 30; attempt++) {
    await press(page, key);
    for (let i = 0; i < 20; i++) {
      await sleep(15);
      const s = await state(page);
      if (s.lineCount !== before.lineCount || s.choices.length !== before.choices.length || s.screen !== before.screen) return s;
    }
  }
  throw new Error(`the story did not move on from line ${before.lineCount} ("${before.text.slice(0, 20)}")`);
}

/** The current frame as WebP, re-encoded in the page from the engine's own PNG screenshot. */
async function frameWebp(page: Page): Promise<Buffer> {
  const dataUrl = await page.evaluate(
    async ({ w, h, q }) => {
      const png = await window.yumecast.screenshot();
      const img = new Image();
      img.src = png;
      await img.decode();
      const c = document.createElement('canvas');
      c.width = w;
      c.height = h;
      c.getContext('2d')!.drawImage(img, 0, 0, w, h);
      return c.toDataURL('image/webp', q);
    },
    { w: WIDTH, h: HEIGHT, q: QUALITY },
  );
  if (!dataUrl.startsWith('data:image/webp;base64,')) throw new Error('this Chromium cannot encode WebP');
  return Buffer.from(dataUrl.slice('data:image/webp;base64,'.length), 'base64');
}

interface PlayResult {
  shots: ScreenshotEntry[];
  ending: string;
}

/** Plays one title from the first line to an ending, photographing the plan's moments on the way. */
async function playAndCapture(page: Page, id: string, plan: ShotPlan, outDir: string): Promise<PlayResult> {
  const shots: ScreenshotEntry[] = [];
  let choicePoint = 0;
  let s = await state(page);
  for (let step = 0; step < MAX_STEPS && s.screen !== 'ending'; step++) {
    if (s.screen === 'error') throw new Error(`${id}: the engine shows an error: ${s.error}`);
    const next = plan.moments[shots.length];
    if (next && matches(next, s)) {
      await sleep(SETTLE_MS);
      const file = `${String(shots.length + 1).padStart(2, '0')}.webp`;
      const bytes = await frameWebp(page);
      fs.writeFileSync(path.join(outDir, file), bytes);
      shots.push({ src: `/games/${id}/screenshots/${file}`, width: WIDTH, height: HEIGHT, alt: next.alt });
      console.log(`  ${file} ${(bytes.length / 1024).toFixed(0)} kB — ${next.alt}`);
    }
    let key = 'Enter';
    if (s.choices.length) {
      key = String(Math.min(plan.choices[choicePoint] ?? 0, s.choices.length - 1) + 1);
      choicePoint++;
    }
    s = await advance(page, s, key);
  }
  if (s.screen !== 'ending' || !s.ending) throw new Error(`${id}: no ending after ${MAX_STEPS} steps`);
  if (shots.length < plan.moments.length) {
    throw new Error(`${id}: moment ${shots.length + 1} (${plan.moments[shots.length].alt}) never came up on this path`);
  }
  return { shots, ending: `${s.ending} 「${s.endingTitle}」` };
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const ids = args.filter((a) => !a.startsWith('--'));
  const wanted = ids.length ? ids : Object.keys(SHOT_PLANS);
  for (const id of wanted) {
    if (!isWebEngineGameDir(path.join(GAMES_DIR, id))) throw new Error(`${id} is not a web-engine title: scripts/catalog/capture-renpy.ts photographs it`);
    if (!SHOT_PLANS[id]) throw new Error(`no shot plan for ${id} in scripts/catalog/shots.ts`);
  }
  if (!args.includes('--no-build')) {
    const build = await buildRuntime({ quiet: true });
    const failed = build.games.filter((g) => !g.ok);
    if (failed.length) throw new Error(`stories that do not compile: ${failed.map((g) => `${g.id}: ${g.errors.join('; ')}`).join(' | ')}`);
  }
  const server = await startPageServer({ runtimeDir: DEFAULT_OUT_DIR, gamesDirs: [GAMES_DIR], port: 0 });
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: [...CHROMIUM_ARGS] });
  try {
    for (const id of wanted) {
      console.log(`${id}:`);
      const outDir = path.join(ROOT, 'public', 'games', id, 'screenshots');
      fs.rmSync(outDir, { recursive: true, force: true });
      fs.mkdirSync(outDir, { recursive: true });
      const page = await browser.newPage({ viewport: { width: WIDTH, height: HEIGHT } });
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      try {
        await page.goto(`${server.origin}/runtime/index.html?game=${id}&session=screenshots`);
        await page.waitForFunction(() => !!window.yumecast);
        // text appears at once (no typing), so each step shows a whole line
        await page.evaluate(() => window.yumecast.start({ skipTitle: true, textSpeed: 100000, volume: 0 }));
        await page.waitForFunction(() => window.yumecast.getState().screen === 'story');
        const result = await playAndCapture(page, id, SHOT_PLANS[id], outDir);
        if (errors.length) throw new Error(`${id}: page errors: ${errors.join(' | ')}`);
        writeScreenshots(path.join(GAMES_DIR, id, 'meta.json'), result.shots);
        console.log(`  played to the ending ${result.ending}; meta.json has ${result.shots.length} screenshots`);
      } finally {
        await page.close();
      }
    }
  } finally {
    await browser.close();
    await server.close();
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
