/**
 * The boot gate (lib/security/bootGate.ts): the page's chunks start at once on a page without a
 * preloaded picture, and otherwise only once the picture is decoded and reported painted (or
 * after the waits that bound it), in Next's order, with the page's nonce, exactly once; and the
 * hash the static policy carries is the hash of the text the document writes.
 */
import { createHash } from 'node:crypto';
import { BOOT_GATE_SCRIPT, BOOT_LIST_ID, bootGateHash, GATE_MAX_WAIT_MS, GATE_PAINT_WAIT_MS } from './bootGate';

const CHUNKS = ['/_next/static/chunks/webpack.js', '/_next/static/chunks/framework.js', '/_next/static/chunks/main.js'];

type Entry = { element?: Element | null; name?: string };
type Callback = (list: { getEntries(): Entry[] }) => void;
let observers: Record<string, Callback[]> = {};
/** Every type the gate asked to observe, supported or not. */
let asked: string[] = [];

/** The entry types of a browser that reports both paints (Chrome, Firefox). */
const ALL_TYPES = ['element', 'event', 'first-input', 'largest-contentful-paint', 'layout-shift', 'longtask', 'mark', 'measure', 'navigation', 'paint', 'resource'];

/** PerformanceObserver as a browser has it: a type it does not list is ignored (with a console warning). */
class FakeObserver {
  static supportedEntryTypes: readonly string[] | undefined = ALL_TYPES;
  constructor(private readonly callback: Callback) {}
  observe({ type }: { type: string }) {
    asked.push(type);
    if ((FakeObserver.supportedEntryTypes ?? []).includes(type)) (observers[type] ??= []).push(this.callback);
  }
}

/** The browser lists these entry types (undefined: it has PerformanceObserver but no list, pre-2019). */
function supports(types: readonly string[] | undefined) {
  FakeObserver.supportedEntryTypes = types;
}

/** The browser reports entries of one type. */
function report(type: string, entries: Entry[]) {
  for (const cb of observers[type] ?? []) cb({ getEntries: () => entries });
}
const firstPaint = () => report('paint', [{ name: 'first-paint' }, { name: 'first-contentful-paint' }]);

function page(pictures: number): { decodes: { resolve: () => void; reject: () => void }[]; images: HTMLImageElement[] } {
  document.head.innerHTML = '';
  document.body.innerHTML = `<script id="${BOOT_LIST_ID}" type="application/json">${JSON.stringify(CHUNKS)}</script>`;
  const decodes: { resolve: () => void; reject: () => void }[] = [];
  const images: HTMLImageElement[] = [];
  for (let i = 0; i < pictures; i++) {
    const img = document.createElement('img');
    img.setAttribute('fetchpriority', 'high');
    img.decode = () => new Promise<void>((resolve, reject) => decodes.push({ resolve, reject: () => reject(new Error('broken')) }));
    document.body.appendChild(img);
    images.push(img);
  }
  // A lazy picture is not waited for.
  const lazy = document.createElement('img');
  lazy.setAttribute('loading', 'lazy');
  lazy.decode = () => new Promise<void>(() => {});
  document.body.appendChild(lazy);
  return { decodes, images };
}

function run() {
  new Function(BOOT_GATE_SCRIPT)();
}

const started = () => Array.from(document.head.querySelectorAll('script')).map((s) => s.getAttribute('src'));

async function flush() {
  for (let i = 0; i < 5; i++) await Promise.resolve();
}

/** The window listeners each test's gate adds, removed after it (a gate still waiting would answer the next test's tap). */
let listeners: [string, EventListenerOrEventListenerObject, (boolean | AddEventListenerOptions)?][] = [];
const addEventListener = window.addEventListener.bind(window);

beforeEach(() => {
  listeners = [];
  jest.spyOn(window, 'addEventListener').mockImplementation((type, listener, options) => {
    if (listener) listeners.push([type, listener, options]);
    addEventListener(type, listener, options);
  });
  jest.useFakeTimers();
  observers = {};
  asked = [];
  supports(ALL_TYPES);
  (globalThis as unknown as { PerformanceObserver: unknown }).PerformanceObserver = FakeObserver;
  Object.defineProperty(document, 'currentScript', { value: { nonce: 'bm9uY2Vub25jZW5vbmNlMQ==' }, configurable: true });
});

afterEach(() => {
  jest.useRealTimers();
  jest.restoreAllMocks();
  for (const [type, listener, options] of listeners) window.removeEventListener(type, listener, options);
});

test('a page without a preloaded picture starts its chunks at its first paint, in order, run in order, with the nonce', () => {
  page(0);
  run();
  expect(started()).toEqual([]);
  firstPaint();
  jest.advanceTimersByTime(0);
  expect(started()).toEqual(CHUNKS);
  for (const s of Array.from(document.head.querySelectorAll('script'))) {
    expect(s.async).toBe(false);
    expect(s.nonce).toBe('bm9uY2Vub25jZW5vbmNlMQ==');
  }
});

