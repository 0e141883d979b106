/**
 * The host's text relay (issue 13): the engine's line / choices / chosen / cleared events become
 * the protocol's messages in order, numbered once; what could not leave waits and goes in order; a
 * (re)joining player gets the current line and choices again — or the clear, never a line the
 * screen no longer shows; and every message parses on the player's side. Pure (no browser): the integration project only because server/ tests live there.
 */
import { parseHostMessage, serializeMessage, type HostMessage } from '../../../lib/streaming/messages';
import { TEXT_OUTBOX_MAX, TEXT_RETRY_MS, TextRelay } from './textRelay';

type Fn = (payload: unknown) => void;

function engine() {
  const fns = new Map<string, Fn>();
  return {
    on: (name: string, fn: Fn) => {
      fns.set(name, fn);
      return () => fns.delete(name);
    },
    emit: (name: string, payload: unknown) => fns.get(name)?.(payload),
    fns,
  };
}

/** Every relay a test made, detached after it (a relay with waiting messages keeps a retry timer). */
const detachAll: (() => void)[] = [];
afterEach(() => detachAll.splice(0).forEach((off) => off()));

function setup(open = true) {
  const wire: HostMessage[] = [];
  const link = { open };
  const relay = new TextRelay((m) => {
    if (!link.open) return false;
    // what the player receives: the JSON text, through the player's parser
    const parsed = parseHostMessage(serializeMessage(m));
    if (!parsed) throw new Error(`the player would drop ${serializeMessage(m)}`);
    wire.push(parsed);
    return true;
  });
  const y = engine();
  const off = relay.attach(y as never);
  detachAll.push(off);
  return { relay, y, wire, link, off };
}

