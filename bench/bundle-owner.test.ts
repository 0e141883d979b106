/**
 * bench/bundle-owner.ts maps the source paths of a real webpack build's maps (the examples below
 * are copied from `.next/static/chunks/*.js.map` of `next build --webpack` with browser source
 * maps) to the owners page-weight prints.
 */
import { owner } from './bundle-owner';

const N = 'webpack://_N_E/';

it('names packages, scoped ones by scope and name', () => {
  expect(owner(`${N}./node_modules/react-dom/cjs/react-dom.production.min.js`)).toBe('react-dom');
  expect(owner(`${N}./node_modules/@reduxjs/toolkit/dist/redux-toolkit.modern.mjs`)).toBe('@reduxjs/toolkit');
  expect(owner(`${N}./node_modules/stylis/src/Utility.js`)).toBe('stylis');
});

it("tells Next's precompiled client (maps back to ../../src) from its package files and compiled copies", () => {
  expect(owner(`${N}../../src/client/with-router.tsx`)).toBe('next (its client)');
  expect(owner(`${N}../../src/shared/lib/router/utils/remove-path-prefix.ts`, true)).toBe('next (its client): shared/lib/router/utils/remove-path-prefix.ts');
  expect(owner(`${N}./node_modules/next/dynamic.js`)).toBe('next');
  expect(owner(`${N}./node_modules/next/dist/lib/constants.js`, true)).toBe('next: dist/lib/constants.js');
  expect(owner(`${N}./node_modules/next/dist/compiled/path-to-regexp/index.js`)).toBe('next (compiled path-to-regexp)');
});

it("names webpack's runtime, and ours by folder or (fine) by file", () => {
  expect(owner(`${N}webpack/runtime/hasOwnProperty shorthand`)).toBe('webpack runtime');
  expect(owner(`${N}./components/layout/Footer.tsx`)).toBe('ours: components');
  expect(owner(`${N}./styles/theme.ts`, true)).toBe('ours: styles/theme.ts');
});
