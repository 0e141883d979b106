/**
 * useScrollRestoration against a page whose content arrives after a back navigation completes
 * (as /mylist/bookmark's list does: lib/mylist/usePagedList.ts loads it on mount): the restore
 * waits for the page to grow, gives up after its window, and never moves a page the user has
 * scrolled or left. The router is a stand-in that fires Next's events in Next's order (pop state,
 * start, the new asPath, complete) on Next's own emitter; the page's height and scroll position
 * are a small model of a browser's (scrollTo clamps to what the page can reach, and its scroll
 * event comes on the next frame, as a browser sends it).
 */
import { act, render } from '@testing-library/react';
import Router from 'next/router';
import { RESTORE_RETRY_MS, RESTORE_WINDOW_MS, SCROLL_SAVE_DEBOUNCE_MS, useScrollRestoration } from './useScrollRestoration';

jest.mock('next/router', () => {
  const mitt = jest.requireActual('next/dist/shared/lib/mitt').default;
  const router = {
    asPath: '/',
    events: mitt(),
    popState: null as null | ((state: { url: string; as: string; options: object }) => boolean),
    beforePopState(cb: (state: { url: string; as: string; options: object }) => boolean) {
      router.popState = cb;
    },
  };
  return { __esModule: true, default: router };
});

type FakeRouter = typeof Router & { asPath: string; popState: ((state: { url: string; as: string; options: object }) => boolean) | null };
const router = Router as unknown as FakeRouter;

const VIEWPORT = 800;
let height = 0;
let y = 0;
const scrollTo = jest.fn((_x: number, to: number) => {
  const from = y;
  y = Math.max(0, Math.min(to, height - VIEWPORT));
  if (y !== from) requestAnimationFrame(() => window.dispatchEvent(new Event('scroll')));
});

function Harness() {
  useScrollRestoration();
  return null;
}

/** The user scrolls to `to`, and the debounced save runs. */
function userScrollsTo(to: number) {
  act(() => {
    y = to;
    window.dispatchEvent(new Event('scroll'));
    jest.advanceTimersByTime(SCROLL_SAVE_DEBOUNCE_MS + 10);
  });
}

/** A link to `path` (a new navigation: Next scrolls it to the top). */
function visit(path: string, pageHeight: number) {
  act(() => {
    router.events.emit('routeChangeStart', path);
    router.asPath = path;
    height = pageHeight;
    y = 0;
    router.events.emit('routeChangeComplete', path);
  });
}

/** The browser's back button to `path`, whose page is `pageHeight` tall when the navigation completes. */
function back(path: string, pageHeight: number) {
  act(() => {
    expect(router.popState!({ url: path, as: path, options: {} })).toBe(true);
    router.events.emit('routeChangeStart', path);
    router.asPath = path;
    height = pageHeight;
    router.events.emit('routeChangeComplete', path);
  });
}

const advance = (ms: number) => act(() => void jest.advanceTimersByTime(ms));

beforeEach(() => {
  jest.useFakeTimers();
  window.sessionStorage.clear();
  Object.defineProperty(document.documentElement, 'scrollHeight', { configurable: true, get: () => height });
  Object.defineProperty(window, 'innerHeight', { configurable: true, value: VIEWPORT });
  Object.defineProperty(window, 'scrollY', { configurable: true, get: () => y });
  window.scrollTo = scrollTo as unknown as typeof window.scrollTo;
  scrollTo.mockClear();
  router.asPath = '/mylist/bookmark';
  height = 3000;
  y = 0;
});

afterEach(() => {
  jest.useRealTimers();
});

/** The bookmark list scrolled to 1500 and saved, then a title opened from it. */
function leaveTheListAt(position: number) {
  render(<Harness />);
  userScrollsTo(position);
  expect(window.sessionStorage.getItem('yumecast.scroll:/mylist/bookmark')).toBe(String(position));
  visit('/title/hoshifuru-toshokan', 1200);
  scrollTo.mockClear();
}