describe('TextRelay', () => {
  it('turns lines, choices and the choice taken into line / choices messages, numbered in order', () => {
    const { y, wire } = setup();
    y.emit('line', { speaker: 'akari', name: '灯', text: 'どうする？', lineCount: 1 });
    y.emit('choices', [
      { index: 0, text: '駅へ行く' },
      { index: 1, text: '家に帰る' },
    ]);
    y.emit('chosen', { index: 1, text: '家に帰る' });
    y.emit('line', { speaker: null, name: null, text: '家に着いた。', lineCount: 2 });
    y.emit('choices', []);
    expect(wire).toEqual([
      { v: 1, type: 'line', seq: 1, speaker: '灯', text: 'どうする？', part: 0, parts: 1 },
      { v: 1, type: 'choices', seq: 2, choices: ['駅へ行く', '家に帰る'] },
      { v: 1, type: 'line', seq: 3, speaker: null, text: '家に帰る', part: 0, parts: 1, choice: true },
      { v: 1, type: 'line', seq: 4, speaker: null, text: '家に着いた。', part: 0, parts: 1 },
      { v: 1, type: 'choices', seq: 5, choices: [] },
    ]);
  });

  it('splits a long line into parts with one seq', () => {
    const { y, wire } = setup();
    y.emit('line', { name: '灯', text: '星'.repeat(900) });
    expect(wire.length).toBeGreaterThan(2);
    expect(new Set(wire.map((m) => (m.type === 'line' ? m.seq : 0)))).toEqual(new Set([1]));
    expect(wire.map((m) => (m.type === 'line' ? m.text : '')).join('')).toBe('星'.repeat(900));
  });

  it('keeps what could not leave, in order, and sends it with the current screen again on flush', () => {
    const { relay, y, wire, link } = setup(false);
    y.emit('line', { name: null, text: '一行目' });
    y.emit('line', { name: null, text: '二行目' });
    y.emit('choices', [{ index: 0, text: 'はい' }]);
    expect(wire).toEqual([]);
    link.open = true;
    relay.flush();
    expect(wire.map((m) => m.type === 'line' ? m.text : m.type === 'choices' ? m.choices.join() : m.type)).toEqual(['一行目', '二行目', 'はい']);
    // a reconnect: the current line and choices again, with their own seq
    wire.length = 0;
    relay.flush();
    expect(wire).toEqual([
      { v: 1, type: 'line', seq: 2, speaker: null, text: '二行目', part: 0, parts: 1 },
      { v: 1, type: 'choices', seq: 3, choices: ['はい'] },
    ]);
    expect(relay.sent).toBe(5);
  });

  it('turns `cleared` into a clear numbered with the lines, which ends the line and the choices on the screen', () => {
    const { y, wire } = setup();
    y.emit('line', { name: null, text: 'どうする？' });
    y.emit('choices', [{ index: 0, text: 'はい' }]);
    y.emit('choices', []);
    y.emit('cleared', null);
    y.emit('line', { name: '灯', text: 'はじめから。' });
    expect(wire.map((m) => [m.type, 'seq' in m ? m.seq : 0])).toEqual([
      ['line', 1],
      ['choices', 2],
      ['choices', 3],
      ['clear', 4],
      ['line', 5],
    ]);
    expect(wire[3]).toEqual({ v: 1, type: 'clear', seq: 4 });
  });

  it('after a clear, a (re)joining player gets the clear again, not the line it cleared', () => {
    const { relay, y, wire, link } = setup();
    y.emit('line', { name: '灯', text: 'また明日。' });
    y.emit('choices', [{ index: 0, text: 'はい' }]);
    y.emit('cleared', null);
    // a reconnect: the screen shows the title, so the caption must stay empty
    wire.length = 0;
    relay.flush();
    expect(wire).toEqual([{ v: 1, type: 'clear', seq: 3 }]);
    // a clear that could not leave waits in order behind the line, and goes once
    link.open = false;
    y.emit('line', { name: null, text: '新しい行' });
    y.emit('cleared', null);
    wire.length = 0;
    link.open = true;
    relay.flush();
    expect(wire.map((m) => [m.type, 'seq' in m ? m.seq : 0])).toEqual([
      ['line', 4],
      ['clear', 5],
    ]);
    // the next line is what the screen shows again
    y.emit('line', { name: null, text: '続きから' });
    wire.length = 0;
    relay.flush();
    expect(wire).toEqual([{ v: 1, type: 'line', seq: 6, speaker: null, text: '続きから', part: 0, parts: 1 }]);
  });

  it('sends what waits on its own once the link takes it again (a full SEI queue frees up, no further line comes)', () => {
    jest.useFakeTimers();
    try {
      const { y, wire, link, off } = setup(false);
      y.emit('line', { name: '灯', text: '最後の行。' });
      expect(wire).toEqual([]);
      jest.advanceTimersByTime(TEXT_RETRY_MS * 3);
      expect(wire).toEqual([]);
      link.open = true;
      jest.advanceTimersByTime(TEXT_RETRY_MS);
      expect(wire.map((m) => (m as { text?: string }).text)).toEqual(['最後の行。']);
      // nothing waits: no timer left; detached: none started again
      expect(jest.getTimerCount()).toBe(0);
      link.open = false;
      y.emit('line', { name: null, text: '次' });
      expect(jest.getTimerCount()).toBe(1);
      off();
      expect(jest.getTimerCount()).toBe(0);
    } finally {
      jest.useRealTimers();
    }
  });

  it('bounds the outbox, dropping the oldest', () => {
    const { relay, y, wire, link } = setup(false);
    for (let i = 1; i <= TEXT_OUTBOX_MAX + 10; i++) y.emit('line', { name: null, text: `行${i}` });
    expect(relay.dropped).toBe(10);
    link.open = true;
    relay.flush();
    expect(wire).toHaveLength(TEXT_OUTBOX_MAX);
    expect(wire[0]).toMatchObject({ seq: 11, text: '行11' });
  });

  it('ignores payloads that carry no text, and stops listening when detached', () => {
    const { y, wire, off } = setup();
    y.emit('line', { name: '灯' });
    y.emit('line', null);
    y.emit('chosen', { index: 0, text: '   ' });
    expect(wire).toEqual([]);
    off();
    expect(y.fns.size).toBe(0);
  });
});
