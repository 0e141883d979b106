/**
 * The two colour themes (dark, the default, and light) as one Palette each. Every text colour
 * reads at WCAG AA (4.5:1) on the backgrounds it is used on, and every fill colour has its own
 * text colour (`primaryText`, `attentionText`, …) that reads on it (issue 12); styles/theme.test.ts
 * checks each pair, so a new colour cannot quietly break contrast.
 */
import type { DefaultTheme } from 'styled-components';

export type ThemeName = 'dark' | 'light';

/** Colours only; sizes live in breakpoints.ts. Dark is the default (spec section 9). */
export interface Palette {
  name: ThemeName;
  background: string;
  surface: string;
  surfaceRaised: string;
  /** Dividers and card edges (decorative). */
  border: string;
  /** The edge of a form control (an input's box): 3:1 against the backgrounds (WCAG 1.4.11). */
  controlBorder: string;
  text: string;
  textMuted: string;
  /** Links and primary buttons' fill; `primaryText` is the text on that fill. */
  primary: string;
  primaryText: string;
  /** Warnings (text and fill); `attentionText` is the text on the fill. */
  attention: string;
  attentionText: string;
  /** Errors and destructive actions (text and fill); `destructiveText` on the fill. */
  destructive: string;
  destructiveText: string;
  /** The social login button's fill; `intenseText` on it. */
  intense: string;
  intenseText: string;
  overlay: string;
  focus: string;
}

export const darkTheme: Palette = {
  name: 'dark',
  background: '#121216',
  surface: '#1c1c22',
  surfaceRaised: '#26262e',
  border: '#34343e',
  controlBorder: '#7a7a88',
  text: '#f2f2f5',
  textMuted: '#a0a0ad',
  primary: '#ff5c8a',
  // White on this pink is 2.9:1; the page's near-black is 6.4:1.
  primaryText: '#121216',
  attention: '#ffb020',
  attentionText: '#1a1200',
  destructive: '#ff4d4f',
  destructiveText: '#121216',
  intense: '#7a4dff',
  intenseText: '#ffffff',
  overlay: 'rgba(0, 0, 0, 0.72)',
  focus: '#7ab8ff',
};

export const lightTheme: Palette = {
  name: 'light',
  background: '#f7f7fa',
  surface: '#ffffff',
  surfaceRaised: '#f0f0f5',
  border: '#dcdce4',
  controlBorder: '#80808c',
  text: '#18181d',
  textMuted: '#5e5e6b',
  primary: '#c8285c',
  primaryText: '#ffffff',
  attention: '#9a5b00',
  attentionText: '#ffffff',
  destructive: '#c62828',
  destructiveText: '#ffffff',
  intense: '#6a3ce0',
  intenseText: '#ffffff',
  overlay: 'rgba(0, 0, 0, 0.5)',
  focus: '#1d6fd6',
};

export const themes: Record<ThemeName, Palette> = { dark: darkTheme, light: lightTheme };
export const DEFAULT_THEME: ThemeName = 'dark';

export function isThemeName(value: unknown): value is ThemeName {
  return value === 'dark' || value === 'light';
}

declare module 'styled-components' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  export interface DefaultTheme extends Palette {}
}

export type AppTheme = DefaultTheme;
