/**
 * The full-viewport mode's rules (useFullscreen.ts; issue 13): while <html> carries
 * `data-full-viewport`, the play stage is fixed at the dynamic viewport's height (100dvh: what is
 * visible with or without Safari's bars), the site's header, tab bar and footer are hidden (they
 * already are on the play page: belt and braces), and the body is one pixel taller than the large
 * viewport so the page can scroll Safari's bars away. Mounted by PlayerView; inert otherwise.
 */
import { createGlobalStyle } from 'styled-components';

export const FullViewportStyle = createGlobalStyle`
  html[data-full-viewport='true'],
  html[data-full-viewport='true'] body {
    overscroll-behavior: none;
    background: #000;
  }
  html[data-full-viewport='true'] body {
    min-height: calc(100lvh + 1px);
  }
  html[data-full-viewport='true'] [data-testid='global-header'],
  html[data-full-viewport='true'] [data-testid='tab-bar'],
  html[data-full-viewport='true'] footer {
    display: none !important;
  }
  html[data-full-viewport='true'] [data-testid='play-stage'] {
    position: fixed;
    top: 0;
    right: 0;
    bottom: auto;
    left: 0;
    height: 100dvh;
  }
`;