describe('useScrollRestoration', () => {
  it('comes back to the saved position when the list arrives after the back navigation completed', () => {
    leaveTheListAt(1500);
    // Back: the list page is a spinner when Next reports the navigation complete.
    back('/mylist/bookmark', 900);
    advance(20);
    expect(y).toBe(100);
    // The list arrives 300 ms later and the page grows: the restore reaches the saved place.
    advance(300);
    act(() => void (height = 3000));
    advance(RESTORE_RETRY_MS + 20);
    expect(y).toBe(1500);
    // ... and then leaves the page alone.
    const calls = scrollTo.mock.calls.length;
    advance(RESTORE_WINDOW_MS);
    expect(scrollTo.mock.calls.length).toBe(calls);
  });

  it('scrolls once on a page already tall enough', () => {
    leaveTheListAt(1500);
    back('/mylist/bookmark', 3000);
    advance(RESTORE_WINDOW_MS + 100);
    expect(y).toBe(1500);
    expect(scrollTo).toHaveBeenCalledTimes(1);
  });

  it('gives up when the page never grows tall enough', () => {
    leaveTheListAt(1500);
    back('/mylist/bookmark', 900);
    advance(RESTORE_WINDOW_MS + 100);
    const calls = scrollTo.mock.calls.length;
    expect(calls).toBeGreaterThan(1);
    act(() => void (height = 3000));
    advance(RESTORE_WINDOW_MS);
    expect(scrollTo.mock.calls.length).toBe(calls);
    expect(y).toBe(100);
  });

  it('stops waiting once the user scrolls on their own', () => {
    leaveTheListAt(1500);
    back('/mylist/bookmark', 900);
    advance(20);
    act(() => {
      window.dispatchEvent(new Event('wheel'));
      y = 40;
      height = 3000;
    });
    advance(RESTORE_WINDOW_MS);
    expect(y).toBe(40);
  });

  it('never moves the next page when the user leaves before the list arrives', () => {
    leaveTheListAt(1500);
    back('/mylist/bookmark', 900);
    advance(20);
    visit('/title/amayadori-cafe', 3000);
    advance(RESTORE_WINDOW_MS);
    expect(y).toBe(0);
  });

  it('a back pressed before the linked page has finished keeps the position it goes back to', () => {
    render(<Harness />);
    userScrollsTo(1500);
    // A title opened from the list; the back comes while that navigation is still finishing.
    act(() => {
      router.events.emit('routeChangeStart', '/title/hoshifuru-toshokan');
      expect(router.popState!({ url: '/mylist/bookmark', as: '/mylist/bookmark', options: {} })).toBe(true);
      router.events.emit('routeChangeStart', '/mylist/bookmark');
      router.asPath = '/title/hoshifuru-toshokan';
      router.events.emit('routeChangeComplete', '/title/hoshifuru-toshokan');
      // Next scrolls the title's page to the top; the back's page is already on its way in
      height = 900;
      y = 0;
      router.asPath = '/mylist/bookmark';
      window.dispatchEvent(new Event('scroll'));
    });
    advance(SCROLL_SAVE_DEBOUNCE_MS + 10);
    act(() => void router.events.emit('routeChangeComplete', '/mylist/bookmark'));
    advance(300);
    act(() => void (height = 3000));
    advance(RESTORE_RETRY_MS + 20);
    expect(y).toBe(1500);
  });

  it('saves the place the page is left at, though the browser sends that scroll after the navigation started', () => {
    render(<Harness />);
    userScrollsTo(1500);
    act(() => {
      // The link is scrolled into view to be clicked (the phone e2e: 851 → 601); the browser sends
      // the scroll event on its next frame, after Next has started the navigation.
      y = 1200;
      router.events.emit('routeChangeStart', '/title/hoshifuru-toshokan');
      window.dispatchEvent(new Event('scroll'));
      router.asPath = '/title/hoshifuru-toshokan';
      height = 1200;
      y = 0;
      router.events.emit('routeChangeComplete', '/title/hoshifuru-toshokan');
    });
    expect(window.sessionStorage.getItem('yumecast.scroll:/mylist/bookmark')).toBe('1200');
    back('/mylist/bookmark', 900);
    advance(300);
    act(() => void (height = 3000));
    advance(RESTORE_RETRY_MS + 20);
    expect(y).toBe(1200);
  });

  it("never saves a waiting restore's own scroll: the saved place outlives leaving before the list arrives", () => {
    leaveTheListAt(1500);
    back('/mylist/bookmark', 900);
    // the restore reaches only 100 on the spinner page; its scroll event comes and rests
    advance(SCROLL_SAVE_DEBOUNCE_MS + 50);
    expect(y).toBe(100);
    expect(window.sessionStorage.getItem('yumecast.scroll:/mylist/bookmark')).toBe('1500');
    // the user leaves before the list has come, then comes back to a list already there
    visit('/title/amayadori-cafe', 3000);
    back('/mylist/bookmark', 3000);
    advance(100);
    expect(y).toBe(1500);
  });

  it('a new navigation to a page with a saved position starts at the top', () => {
    leaveTheListAt(1500);
    visit('/mylist/bookmark', 3000);
    advance(RESTORE_WINDOW_MS);
    expect(scrollTo).not.toHaveBeenCalled();
    expect(y).toBe(0);
  });
});
