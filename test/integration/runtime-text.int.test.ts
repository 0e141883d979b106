/**
 * The game's text from the real VN runtime to the player's caption (issue 13, docs/play-text.md):
 * the fixture plays in Debian Chromium, its engine's text events (`line`, `choices`, `chosen`,
 * `cleared`) go through the host's own TextRelay and the player's parser into the transcript
 * reducer, as on the play page minus the network. Checks that the caption shows nothing once
 * the game is back on its title, on its ending card, or a loaded save starts a new play — the
 * defect this guards against: the last line stayed on the caption after the title came back —
 * while the transcript keeps every line read.
 */
import type { Page } from 'playwright-core';
import { parseHostMessage, serializeMessage, type HostMessage, type TextMessage } from '../../lib/streaming/messages';
import { TextRelay } from '../../server/host/page/textRelay';
import { EMPTY_TRANSCRIPT, currentLine, transcriptReducer, type TranscriptState } from '../../components/play/transcript/transcriptState';
import { FIXTURE, key, openRuntimePage, runtimePagesForSuite, sleep, state, waitFor } from './runtime-page';

jest.setTimeout(120_000);

const pages = runtimePagesForSuite();

interface Played {
  page: Page;
  errors: string[];
  /** The engine's text events, by name, in order. */
  events: string[];
  /** The player's transcript, from what the relay sent. */
  transcript(): TranscriptState;
}

/** The fixture on its title, its text events relayed to a transcript. */
async function play(): Promise<Played> {
  const { page, errors } = await openRuntimePage(pages);
  const events: string[] = [];
  const wire: HostMessage[] = [];
  const relay = new TextRelay((m) => {
    const parsed = parseHostMessage(serializeMessage(m));
    if (!parsed) throw new Error(`the player would drop ${serializeMessage(m)}`);
    wire.push(parsed);
    return true;
  });
  const listeners = new Map<string, (payload: unknown) => void>();
  relay.attach({
    on: (name, fn) => {
      listeners.set(name, fn);
      return () => listeners.delete(name);
    },
  });
  await page.exposeFunction('__text', (name: string, payload: unknown) => {
    events.push(name);
    listeners.get(name)?.(payload);
  });
  await page.evaluate(() => {
    for (const name of ['line', 'choices', 'chosen', 'cleared'] as const) {
      window.yumecast.on(name, (payload) => void (window as unknown as { __text(n: string, p: unknown): void }).__text(name, payload));
    }
  });
  await page.evaluate((id) => window.yumecast.start({ gameId: id, assetBase: `/games/${id}/`, storyUrl: `/runtime/games/${id}.json` }), FIXTURE);
  const transcript = () => wire.filter((m): m is TextMessage => m.type === 'line' || m.type === 'choices' || m.type === 'clear').reduce((s, msg) => transcriptReducer(s, { type: 'message', msg }), EMPTY_TRANSCRIPT);
  return { page, errors, events, transcript };
}

/** A click at a point of the 1280×720 picture, through the engine's input. */
async function clickAt(page: Page, x: number, y: number): Promise<void> {
  await page.evaluate(
    ({ x, y }) => {
      window.yumecast.applyInput({ v: 1, type: 'pointer', kind: 'down', x, y, button: 0 });
      window.yumecast.applyInput({ v: 1, type: 'pointer', kind: 'up', x, y, button: 0 });
    },
    { x: x / 1280, y: y / 720 },
  );
}

/** Until the relayed events satisfy `pred` (they cross from the page asynchronously). */
async function eventsUntil(p: Played, pred: (events: string[]) => boolean, what: string): Promise<void> {
  const end = Date.now() + 10_000;
  while (!pred(p.events)) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}: ${p.events.join(', ')}`);
    await sleep(40);
  }
}

/** Reads on (Enter; the first choice when offered) until the ending card. */
async function readToTheEnd(page: Page): Promise<void> {
  for (let i = 0; i < 400; i++) {
    const s = await state(page);
    if (s.screen === 'ending') return;
    await key(page, s.choices.length ? '1' : 'Enter');
    await sleep(30);
  }
  throw new Error('the story did not reach its ending');
}

describe('the game’s text from the runtime to the caption', () => {
  it('clears the caption when the play goes back to the title, keeping the lines read', async () => {
    const p = await play();
    try {
      await waitFor(p.page, (s) => s.screen === 'title', 'the title');
      await key(p.page, 'Enter');
      await waitFor(p.page, (s) => s.screen === 'story' && s.lineCount >= 1, 'the first line');
      await eventsUntil(p, (e) => e.includes('line'), 'the first line relayed');
      // nothing was on screen before the first line: no clear at the start
      expect(p.events).not.toContain('cleared');
      const first = currentLine(p.transcript());
      expect(first?.text).toBeTruthy();

      // the menu's 「タイトルに戻る」, then 「はい」
      await key(p.page, 'Menu');
      await waitFor(p.page, (s) => s.overlay === 'menu', 'the menu');
      await clickAt(p.page, 640, 150 + 5 * 66 + 27);
      await waitFor(p.page, (s) => s.overlay === 'confirm', 'the confirmation');
      await clickAt(p.page, 640 - 190 + 85, 390 + 27);
      await waitFor(p.page, (s) => s.screen === 'title', 'back to the title');
      await eventsUntil(p, (e) => e.at(-1) === 'cleared', 'the clear');
      let t = p.transcript();
      expect(currentLine(t)).toBeNull();
      expect(t.lines.map((l) => l.text)).toContain(first!.text);

      // a new play from the title: its first line is the caption (no second clear before it)
      const before = p.events.length;
      await key(p.page, 'Enter');
      await eventsUntil(p, (e) => e.length > before && e.includes('line', before), 'the new play’s first line');
      expect(p.events.slice(before)).not.toContain('cleared');
      t = p.transcript();
      expect(currentLine(t)?.text).toBe(first!.text);
      expect(t.lines.filter((l) => l.text === first!.text)).toHaveLength(2);

      // a loaded save mid-play: the screen clears, then shows the save's line
      await key(p.page, 'Enter');
      await key(p.page, 'Enter');
      await sleep(300);
      const json = await p.page.evaluate(() => window.yumecast.snapshot());
      expect(json).toBeTruthy();
      const mark = p.events.length;
      expect(await p.page.evaluate((j) => window.yumecast.loadState(j!), json)).toBe(true);
      await eventsUntil(p, (e) => e.slice(mark).includes('line'), 'the save’s line');
      expect(p.events.slice(mark)).toEqual(['cleared', 'line']);
      expect(currentLine(p.transcript())?.text).toBe((await state(p.page)).text);

      // the ending card: no line on screen
      await readToTheEnd(p.page);
      await eventsUntil(p, (e) => e.at(-1) === 'cleared', 'the clear at the ending');
      t = p.transcript();
      expect(currentLine(t)).toBeNull();
      expect(t.choices).toBeNull();
      expect(t.lines.some((l) => l.choice)).toBe(true);
      expect(p.errors).toEqual([]);
    } finally {
      await p.page.close();
    }
  });
});
