import { createGlobalStyle } from 'styled-components';

export const GlobalStyle = createGlobalStyle`
  *, *::before, *::after { box-sizing: border-box; }
  html { -webkit-text-size-adjust: 100%; }
  body {
    margin: 0;
    background: ${({ theme }) => theme.background};
    color: ${({ theme }) => theme.text};
    font-family: 'Noto Sans JP', 'Hiragino Sans', 'Hiragino Kaku Gothic ProN', Meiryo, sans-serif;
    line-height: 1.6;
    -webkit-font-smoothing: antialiased;
  }
  /* The modal layer sets this so the page behind it does not scroll. */
  body.modal-open { overflow: hidden; }
  a { color: ${({ theme }) => theme.primary}; }
  img { max-width: 100%; }
  :focus-visible { outline: 2px solid ${({ theme }) => theme.focus}; outline-offset: 2px; }
`;
