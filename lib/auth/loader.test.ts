/**
 * The auth loader: Firebase Auth starts at once where the page needs the user, at the first
 * interaction on a visitor's public page (which meanwhile has "no user yet"), and once only.
 */
import { ensureAuthStarted, needsAuthAtOnce, scheduleAuthStart } from './loader';
import { REDIRECT_INTENT_KEY } from './redirectIntentKey';
import { writeAuthHint } from './hint';
import type { AppDispatch } from '@/store';

const stop = jest.fn();
const startAuthListener = jest.fn<() => void, [AppDispatch]>(() => stop);
jest.mock('./listener', () => ({ startAuthListener: (d: AppDispatch) => startAuthListener(d) }));

const dispatch = jest.fn() as unknown as AppDispatch;
const flush = async () => {
  for (let i = 0; i < 5; i += 1) await Promise.resolve();
  await new Promise((r) => setTimeout(r, 0));
};

afterEach(() => {
  jest.useRealTimers();
  startAuthListener.mockClear();
  stop.mockClear();
  window.sessionStorage.clear();
  window.localStorage.clear();
});

describe('needsAuthAtOnce', () => {
  it.each(['/', '/title/amayadori-cafe', '/search?q=a', '/brand', '/magazine', '/magazine/spring', '/upgrade', '/terms'])('%s waits', (p) => {
    expect(needsAuthAtOnce(p)).toBe(false);
  });
  it.each(['/mylist', '/settings/account', '/play/amayadori-cafe', '/email/login', '/email/link-callback', '/purchase/register-card', '/signin', '/unknown/x/y'])(
    '%s starts at once',
    (p) => expect(needsAuthAtOnce(p)).toBe(true),
  );
  it('a sign-in redirect coming back starts at once, even on a public page', () => {
    window.sessionStorage.setItem(REDIRECT_INTENT_KEY, '{}');
    expect(needsAuthAtOnce('/')).toBe(true);
  });
  it('a browser whose user was signed in starts at once; a visitor\'s waits', () => {
    writeAuthHint('anonymous');
    expect(needsAuthAtOnce('/title/amayadori-cafe')).toBe(false);
    writeAuthHint('verified');
    expect(needsAuthAtOnce('/title/amayadori-cafe')).toBe(true);
    writeAuthHint('undefined');
    expect(needsAuthAtOnce('/title/amayadori-cafe')).toBe(true);
  });
});

describe('scheduleAuthStart', () => {
  it('starts at once when asked, and stops the listener on cleanup', async () => {
    const cleanup = scheduleAuthStart(dispatch, true);
    await flush();
    expect(startAuthListener).toHaveBeenCalledWith(dispatch);
    cleanup();
    await flush();
    expect(stop).toHaveBeenCalledTimes(1);
  });

  it('on a visitor\'s public page: no user yet, nothing loaded until the first interaction', async () => {
    const seen = jest.fn();
    const cleanup = scheduleAuthStart(seen as unknown as AppDispatch, false);
    await flush();
    expect(startAuthListener).not.toHaveBeenCalled();
    expect(seen).toHaveBeenCalledWith({ type: 'USER.LOGGED_IN', payload: null });
    window.dispatchEvent(new Event('touchstart'));
    await flush();
    expect(startAuthListener).toHaveBeenCalledTimes(1);
    cleanup();
  });

  it('starts at the first interaction, once', async () => {
    const cleanup = scheduleAuthStart(dispatch, false);
    window.dispatchEvent(new Event('pointerdown'));
    window.dispatchEvent(new Event('keydown'));
    await flush();
    expect(startAuthListener).toHaveBeenCalledTimes(1);
    cleanup();
  });

  it('a start during a page change waits until the page change is over', async () => {
    const Router = (await import('next/router')).default;
    const cleanup = scheduleAuthStart(dispatch, false);
    Router.events.emit('routeChangeStart', '/privacy', { shallow: false });
    window.dispatchEvent(new Event('pointerdown'));
    await flush();
    expect(startAuthListener).not.toHaveBeenCalled();
    Router.events.emit('routeChangeComplete', '/privacy', { shallow: false });
    await flush();
    expect(startAuthListener).toHaveBeenCalledTimes(1);
    cleanup();
  });

  it('ensureAuthStarted starts it now and resolves once it runs', async () => {
    const cleanup = scheduleAuthStart(dispatch, false);
    await ensureAuthStarted();
    expect(startAuthListener).toHaveBeenCalledTimes(1);
    await ensureAuthStarted();
    expect(startAuthListener).toHaveBeenCalledTimes(1);
    cleanup();
  });
});
