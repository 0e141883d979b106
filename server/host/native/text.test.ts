/**
 * The native game's text records (text.ts): the overlay's three shapes become the VN engine's
 * events, within bounds; anything else from the game's file is dropped; TextTail reads only
 * complete lines and what was appended since, as soon as they are written where its folder can be
 * watched (long before the safety poll), and by a short poll where it cannot.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FALLBACK_POLL_MS, SAFETY_POLL_MS, TextTail, parseTextRecord, type NativeTextEvent } from './text';

/** Waits (real time) until `ok()`, at most `ms`; answers whether it came. */
async function within(ms: number, ok: () => boolean): Promise<boolean> {
  const t0 = Date.now();
  while (!ok() && Date.now() - t0 < ms) await new Promise((r) => setTimeout(r, 20));
  return ok();
}

describe('native text records', () => {
  it('turns the overlay\'s lines, menus and choices taken into engine events', () => {
    expect(parseTextRecord('{"t":"line","name":"シルビー","text":"こんにちは"}')).toEqual({ event: 'line', payload: { name: 'シルビー', text: 'こんにちは' } });
    expect(parseTextRecord('{"t":"line","name":null,"text":"独白"}')).toEqual({ event: 'line', payload: { name: null, text: '独白' } });
    expect(parseTextRecord('{"t":"choices","choices":["今すぐ","あとで"]}')).toEqual({ event: 'choices', payload: [{ index: 0, text: '今すぐ' }, { index: 1, text: 'あとで' }] });
    expect(parseTextRecord('{"t":"choices","choices":[]}')).toEqual({ event: 'choices', payload: [] });
    expect(parseTextRecord('{"t":"chosen","text":"今すぐ"}')).toEqual({ event: 'chosen', payload: { text: '今すぐ' } });
    expect(parseTextRecord('{"t":"clear"}')).toEqual({ event: 'cleared', payload: null });
  });

  it('drops what is not one of them, and bounds what is', () => {
    for (const bad of ['', 'not json', '[]', 'null', '{"t":"line"}', '{"t":"line","text":""}', '{"t":"line","text":5}', '{"t":"eval","text":"x"}', '{"t":"choices","choices":"x"}']) {
      expect(parseTextRecord(bad)).toBeNull();
    }
    const long = parseTextRecord(JSON.stringify({ t: 'line', name: 'n'.repeat(999), text: 'x'.repeat(99_999) }));
    expect(long?.event === 'line' && long.payload.text.length).toBe(4000);
    expect(long?.event === 'line' && long.payload.name?.length).toBe(200);
    const many = parseTextRecord(JSON.stringify({ t: 'choices', choices: Array.from({ length: 50 }, (_, i) => `c${i}`) }));
    expect(many?.event === 'choices' && many.payload.length).toBe(20);
  });

  it('follows the file: complete lines only, each once', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'yumecast-text-'));
    const file = path.join(dir, 'text.jsonl');
    const got: NativeTextEvent[] = [];
    const tail = new TextTail(file, (e) => got.push(e));
    tail.read(); // no file yet
    fs.writeFileSync(file, '{"t":"line","name":null,"text":"一"}\n{"t":"line","na');
    tail.read();
    expect(got).toHaveLength(1);
    fs.appendFileSync(file, 'me":null,"text":"二"}\ngarbage\n');
    tail.read();
    tail.read();
    expect(got.map((e) => (e.event === 'line' ? e.payload.text : ''))).toEqual(['一', '二']);
    expect(tail.dropped).toBe(1);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('reads a line as the folder\'s watch sees it, long before the safety poll', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'yumecast-text-'));
    const got: NativeTextEvent[] = [];
    const tail = new TextTail(path.join(dir, 'text.jsonl'), (e) => got.push(e));
    try {
      tail.start();
      fs.writeFileSync(path.join(dir, 'text.jsonl'), '{"t":"line","name":null,"text":"一"}\n');
      expect(await within(SAFETY_POLL_MS / 2, () => got.length === 1)).toBe(true);
      fs.appendFileSync(path.join(dir, 'text.jsonl'), '{"t":"chosen","text":"今すぐ"}\n');
      expect(await within(SAFETY_POLL_MS / 2, () => got.length === 2)).toBe(true);
    } finally {
      tail.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('polls every FALLBACK_POLL_MS where the folder cannot be watched', async () => {
    const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'yumecast-text-'));
    const dir = path.join(parent, 'later');
    const got: NativeTextEvent[] = [];
    // the folder does not exist yet: fs.watch throws
    const tail = new TextTail(path.join(dir, 'text.jsonl'), (e) => got.push(e));
    try {
      tail.start();
      fs.mkdirSync(dir);
      fs.writeFileSync(path.join(dir, 'text.jsonl'), '{"t":"line","name":null,"text":"一"}\n');
      expect(await within(FALLBACK_POLL_MS * 4, () => got.length === 1)).toBe(true);
    } finally {
      tail.stop();
      fs.rmSync(parent, { recursive: true, force: true });
    }
  });
});
