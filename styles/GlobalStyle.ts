/**
 * The web's global styles: box sizing, the theme's colours on the body, the focus ring, and the
 * Japanese system font stack (issue 12, docs/web-performance.md): the platforms' own Japanese
 * fonts (Hiragino on Apple, Yu Gothic / Meiryo on Windows, Noto Sans CJK on Android and Linux),
 * so a public page downloads no web font. The VN runtime embeds its own font (runtime/build.ts).
 */
import { createGlobalStyle } from 'styled-components';

/**
 * The Japanese fonts come first: a Latin-only first font (`system-ui` is DejaVu Sans or Cantarell
 * on Linux, Roboto on Android) makes the browser look up a fallback font for every kana and kanji
 * of the page, and that lookup was most of a title page's first layout (470 ms of main thread
 * under Lighthouse's 4x slowdown, docs/web-performance.md). Their Latin letters are good too.
 */
export const FONT_STACK =
  "'Hiragino Sans', 'Hiragino Kaku Gothic ProN', 'Yu Gothic UI', 'Yu Gothic', YuGothic, Meiryo, 'Noto Sans CJK JP', 'Noto Sans JP', system-ui, -apple-system, sans-serif";

export const GlobalStyle = createGlobalStyle`
  *, *::before, *::after { box-sizing: border-box; }
  html { -webkit-text-size-adjust: 100%; }
  body {
    margin: 0;
    background: ${({ theme }) => theme.background};
    color: ${({ theme }) => theme.text};
    font-family: ${FONT_STACK};
    line-height: 1.6;
    -webkit-font-smoothing: antialiased;
  }
  /* The modal layer sets this so the page behind it does not scroll. */
  body.modal-open { overflow: hidden; }
  a { color: ${({ theme }) => theme.primary}; }
  img { max-width: 100%; }
  :focus-visible { outline: 2px solid ${({ theme }) => theme.focus}; outline-offset: 2px; }
`;
