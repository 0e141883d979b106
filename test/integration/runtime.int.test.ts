/**
 * The VN runtime (runtime/) in Debian Chromium: builds it, serves runtime/dist and the games
 * from a small HTTP server on 127.0.0.1, and plays the engine's fixture story (every tag of
 * docs/vn-engine.md) and every game in games/ that has a story.ink, through window.yumecast.
 */
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../server/shared/chromium';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { FIXTURES_DIR, GAMES_DIR, buildRuntime, isWebEngineGameDir, type BuildResult } from '../../runtime/build';
import type { EngineState, StartOptions } from '../../runtime/src/types';

jest.setTimeout(180_000);

const CHROMIUM = CHROMIUM_PATH;
const ARGS = [...CHROMIUM_ARGS];
const FIXTURE = 'yumecast-fixture';
const SHOTS = path.resolve(__dirname, '../../test-results/runtime');

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.ink': 'text/plain; charset=utf-8',
  '.map': 'application/json',
};

let build: BuildResult;
let server: http.Server;
let base = '';
let browser: Browser;

/** Serves /runtime/* from runtime/dist, /games/<id>/* from games/ (or the fixtures). */
function handler(req: http.IncomingMessage, res: http.ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://x');
  const rel = decodeURIComponent(url.pathname);
  let file: string | null = null;
  const inside = (root: string, p: string) => {
    const full = path.resolve(root, '.' + p);
    return full.startsWith(root + path.sep) ? full : null;
  };
  if (rel.startsWith('/runtime/')) file = inside(build.outDir, rel.slice('/runtime'.length));
  else if (rel.startsWith('/games/')) {
    const sub = rel.slice('/games'.length);
    const a = inside(GAMES_DIR, sub);
    file = a && fs.existsSync(a) ? a : inside(FIXTURES_DIR, sub);
  }
  if (!file || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
    res.writeHead(404).end('not found');
    return;
  }
  res.writeHead(200, { 'content-type': MIME[path.extname(file)] ?? 'application/octet-stream' });
  fs.createReadStream(file).pipe(res);
}

beforeAll(async () => {
  build = await buildRuntime({ includeFixtures: true, quiet: true });
  server = http.createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });
  fs.mkdirSync(SHOTS, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  await new Promise((r) => server?.close(r));
});

interface Opened {
  page: Page;
  errors: string[];
}

async function open(gameId: string, options: StartOptions = {}): Promise<Opened> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => {
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) errors.push(m.text());
  });
  page.on('response', (r) => {
    if (r.status() >= 400) errors.push(`${r.status()} ${r.url()}`);
  });
  await page.goto(`${base}/runtime/index.html?game=${gameId}&session=test-session`);
  await page.waitForFunction(() => !!window.yumecast);
  await page.evaluate(() => {
    const w = window as unknown as { __events: { name: string; payload: unknown }[] };
    w.__events = [];
    for (const name of ['ready', 'ending', 'save', 'autosave', 'error', 'choices'] as const) {
      window.yumecast.on(name, (payload) => w.__events.push({ name, payload }));
    }
  });
  await page.evaluate((o) => window.yumecast.start(o), options);
  return { page, errors };
}

