/**
 * Fullscreen on every phone (issue 13): without the Fullscreen API (iPhone Safari; jsdom has none
 * either) the toggle enters and leaves the full-viewport mode, whose style hides the site's bars
 * and fixes the stage; with the API the page itself goes fullscreen. Landscape is asked for in
 * both, and a refused lock changes nothing.
 */
import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderToString } from 'react-dom/server';
import { ServerStyleSheet } from 'styled-components';
import { renderWithProviders } from '@/test/renderWithProviders';
import { FullViewportStyle } from './FullViewportStyle';
import { FULL_VIEWPORT_ATTR, fullscreenApiAvailable, useFullscreen } from './useFullscreen';

/**
 * styled-components' Node build (the one Jest resolves) injects no global style into jsdom: the
 * rules are rendered as the server renders them and put in the document by hand.
 */
function injectFullViewportCss() {
  const sheet = new ServerStyleSheet();
  renderToString(sheet.collectStyles(<FullViewportStyle />));
  const holder = document.createElement('div');
  holder.innerHTML = sheet.getStyleTags();
  sheet.seal();
  const style = holder.querySelector('style')!;
  document.head.appendChild(style);
  return style;
}

function Harness() {
  const fs = useFullscreen();
  return (
    <>
      <header data-testid="global-header">ヘッダー</header>
      <div data-testid="play-stage" data-mode={fs.mode} data-active={String(fs.active)}>
        <button type="button" onClick={fs.toggle}>
          全画面
        </button>
      </div>
    </>
  );
}

const lock = jest.fn(() => Promise.reject(new DOMException('not allowed', 'NotSupportedError')));
const unlock = jest.fn();
beforeAll(() => {
  Object.defineProperty(screen_(), 'orientation', { value: { lock, unlock }, configurable: true });
});
function screen_() {
  return window.screen;
}
beforeEach(() => {
  jest.clearAllMocks();
  window.scrollTo = jest.fn();
});

describe('without the Fullscreen API (iPhone Safari)', () => {
  it('toggles the full-viewport mode: bars hidden, stage fixed at 100dvh, landscape asked for', async () => {
    expect(fullscreenApiAvailable()).toBe(false);
    const css = injectFullViewportCss();
    expect(css.textContent).toContain('100dvh');
    const user = userEvent.setup();
    const { unmount } = renderWithProviders(<Harness />);
    const stage = screen.getByTestId('play-stage');
    expect(stage).toHaveAttribute('data-mode', 'viewport');
    expect(getComputedStyle(screen.getByTestId('global-header')).display).not.toBe('none');

    await user.click(screen.getByRole('button', { name: '全画面' }));
    expect(document.documentElement).toHaveAttribute(FULL_VIEWPORT_ATTR, 'true');
    expect(stage).toHaveAttribute('data-active', 'true');
    expect(getComputedStyle(screen.getByTestId('global-header')).display).toBe('none');
    expect(getComputedStyle(stage).position).toBe('fixed');
    expect(getComputedStyle(stage).height).toBe('100dvh');
    expect(lock).toHaveBeenCalledWith('landscape');
    await act(async () => new Promise((r) => requestAnimationFrame(() => r(undefined))));
    expect(window.scrollTo).toHaveBeenCalledWith(0, 1);

    await user.click(screen.getByRole('button', { name: '全画面' }));
    expect(document.documentElement).not.toHaveAttribute(FULL_VIEWPORT_ATTR);
    expect(stage).toHaveAttribute('data-active', 'false');
    expect(getComputedStyle(screen.getByTestId('global-header')).display).not.toBe('none');

    // leaving the page leaves the mode
    await user.click(screen.getByRole('button', { name: '全画面' }));
    unmount();
    expect(document.documentElement).not.toHaveAttribute(FULL_VIEWPORT_ATTR);
    css.remove();
  });
});

describe('with the Fullscreen API', () => {
  const root = document.documentElement as HTMLElement & { requestFullscreen: unknown };
  let current: Element | null = null;
  beforeAll(() => {
    Object.defineProperty(document, 'fullscreenEnabled', { value: true, configurable: true });
    Object.defineProperty(document, 'fullscreenElement', { get: () => current, configurable: true });
    Object.defineProperty(document, 'exitFullscreen', {
      value: jest.fn(async () => {
        current = null;
        document.dispatchEvent(new Event('fullscreenchange'));
      }),
      configurable: true,
    });
    root.requestFullscreen = jest.fn(async () => {
      current = root;
      document.dispatchEvent(new Event('fullscreenchange'));
    });
  });
  afterAll(() => {
    delete (document as unknown as Record<string, unknown>).fullscreenEnabled;
    delete (root as unknown as Record<string, unknown>).requestFullscreen;
  });

  it('puts the page in fullscreen, asks for landscape, and leaves it again', async () => {
    const user = userEvent.setup();
    renderWithProviders(<Harness />);
    const stage = screen.getByTestId('play-stage');
    expect(stage).toHaveAttribute('data-mode', 'api');
    await user.click(screen.getByRole('button', { name: '全画面' }));
    expect(root.requestFullscreen).toHaveBeenCalled();
    expect(stage).toHaveAttribute('data-active', 'true');
    await act(async () => undefined);
    expect(lock).toHaveBeenCalledWith('landscape');
    expect(document.documentElement).not.toHaveAttribute(FULL_VIEWPORT_ATTR);
    await user.click(screen.getByRole('button', { name: '全画面' }));
    expect(document.exitFullscreen).toHaveBeenCalled();
    expect(stage).toHaveAttribute('data-active', 'false');
    expect(unlock).toHaveBeenCalled();
  });
});
