import type { DefaultTheme } from 'styled-components';

export type ThemeName = 'dark' | 'light';

/** Colours only; sizes live in breakpoints.ts. Dark is the default (spec section 9). */
export interface Palette {
  name: ThemeName;
  background: string;
  surface: string;
  surfaceRaised: string;
  border: string;
  text: string;
  textMuted: string;
  primary: string;
  primaryText: string;
  attention: string;
  destructive: string;
  intense: string;
  overlay: string;
  focus: string;
}

export const darkTheme: Palette = {
  name: 'dark',
  background: '#121216',
  surface: '#1c1c22',
  surfaceRaised: '#26262e',
  border: '#34343e',
  text: '#f2f2f5',
  textMuted: '#a0a0ad',
  primary: '#ff5c8a',
  primaryText: '#ffffff',
  attention: '#ffb020',
  destructive: '#ff4d4f',
  intense: '#8a5cff',
  overlay: 'rgba(0, 0, 0, 0.72)',
  focus: '#7ab8ff',
};

export const lightTheme: Palette = {
  name: 'light',
  background: '#f7f7fa',
  surface: '#ffffff',
  surfaceRaised: '#f0f0f5',
  border: '#dcdce4',
  text: '#18181d',
  textMuted: '#5e5e6b',
  primary: '#e0356a',
  primaryText: '#ffffff',
  attention: '#b26a00',
  destructive: '#d62f32',
  intense: '#6a3ce0',
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
