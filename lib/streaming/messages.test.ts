/**
 * @jest-environment node
 */
import {
  MAX_MESSAGE_CHARS,
  NAMED_KEYS,
  RateLimiter,
  hostMessage,
  isInputMessage,
  parseHostMessage,
  parsePlayerMessage,
  playerMessage,
  serializeMessage,
  type PlayerMessage,
} from './messages';

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
