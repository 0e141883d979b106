/**
 * @jest-environment node
 */
import { SEI_MAX_BYTES, SeiSender } from './trtc/sei';
import {
  MAX_CHOICE_CHARS,
  MAX_CHOICES,
  MAX_LINE_PARTS,
  MAX_LINE_PART_CHARS,
  MAX_MESSAGE_CHARS,
  MAX_SPEAKER_CHARS,
  MAX_TEXT_MESSAGE_BYTES,
  NAMED_KEYS,
  hostMessage,
  isInputMessage,
  parseHostMessage,
  parsePlayerMessage,
  playerMessage,
  serializeMessage,
  type PlayerMessage,
} from './messages';
import { choicesMessage, clearMessage, lineMessages } from './textMessages';
import { RateLimiter } from './rateLimiter';

describe('parsePlayerMessage', () => {
  const valid: PlayerMessage[] = [
    { v: 1, type: 'pointer', kind: 'down', x: 0.5, y: 0.25, button: 0 },
    { v: 1, type: 'pointer', kind: 'move', x: 0, y: 1 },
    { v: 1, type: 'pointer', kind: 'up', x: 1, y: 0, button: 2 },
    { v: 1, type: 'key', kind: 'down', key: 'Enter' },
    { v: 1, type: 'key', kind: 'up', key: 'z' },
    { v: 1, type: 'key', kind: 'down', key: '7' },
    { v: 1, type: 'key', kind: 'down', key: 'Backlog' },
    { v: 1, type: 'wheel', dy: -120 },
    { v: 1, type: 'quality', level: 'low' },
    { v: 1, type: 'screenshot', requestId: 'req-1_a.b' },
    { v: 1, type: 'ping', t: 123456.5 },
  ];

  it.each(valid.map((m) => [m.type, m] as const))('accepts a valid %s message', (_t, msg) => {
    expect(parsePlayerMessage(msg)).toEqual(msg);
    // the JSON text form parses to the same message
    expect(parsePlayerMessage(serializeMessage(msg))).toEqual(msg);
  });

  it('accepts every named key', () => {
    for (const key of NAMED_KEYS) {
      expect(parsePlayerMessage({ v: 1, type: 'key', kind: 'down', key })).not.toBeNull();
    }
    expect(NAMED_KEYS).toContain('a');
    expect(NAMED_KEYS).toContain('0');
    expect(NAMED_KEYS).toContain('Menu');
  });

  it('accepts UTF-8 bytes', () => {
    const bytes = new TextEncoder().encode('{"v":1,"type":"wheel","dy":3}');
    expect(parsePlayerMessage(bytes)).toEqual({ v: 1, type: 'wheel', dy: 3 });
  });

  it('returns a fresh object (not the input)', () => {
    const input = { v: 1, type: 'ping', t: 1 };
    const out = parsePlayerMessage(input);
    expect(out).not.toBe(input);
  });

  const invalid: [string, unknown][] = [
    ['null', null],
    ['a number', 42],
    ['an array', [1, 2]],
    ['broken JSON', '{"v":1,'],
    ['JSON null', 'null'],
    ['no version', { type: 'ping', t: 1 }],
    ['another version', { v: 2, type: 'ping', t: 1 }],
    ['version as string', { v: '1', type: 'ping', t: 1 }],
    ['an unknown type', { v: 1, type: 'eval', code: 'x' }],
    ['a host message type', { v: 1, type: 'ready' }],
    ['pointer x > 1', { v: 1, type: 'pointer', kind: 'down', x: 1.01, y: 0.5 }],
    ['pointer y < 0', { v: 1, type: 'pointer', kind: 'down', x: 0.5, y: -0.001 }],
    ['pointer NaN', { v: 1, type: 'pointer', kind: 'down', x: NaN, y: 0.5 }],
    ['pointer Infinity', { v: 1, type: 'pointer', kind: 'down', x: 0.5, y: Infinity }],
    ['pointer x as string', { v: 1, type: 'pointer', kind: 'down', x: '0.5', y: 0.5 }],
    ['pointer without y', { v: 1, type: 'pointer', kind: 'down', x: 0.5 }],
    ['pointer unknown kind', { v: 1, type: 'pointer', kind: 'drag', x: 0.5, y: 0.5 }],
    ['pointer button 3', { v: 1, type: 'pointer', kind: 'down', x: 0.5, y: 0.5, button: 3 }],
    ['pointer button "0"', { v: 1, type: 'pointer', kind: 'down', x: 0.5, y: 0.5, button: '0' }],
    ['pointer extra field', { v: 1, type: 'pointer', kind: 'down', x: 0.5, y: 0.5, js: 'x' }],
    ['key unknown', { v: 1, type: 'key', kind: 'down', key: 'F12' }],
    ['key upper-case letter', { v: 1, type: 'key', kind: 'down', key: 'A' }],
    ['key Meta', { v: 1, type: 'key', kind: 'down', key: 'Meta' }],
    ['key too long', { v: 1, type: 'key', kind: 'down', key: 'Enter'.repeat(100) }],
    ['key kind press', { v: 1, type: 'key', kind: 'press', key: 'Enter' }],
    ['key as number', { v: 1, type: 'key', kind: 'down', key: 1 }],
    ['wheel NaN', { v: 1, type: 'wheel', dy: NaN }],
    ['wheel huge', { v: 1, type: 'wheel', dy: 1e9 }],
    ['wheel string', { v: 1, type: 'wheel', dy: '10' }],
    ['quality ultra', { v: 1, type: 'quality', level: 'ultra' }],
    ['screenshot without id', { v: 1, type: 'screenshot' }],
    ['screenshot empty id', { v: 1, type: 'screenshot', requestId: '' }],
    ['screenshot id too long', { v: 1, type: 'screenshot', requestId: 'a'.repeat(65) }],
    ['screenshot id with spaces', { v: 1, type: 'screenshot', requestId: 'a b' }],
    ['ping without t', { v: 1, type: 'ping' }],
    ['ping t string', { v: 1, type: 'ping', t: 'now' }],
    ['oversize JSON text', JSON.stringify({ v: 1, type: 'ping', t: 1, pad: 'x'.repeat(MAX_MESSAGE_CHARS) })],
    ['a class instance', Object.assign(new (class X {})(), { v: 1, type: 'ping', t: 1 })],
  ];

  it.each(invalid)('rejects %s', (_name, raw) => {
    expect(parsePlayerMessage(raw)).toBeNull();
  });

  it('rejects a prototype-pollution attempt', () => {
    const raw = '{"v":1,"type":"ping","t":1,"__proto__":{"polluted":true}}';
    expect(parsePlayerMessage(raw)).toBeNull();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('tells input messages apart', () => {
    expect(isInputMessage(playerMessage({ type: 'wheel', dy: 1 }))).toBe(true);
    expect(isInputMessage(playerMessage({ type: 'ping', t: 1 }))).toBe(false);
  });
});

describe('parseHostMessage', () => {
  it('round-trips every host message', () => {
    const msgs = [
      hostMessage({ type: 'ready' }),
      hostMessage({ type: 'pong', t: 5 }),
      hostMessage({ type: 'screenshot-saved', requestId: 'r1', screenshotId: 'shot_9' }),
      hostMessage({ type: 'idle-warning', secondsLeft: 30 }),
      hostMessage({ type: 'bye', reason: 'idle_timeout' }),
      hostMessage({ type: 'error', code: 'rate_limited' }),
      hostMessage({ type: 'error', code: 'screenshot_failed', requestId: 'r2' }),
    ];
    for (const m of msgs) {
      expect(m.v).toBe(1);
      expect(parseHostMessage(serializeMessage(m))).toEqual(m);
    }
  });

  it.each([
    { v: 1, type: 'bye', reason: 'because' },
    { v: 1, type: 'error', code: 'whatever' },
    { v: 1, type: 'idle-warning', secondsLeft: -1 },
    { v: 1, type: 'ready', extra: 1 },
    { v: 1, type: 'ping', t: 1 },
  ])('rejects %p', (raw) => {
    expect(parseHostMessage(raw)).toBeNull();
  });
});

describe('the game’s text: line, choices and clear (issue 13)', () => {
  const bytes = (m: unknown) => new TextEncoder().encode(serializeMessage(m as never)).byteLength;

  it.each([
    ['a line', { v: 1, type: 'line', seq: 1, speaker: '灯', text: 'こんばんは。', part: 0, parts: 1 }],
    ['narration', { v: 1, type: 'line', seq: 7, speaker: null, text: '雨が降っていた。', part: 0, parts: 1 }],
    ['a second part', { v: 1, type: 'line', seq: 8, speaker: null, text: '続き', part: 1, parts: 2 }],
    ['the choice taken', { v: 1, type: 'line', seq: 9, speaker: null, text: '駅へ行く', part: 0, parts: 1, choice: true }],
    ['choices', { v: 1, type: 'choices', seq: 10, choices: ['駅へ行く', '家に帰る'] }],
    ['no choices any more', { v: 1, type: 'choices', seq: 11, choices: [] }],
    ['no line on screen (clear)', { v: 1, type: 'clear', seq: 12 }],
  ])('accepts %s', (_name, msg) => {
    expect(parseHostMessage(msg)).toEqual(msg);
    expect(parseHostMessage(serializeMessage(msg as never))).toEqual(msg);
    expect(parseHostMessage(new TextEncoder().encode(JSON.stringify(msg)))).toEqual(msg);
  });

  const line = { v: 1, type: 'line', seq: 1, speaker: '灯', text: 'こんばんは。', part: 0, parts: 1 };
  it.each([
    ['seq 0', { ...line, seq: 0 }],
    ['seq fractional', { ...line, seq: 1.5 }],
    ['seq as string', { ...line, seq: '1' }],
    ['no seq', { v: 1, type: 'line', speaker: null, text: 'x', part: 0, parts: 1 }],
    ['empty text', { ...line, text: '' }],
    ['text as number', { ...line, text: 3 }],
    ['text too long', { ...line, text: 'あ'.repeat(MAX_LINE_PART_CHARS + 1) }],
    ['a control character', { ...line, text: 'a\u0007b' }],
    ['a line break', { ...line, text: 'a\nb' }],
    ['speaker empty', { ...line, speaker: '' }],
    ['speaker missing', { v: 1, type: 'line', seq: 1, text: 'x', part: 0, parts: 1 }],
    ['speaker too long', { ...line, speaker: 'あ'.repeat(MAX_SPEAKER_CHARS + 1) }],
    ['speaker as object', { ...line, speaker: { name: 'x' } }],
    ['part past parts', { ...line, part: 1, parts: 1 }],
    ['part negative', { ...line, part: -1 }],
    ['parts 0', { ...line, parts: 0 }],
    ['too many parts', { ...line, parts: MAX_LINE_PARTS + 1 }],
    ['choice false', { ...line, choice: false }],
    ['an extra field', { ...line, html: '<b>x</b>' }],
    ['choices not an array', { v: 1, type: 'choices', seq: 2, choices: 'a' }],
    ['too many choices', { v: 1, type: 'choices', seq: 2, choices: Array.from({ length: MAX_CHOICES + 1 }, (_, i) => `c${i}`) }],
    ['an empty choice', { v: 1, type: 'choices', seq: 2, choices: ['a', ''] }],
    ['a choice too long', { v: 1, type: 'choices', seq: 2, choices: ['あ'.repeat(MAX_CHOICE_CHARS + 1)] }],
    ['a choice not a string', { v: 1, type: 'choices', seq: 2, choices: [{ index: 0, text: 'a' }] }],
    ['choices with an extra field', { v: 1, type: 'choices', seq: 2, choices: ['a'], index: 0 }],
    ['clear with seq 0', { v: 1, type: 'clear', seq: 0 }],
    ['clear with a fractional seq', { v: 1, type: 'clear', seq: 2.5 }],
    ['clear with seq as string', { v: 1, type: 'clear', seq: '2' }],
    ['clear without seq', { v: 1, type: 'clear' }],
    ['clear with an extra field', { v: 1, type: 'clear', seq: 2, text: 'x' }],
    ['clear of another version', { v: 2, type: 'clear', seq: 2 }],
    ['a line from a player’s side (parsePlayerMessage shape)', { v: 1, type: 'key', kind: 'down', key: 'Enter' }],
  ])('rejects %s', (_name, raw) => {
    expect(parseHostMessage(raw)).toBeNull();
  });

  it('builds one message for a short line, parsed back unchanged', () => {
    const msgs = lineMessages(3, '灯', '  こんばんは。\n今夜は星が見えるね。 ');
    expect(msgs).toEqual([{ v: 1, type: 'line', seq: 3, speaker: '灯', text: 'こんばんは。 今夜は星が見えるね。', part: 0, parts: 1 }]);
    expect(parseHostMessage(serializeMessage(msgs[0]))).toEqual(msgs[0]);
    expect(lineMessages(4, null, '   ')).toEqual([]);
    expect(lineMessages(5, null, '駅へ行く', true)[0].choice).toBe(true);
  });

  it('splits a long line into parts that each fit TRTC SEI and the parse bound, and join back to the text', () => {
    const text = '星'.repeat(700) + '"\\' + '🌟'.repeat(100) + 'end';
    const msgs = lineMessages(12, '灯', text);
    expect(msgs.length).toBeGreaterThan(1);
    expect(msgs.length).toBeLessThanOrEqual(MAX_LINE_PARTS);
    const sei = new SeiSender({ sendSei: () => undefined });
    for (const [i, m] of msgs.entries()) {
      expect(m).toMatchObject({ seq: 12, part: i, parts: msgs.length, speaker: '灯' });
      expect(bytes(m)).toBeLessThanOrEqual(MAX_TEXT_MESSAGE_BYTES);
      expect(serializeMessage(m).length).toBeLessThanOrEqual(MAX_MESSAGE_CHARS);
      expect(parseHostMessage(serializeMessage(m))).toEqual(m);
      expect(sei.push(serializeMessage(m))).toBe(true);
    }
    sei.close();
    expect(MAX_TEXT_MESSAGE_BYTES).toBeLessThanOrEqual(SEI_MAX_BYTES);
    expect(msgs.map((m) => m.text).join('')).toBe(text);
    // no surrogate pair is cut in two
    for (const m of msgs) expect(m.text).not.toMatch(/^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/);
  });

  it('truncates only a line past the last part, with an ellipsis', () => {
    const msgs = lineMessages(1, null, 'あ'.repeat(10_000));
    expect(msgs).toHaveLength(MAX_LINE_PARTS);
    expect(msgs[MAX_LINE_PARTS - 1].text.endsWith('…')).toBe(true);
    for (const m of msgs) expect(parseHostMessage(serializeMessage(m))).toEqual(m);
  });

  it('builds a choices message within the bounds, however long the choices', () => {
    const many = Array.from({ length: 12 }, (_, i) => `${i}番目の、とても長い長い選択肢の文章です`.repeat(5));
    const m = choicesMessage(20, many);
    expect(m.choices).toHaveLength(MAX_CHOICES);
    expect(bytes(m)).toBeLessThanOrEqual(MAX_TEXT_MESSAGE_BYTES);
    for (const c of m.choices) expect(c.length).toBeLessThanOrEqual(MAX_CHOICE_CHARS);
    expect(parseHostMessage(serializeMessage(m))).toEqual(m);
    expect(choicesMessage(21, ['駅へ行く', '家に帰る'])).toEqual({ v: 1, type: 'choices', seq: 21, choices: ['駅へ行く', '家に帰る'] });
    expect(choicesMessage(22, [])).toEqual({ v: 1, type: 'choices', seq: 22, choices: [] });
  });

  it('builds a clear message within the bound, accepted by TRTC SEI, whatever its seq', () => {
    expect(clearMessage(4)).toEqual({ v: 1, type: 'clear', seq: 4 });
    const sei = new SeiSender({ sendSei: () => undefined });
    for (const seq of [1, 1_000_000, Number.MAX_SAFE_INTEGER]) {
      const m = clearMessage(seq);
      expect(bytes(m)).toBeLessThanOrEqual(MAX_TEXT_MESSAGE_BYTES);
      expect(parseHostMessage(serializeMessage(m))).toEqual(m);
      expect(sei.push(serializeMessage(m))).toBe(true);
    }
    sei.close();
  });

  it('is never taken for a player message', () => {
    expect(parsePlayerMessage(line)).toBeNull();
    expect(parsePlayerMessage({ v: 1, type: 'choices', seq: 1, choices: [] })).toBeNull();
    expect(parsePlayerMessage({ v: 1, type: 'clear', seq: 1 })).toBeNull();
  });
});

describe('RateLimiter', () => {
  it('allows a burst, then refills at the rate', () => {
    let now = 0;
    const rl = new RateLimiter({ ratePerSecond: 60, burst: 120, now: () => now });
    let ok = 0;
    for (let i = 0; i < 200; i++) if (rl.take()) ok++;
    expect(ok).toBe(120);
    expect(rl.dropped).toBe(80);
    expect(rl.take()).toBe(false);
    now += 500; // 30 tokens
    ok = 0;
    for (let i = 0; i < 100; i++) if (rl.take()) ok++;
    expect(ok).toBe(30);
    now += 1_000_000; // never more than the burst
    expect(Math.round(rl.available())).toBe(120);
  });

  it('sustains its rate over time', () => {
    let now = 0;
    const rl = new RateLimiter({ ratePerSecond: 10, burst: 1, now: () => now });
    let ok = 0;
    for (let i = 0; i < 1000; i++) {
      now += 10; // 100 attempts per second for 10 s
      if (rl.take()) ok++;
    }
    expect(ok).toBeGreaterThanOrEqual(99);
    expect(ok).toBeLessThanOrEqual(101);
  });

  it('rejects nonsense configuration', () => {
    expect(() => new RateLimiter({ ratePerSecond: 0 })).toThrow(RangeError);
    expect(() => new RateLimiter({ burst: 0 })).toThrow(RangeError);
  });
});