const state = (page: Page): Promise<EngineState> => page.evaluate(() => window.yumecast.getState());
const send = (page: Page, msg: unknown): Promise<boolean> => page.evaluate((m) => window.yumecast.applyInput(m), msg);
const key = (page: Page, k: string) => send(page, { v: 1, type: 'key', kind: 'down', key: k }).then(() => send(page, { v: 1, type: 'key', kind: 'up', key: k }));
const click = async (page: Page, x = 0.5, y = 0.4, button = 0) => {
  await send(page, { v: 1, type: 'pointer', kind: 'down', x, y, button });
  await send(page, { v: 1, type: 'pointer', kind: 'up', x, y, button });
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitFor(page: Page, pred: (s: EngineState) => boolean, what: string, ms = 10_000): Promise<EngineState> {
  const end = Date.now() + ms;
  let s = await state(page);
  while (!pred(s)) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}; state: ${JSON.stringify({ ...s, saves: s.saves.length })}`);
    await sleep(40);
    s = await state(page);
  }
  return s;
}

/** Advances to the next line (or choices / the ending) with the given input. */
async function advance(page: Page, how: 'click' | 'enter' = 'enter'): Promise<EngineState> {
  const before = await state(page);
  for (let i = 0; i < 20; i++) {
    if (how === 'click') await click(page);
    else await key(page, 'Enter');
    await sleep(30);
    const s = await state(page);
    if (s.lineCount > before.lineCount || s.choices.length || s.screen !== 'story') return s;
  }
  throw new Error('the story did not advance');
}

/** Clicks on until choices show, the ending shows, or `limit` lines passed. */
async function readUntilChoices(page: Page, limit = 400): Promise<EngineState> {
  let s = await state(page);
  for (let i = 0; i < limit && !s.choices.length && s.screen === 'story'; i++) s = await advance(page, i % 2 ? 'click' : 'enter');
  return s;
}

/** Non-black share of the canvas, and the PNG's size from its IHDR. */
async function canvasStats(page: Page): Promise<{ nonBlack: number; distinctColours: number }> {
  return page.evaluate(() => {
    const c = document.getElementById('screen') as HTMLCanvasElement;
    const d = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
    let nonBlack = 0;
    const colours = new Set<number>();
    for (let i = 0; i < d.length; i += 4 * 7) {
      if (d[i] + d[i + 1] + d[i + 2] > 30) nonBlack++;
      colours.add((d[i] >> 4) | ((d[i + 1] >> 4) << 4) | ((d[i + 2] >> 4) << 8));
    }
    return { nonBlack: nonBlack / (d.length / (4 * 7)), distinctColours: colours.size };
  });
}

function pngSize(dataUrl: string): { width: number; height: number; bytes: Buffer } {
  expect(dataUrl.startsWith('data:image/png;base64,')).toBe(true);
  const bytes = Buffer.from(dataUrl.slice('data:image/png;base64,'.length), 'base64');
  expect(bytes.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
  expect(bytes.subarray(12, 16).toString('ascii')).toBe('IHDR');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20), bytes };
}

async function shoot(page: Page, name: string): Promise<void> {
  const url = await page.evaluate(() => window.yumecast.screenshot());
  fs.writeFileSync(path.join(SHOTS, `${name}.png`), pngSize(url).bytes);
}

describe('runtime build', () => {
  it('bundles the page, the fonts and the precompiled fixture story', () => {
    for (const f of ['index.html', 'engine.js', 'fonts/noto-sans-jp.css', `games/${FIXTURE}.json`]) {
      expect(fs.existsSync(path.join(build.outDir, f))).toBe(true);
    }
    const fixture = build.games.find((g) => g.id === FIXTURE);
    expect(fixture).toMatchObject({ ok: true });
    const css = fs.readFileSync(path.join(build.outDir, 'fonts/noto-sans-jp.css'), 'utf8');
    expect(css).toContain("font-family: 'Noto Sans JP'");
    expect(css).not.toMatch(/\.woff\)/);
    const woff2 = [...css.matchAll(/url\(\.\/files\/([^)]+)\)/g)].map((m) => m[1]);
    expect(woff2.length).toBeGreaterThan(100);
    for (const f of woff2) expect(fs.existsSync(path.join(build.outDir, 'fonts/files', f))).toBe(true);
  });
});

describe('runtime: fixture story (every tag of the contract)', () => {
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    ({ page, errors } = await open(FIXTURE, { textSpeed: 60 }));
  });
  afterAll(async () => {
    await page?.close();
  });

  it('shows the title screen with Japanese text in Noto Sans JP', async () => {
    const s = await waitFor(page, (x) => x.ready && x.screen === 'title', 'the title screen');
    expect(s.gameId).toBe(FIXTURE);
    expect(s.sessionId).toBe('test-session');
    expect(s.fontsReady).toBe(true);
    await sleep(1000); // the title fades in
    const stats = await canvasStats(page);
    expect(stats.nonBlack).toBeGreaterThan(0.5);
    expect(stats.distinctColours).toBeGreaterThan(50);
    // Japanese glyphs really come from the web font (not missing-glyph boxes)
    const glyphs = await page.evaluate(async () => {
      const f = '400 40px "Noto Sans JP"';
      await document.fonts.load(f, 'はじめから');
      const draw = (ch: string) => {
        const c = document.createElement('canvas');
        c.width = 60;
        c.height = 60;
        const g = c.getContext('2d')!;
        g.fillStyle = '#fff';
        g.font = f;
        g.fillText(ch, 5, 45);
        return Array.from(g.getImageData(0, 0, 60, 60).data.filter((_, i) => i % 4 === 3));
      };
      const ha = draw('は');
      const ji = draw('字');
      const tofu = draw('\uE000');
      const ink = (a: number[]) => a.filter((v) => v > 0).length;
      const same = (a: number[], b: number[]) => a.every((v, i) => v === b[i]);
      return { check: document.fonts.check(f, 'はじめから'), haInk: ink(ha), same: same(ha, tofu) || same(ji, tofu) || same(ha, ji) };
    });
    expect(glyphs.check).toBe(true);
    expect(glyphs.haInk).toBeGreaterThan(30);
    expect(glyphs.same).toBe(false);
    await shoot(page, 'fixture-title');
  });

  it('starts the story from 「はじめから」 and types the first line', async () => {
    await key(page, 'Enter');
    let s = await waitFor(page, (x) => x.screen === 'story' && x.text !== '', 'the first line');
    expect(s.text).toContain('夏の終わり');
    expect(s.scene).toBe('station');
    expect(s.bgm).toBe('theme');
    expect(s.speaker).toBeNull();
    s = await waitFor(page, (x) => x.typing && x.visibleText.length > 0, 'typing');
    expect(s.text.startsWith(s.visibleText)).toBe(true);
    expect(s.visibleText.length).toBeLessThan(s.text.length);
    // a click completes the line first
    await click(page);
    s = await state(page);
    expect(s.visibleText).toBe(s.text);
    expect(s.typing).toBe(false);
  });

  it('advances with pointer clicks and Enter, showing speakers and characters', async () => {
    let s = await advance(page, 'click');
    expect(s.text).toContain('こんにちは');
    expect(s.speaker).toBe('hana');
    expect(s.speakerName).toBe('花');
    expect(s.characters).toEqual([{ id: 'hana', expression: 'normal', position: 'center' }]);
    await sleep(500); // the crossfade of the character
    await shoot(page, 'fixture-hana');

    s = await advance(page, 'enter');
    expect(s.text).toContain('チャイム');
    expect(s.speaker).toBeNull();
    expect(s.effects).toEqual(['sakura']);

    s = await advance(page, 'click');
    expect(s.speaker).toBe('ren');
    expect(s.characters).toEqual([
      { id: 'hana', expression: 'smile', position: 'left' },
      { id: 'ren', expression: 'normal', position: 'right' },
    ]);
    const stats = await canvasStats(page);
    expect(stats.nonBlack).toBeGreaterThan(0.8);
  });

  it('rejects malformed input', async () => {
    expect(await send(page, { v: 1, type: 'pointer', kind: 'down', x: 2, y: 0.5 })).toBe(false);
    expect(await send(page, { v: 1, type: 'key', kind: 'down', key: 'F5' })).toBe(false);
    expect(await send(page, 'garbage')).toBe(false);
    expect(await send(page, { v: 1, type: 'quality', level: 'low' })).toBe(true);
    expect((await state(page)).quality).toBe('low');
  });

  it('opens the backlog with the wheel and the menu with Escape / right click', async () => {
    await send(page, { v: 1, type: 'wheel', dy: -120 });
    let s = await state(page);
    expect(s.overlay).toBe('backlog');
    await shoot(page, 'fixture-backlog');
    await key(page, 'Escape');
    expect((await state(page)).overlay).toBeNull();
    await click(page, 0.5, 0.5, 2);
    s = await state(page);
    expect(s.overlay).toBe('menu');
    await shoot(page, 'fixture-menu');
    await key(page, 'Escape');
    expect((await state(page)).overlay).toBeNull();
    // the quick menu in the text window (for touch players): 「メニュー」 at its right end
    await click(page, 1181 / 1280, 684 / 720);
    expect((await state(page)).overlay).toBe('menu');
    await click(page, 0.5, 0.5, 2);
    expect((await state(page)).overlay).toBeNull();
  });

  let savedState = '';

  it('shows choices as buttons, saves into a slot, and makes a choice', async () => {
    let s = await readUntilChoices(page);
    expect(s.choices.map((c) => c.text)).toEqual(['一緒に待つ', '今日は帰る']);
    expect(s.text).toContain('一緒に待って');

    // The player was told the choices (issue 13: the transcript panel's buttons).
    const offers = () =>
      page.evaluate(() =>
        (window as unknown as { __events: { name: string; payload: { text: string }[] }[] }).__events.filter((e) => e.name === 'choices').map((e) => e.payload.map((c) => c.text)),
      );
    await page.waitForFunction(() => (window as unknown as { __events: { name: string }[] }).__events.some((e) => e.name === 'choices'));
    expect((await offers()).at(-1)).toEqual(['一緒に待つ', '今日は帰る']);

    // save into slot 2 from the save screen (the 'Save' key, then digit 2)
    await key(page, 'Save');
    expect((await state(page)).overlay).toBe('save');
    // While the save screen is open its digit keys pick a slot: the offer is withdrawn.
    await page.waitForFunction(() => {
      const list = (window as unknown as { __events: { name: string; payload: unknown[] }[] }).__events.filter((e) => e.name === 'choices');
      return list.length > 0 && list[list.length - 1].payload.length === 0;
    });
    await shoot(page, 'fixture-save-empty');
    await key(page, '2');
    s = await state(page);
    expect(s.overlay).toBeNull();
    expect(s.saves.map((x) => x.slot)).toEqual([2]);
    // The screen closed: the choices are offered again.
    await page.waitForFunction(() => {
      const list = (window as unknown as { __events: { name: string; payload: unknown[] }[] }).__events.filter((e) => e.name === 'choices');
      return list[list.length - 1].payload.length === 2;
    });
    expect((await offers()).slice(-3)).toEqual([['一緒に待つ', '今日は帰る'], [], ['一緒に待つ', '今日は帰る']]);
    const saveEvents = await page.evaluate(() =>
      (window as unknown as { __events: { name: string; payload: { slot: number; stateJson: string } }[] }).__events.filter((e) => e.name === 'save'),
    );
    expect(saveEvents).toHaveLength(1);
    expect(saveEvents[0].payload.slot).toBe(2);
    savedState = saveEvents[0].payload.stateJson;
    expect(JSON.parse(savedState)).toMatchObject({ format: 'yumecast-vn-save', gameId: FIXTURE });

    await shoot(page, 'fixture-choices');
    // hover the second button with the pointer, then move with the keyboard
    const second = await page.evaluate(() => window.yumecast.getState().choices.length);
    expect(second).toBe(2);
    await send(page, { v: 1, type: 'pointer', kind: 'move', x: 0.5, y: 275 / 720 });
    expect((await state(page)).focusedChoice).toBe(1);
    await key(page, 'ArrowUp');
    expect((await state(page)).focusedChoice).toBe(0);
    // choose the first by clicking it (the buttons are 780 wide, centred; the first at y 164..226)
    await click(page, 0.5, 195 / 720);
    s = await state(page);
    expect(s.choices).toEqual([]);
    expect(s.text).toContain('ありがとう');
  });

  it('plays on to the night scene with its effects and music', async () => {
    let s = await advance(page);
    s = await waitFor(page, (x) => x.scene === 'night', 'the night scene');
    expect(s.effects).toEqual(['stars']);
    expect(s.bgm).toBe('night');
    await sleep(700);
    await shoot(page, 'fixture-night');
    s = await advance(page);
    expect(s.text).toContain('列車');
    s = await advance(page);
    expect(s.characters).toEqual([{ id: 'hana', expression: 'sad', position: 'center' }]);
    s = await advance(page);
    expect(s.effects.sort()).toEqual(['snow', 'stars']);
  });

  it('reaches the ending card and reports it', async () => {
    let s = await advance(page);
    expect(s.characters).toEqual([]);
    expect(s.bgm).toBeNull();
    s = await advance(page);
    expect(s.screen).toBe('ending');
    expect(s.ending).toBe('together');
    expect(s.endingTitle).toBe('ふたりの終着駅');
    expect(s.endingsReached).toEqual(['together']);
    const endings = await page.evaluate(() =>
      (window as unknown as { __events: { name: string; payload: unknown }[] }).__events.filter((e) => e.name === 'ending').map((e) => e.payload),
    );
    expect(endings).toEqual([{ gameId: FIXTURE, sessionId: 'test-session', endingId: 'together', title: 'ふたりの終着駅' }]);
    await sleep(1700);
    await shoot(page, 'fixture-ending');
    await click(page);
    s = await waitFor(page, (x) => x.screen === 'title', 'back to the title');
  });

  it('loads a save from 「つづきから」 and from loadState', async () => {
    // つづきから (enabled now that slot 2 is filled) opens the load screen
    await key(page, 'ArrowDown');
    await key(page, 'Enter');
    let s = await state(page);
    expect(s.overlay).toBe('load');
    await shoot(page, 'fixture-load');
    await key(page, '2');
    s = await waitFor(page, (x) => x.screen === 'story' && x.choices.length === 2, 'the saved choice');
    expect(s.text).toContain('一緒に待って');
    expect(s.characters.map((c) => c.id).sort()).toEqual(['hana', 'ren']);
    // take the other branch this time (keyboard: ArrowDown + Enter)
    await key(page, 'ArrowDown');
    await key(page, 'Enter');
    s = await state(page);
    expect(s.text).toContain('手を振った');
    s = await readUntilChoices(page);
    expect(s.screen).toBe('ending');
    expect(s.ending).toBe('alone');
    expect(s.endingsReached.sort()).toEqual(['alone', 'together']);
    // loadState(json) resumes directly
    expect(await page.evaluate((j) => window.yumecast.loadState(j), savedState)).toBe(true);
    s = await state(page);
    expect(s.screen).toBe('story');
    expect(s.choices).toHaveLength(2);
    expect(await page.evaluate(() => window.yumecast.loadState('{"nope":1}'))).toBe(false);
  });

  it('skips read text up to the ending, and auto mode advances by itself', async () => {
    // skip: every line of the first branch was read in this session, so skip runs to the ending
    expect(await page.evaluate((j) => window.yumecast.loadState(j), savedState)).toBe(true);
    await key(page, '1');
    let s = await state(page);
    expect(s.text).toContain('ありがとう');
    await key(page, 'Skip');
    expect((await state(page)).skip).toBe(true);
    s = await waitFor(page, (x) => x.screen === 'ending', 'skip to the ending', 8000);
    expect(s.ending).toBe('together');
    expect(s.skip).toBe(false);
    // auto
    expect(await page.evaluate((j) => window.yumecast.loadState(j), savedState)).toBe(true);
    await key(page, '2');
    s = await state(page);
    expect(s.text).toContain('手を振った');
    await key(page, 'Auto');
    s = await state(page);
    expect(s.auto).toBe(true);
    const n = s.lineCount;
    s = await waitFor(page, (x) => x.lineCount > n, 'auto mode to advance', 8000);
    expect(s.text).toContain('雨');
    await key(page, 'Auto');
    expect((await state(page)).auto).toBe(false);
  });

  it('publishes a MediaStream with a detail-hinted video track and an audio track', async () => {
    const info = await page.evaluate(async () => {
      const s = window.yumecast.captureStream(30);
      const v = s.getVideoTracks();
      const a = s.getAudioTracks();
      const before = window.yumecast.getState().frame;
      await new Promise((r) => setTimeout(r, 600));
      const after = window.yumecast.getState().frame;
      const settings = v[0]?.getSettings();
      // the published audio really carries the music (the fixture's theme is playing)
      const ac = new AudioContext();
      const an = ac.createAnalyser();
      ac.createMediaStreamSource(s).connect(an);
      const buf = new Float32Array(an.fftSize);
      let peak = 0;
      for (let i = 0; i < 10; i++) {
        await new Promise((r) => setTimeout(r, 100));
        an.getFloatTimeDomainData(buf);
        for (const x of buf) peak = Math.max(peak, Math.abs(x));
      }
      await ac.close();
      return {
        video: v.map((t) => ({ hint: t.contentHint, state: t.readyState, kind: t.kind })),
        audio: a.map((t) => ({ state: t.readyState, kind: t.kind })),
        frames: after - before,
        width: settings?.width,
        height: settings?.height,
        audioState: window.yumecast.getState().audio,
        bgm: window.yumecast.getState().bgm,
        peak,
      };
    });
    expect(info.video).toEqual([{ hint: 'detail', state: 'live', kind: 'video' }]);
    expect(info.audio).toEqual([{ state: 'live', kind: 'audio' }]);
    expect(info.frames).toBeGreaterThanOrEqual(3); // the canvas keeps producing frames
    expect(info.audioState.state).toBe('running');
    expect(info.audioState.currentTime).toBeGreaterThan(0);
    expect(info.bgm).toBe('theme');
    // from the build's rendered loop (runtime/build-loops.ts), not synthesised live
    expect(info.audioState.music).toBe('loop');
    expect(info.peak).toBeGreaterThan(0.005);
    expect(info.peak).toBeLessThan(1);
  });

  it('takes a full-resolution PNG screenshot', async () => {
    const url = await page.evaluate(() => window.yumecast.screenshot());
    const { width, height } = pngSize(url);
    expect([width, height]).toEqual([1280, 720]);
  });

  it('logged no errors', () => {
    expect(errors).toEqual([]);
  });
});

describe('runtime: compiling story.ink in the page when it was not precompiled', () => {
  it('starts the fixture from story.ink with inkjs compiler', async () => {
    const { page, errors } = await open(FIXTURE, { storyUrl: '', skipTitle: true });
    try {
      const s = await waitFor(page, (x) => x.screen === 'story' && x.text !== '', 'the first line');
      expect(s.text).toContain('夏の終わり');
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('shows an error screen for a game that does not exist', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    try {
      await page.goto(`${base}/runtime/index.html`);
      await page.waitForFunction(() => !!window.yumecast);
      const err = await page.evaluate(() => window.yumecast.start({ gameId: 'no-such-game' }).then(() => null, (e: Error) => e.message));
      expect(err).toBeTruthy();
      const s = await state(page);
      expect(s.screen).toBe('error');
    } finally {
      await page.close();
    }
  });
});

// The real titles the web engine plays, once their story.ink exists (the content is written
// alongside the engine). A title of another runtime (Ren'Py's "The Question", meta.json "runtime")
// is left out explicitly: the native runtime has its own tests (server/host/native/).
const realGames = fs.existsSync(GAMES_DIR)
  ? fs.readdirSync(GAMES_DIR).filter((id) => isWebEngineGameDir(path.join(GAMES_DIR, id)) && fs.existsSync(path.join(GAMES_DIR, id, 'story.ink')))
  : [];
const describeGames = realGames.length ? describe.each(realGames) : describe.skip.each(['hajimari-no-eki']);

describeGames('runtime: games/%s', (gameId) => {
  it('compiles, shows its title, plays lines and a choice', async () => {
    const compiled = build.games.find((g) => g.id === gameId);
    expect(compiled?.errors ?? []).toEqual([]);
    const { page, errors } = await open(gameId);
    try {
      let s = await waitFor(page, (x) => x.ready && x.screen === 'title', 'the title screen');
      await sleep(1000);
      expect((await canvasStats(page)).nonBlack).toBeGreaterThan(0.3);
      await shoot(page, `${gameId}-title`);
      await key(page, 'Enter');
      s = await waitFor(page, (x) => x.screen === 'story' && (x.text !== '' || x.choices.length > 0), 'the first line');
      await sleep(1200);
      await shoot(page, `${gameId}-first-line`);
      const first = s.text;
      for (let i = 0; i < 3 && !s.choices.length && s.screen === 'story'; i++) s = await advance(page, i % 2 ? 'click' : 'enter');
      expect(s.lineCount).toBeGreaterThanOrEqual(2);
      expect(s.text).not.toBe(first);
      s = await readUntilChoices(page);
      if (s.choices.length) {
        await shoot(page, `${gameId}-choices`);
        const lines = s.lineCount;
        await key(page, 'Enter');
        s = await state(page);
        expect(s.choices.length === 0 || s.lineCount > lines).toBe(true);
        expect(s.lineCount).toBeGreaterThan(lines);
      }
      expect((await canvasStats(page)).nonBlack).toBeGreaterThan(0.3);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