test('the chunks wait for the picture to be decoded and reported painted, then start once', async () => {
  const { decodes, images } = page(1);
  run();
  expect(started()).toEqual([]);
  decodes[0].resolve();
  await flush();
  expect(started()).toEqual([]);
  firstPaint();
  expect(started()).toEqual([]);
  report('largest-contentful-paint', [{ element: images[0] }]);
  jest.advanceTimersByTime(0);
  expect(started()).toEqual(CHUNKS);
  jest.advanceTimersByTime(GATE_MAX_WAIT_MS);
  expect(started()).toEqual(CHUNKS);
});

test('a paint of something else is not the picture', async () => {
  const { decodes } = page(1);
  run();
  decodes[0].resolve();
  await flush();
  report('largest-contentful-paint', [{ element: document.createElement('h1') }]);
  firstPaint();
  jest.advanceTimersByTime(GATE_PAINT_WAIT_MS - 1);
  expect(started()).toEqual([]);
  jest.advanceTimersByTime(1);
  expect(started()).toEqual(CHUNKS);
});

test('nothing starts while the page has not been painted at all, up to GATE_MAX_WAIT_MS', async () => {
  const { decodes } = page(1);
  run();
  decodes[0].resolve();
  await flush();
  jest.advanceTimersByTime(GATE_PAINT_WAIT_MS * 3);
  expect(started()).toEqual([]);
  jest.advanceTimersByTime(GATE_MAX_WAIT_MS - GATE_PAINT_WAIT_MS * 3);
  expect(started()).toEqual(CHUNKS);
});

test('every preloaded picture is waited for; a broken one counts as done', async () => {
  const { decodes } = page(2);
  run();
  firstPaint();
  decodes[0].resolve();
  await flush();
  jest.advanceTimersByTime(GATE_PAINT_WAIT_MS);
  expect(started()).toEqual([]);
  decodes[1].reject();
  await flush();
  jest.advanceTimersByTime(GATE_PAINT_WAIT_MS);
  expect(started()).toEqual(CHUNKS);
});

test('a picture that never arrives holds the chunks at most GATE_MAX_WAIT_MS', () => {
  page(1);
  run();
  firstPaint();
  jest.advanceTimersByTime(GATE_MAX_WAIT_MS - 1);
  expect(started()).toEqual([]);
  jest.advanceTimersByTime(1);
  expect(started()).toEqual(CHUNKS);
});

/** Browsers that cannot report the page's first paint: the gate must not wait for it. */
const NO_PAINT_TIMING: [string, () => void][] = [
  ['no PerformanceObserver', () => delete (globalThis as unknown as { PerformanceObserver?: unknown }).PerformanceObserver],
  ['a PerformanceObserver without supportedEntryTypes', () => supports(undefined)],
  ['no paint entry type', () => supports(ALL_TYPES.filter((t) => t !== 'paint'))],
];

test.each(NO_PAINT_TIMING)('without paint timing (%s), a page without a picture starts at once', (_, browser) => {
  browser();
  page(0);
  run();
  jest.advanceTimersByTime(0);
  expect(started()).toEqual(CHUNKS);
});

test.each(NO_PAINT_TIMING)('without paint timing (%s), the decode and GATE_PAINT_WAIT_MS decide', async (_, browser) => {
  browser();
  const { decodes } = page(1);
  run();
  decodes[0].resolve();
  await flush();
  jest.advanceTimersByTime(GATE_PAINT_WAIT_MS - 1);
  expect(started()).toEqual([]);
  jest.advanceTimersByTime(1);
  expect(started()).toEqual(CHUNKS);
});

test('without the paint entry type, the picture reported painted still starts the chunks at once', async () => {
  supports(ALL_TYPES.filter((t) => t !== 'paint'));
  const { decodes, images } = page(1);
  run();
  decodes[0].resolve();
  await flush();
  report('largest-contentful-paint', [{ element: images[0] }]);
  jest.advanceTimersByTime(0);
  expect(started()).toEqual(CHUNKS);
});

test('without largest-contentful-paint, the first paint and GATE_PAINT_WAIT_MS decide; no unsupported type is observed', async () => {
  supports(ALL_TYPES.filter((t) => t !== 'largest-contentful-paint'));
  const { decodes } = page(1);
  run();
  expect(asked).toEqual(['paint']);
  decodes[0].resolve();
  await flush();
  jest.advanceTimersByTime(GATE_PAINT_WAIT_MS);
  expect(started()).toEqual([]);
  firstPaint();
  jest.advanceTimersByTime(GATE_PAINT_WAIT_MS - 1);
  expect(started()).toEqual([]);
  jest.advanceTimersByTime(1);
  expect(started()).toEqual(CHUNKS);
});

test('a tap before the picture is shown starts the chunks at once', () => {
  page(1);
  run();
  expect(started()).toEqual([]);
  window.dispatchEvent(new Event('pointerdown'));
  expect(started()).toEqual(CHUNKS);
});

test('the static policy allows exactly the text the document writes', () => {
  expect(bootGateHash()).toBe(`sha256-${createHash('sha256').update(BOOT_GATE_SCRIPT, 'utf8').digest('base64')}`);
  // React writes dangerouslySetInnerHTML as is; nothing in the gate would be escaped or differ per page.
  expect(BOOT_GATE_SCRIPT).not.toMatch(/<\/script|\$\{/i);
});
