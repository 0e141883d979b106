import { createContext, useCallback, useContext, useMemo, useSyncExternalStore, type ReactNode } from 'react';
import { ThemeProvider } from 'styled-components';
import { DEFAULT_THEME, isThemeName, themes, type ThemeName } from '@/styles/theme';
import { STORAGE_KEYS } from '@/lib/storage/keys';
import { readRaw, writeRaw } from '@/lib/storage/localStore';

interface ThemeSwitchValue {
  theme: ThemeName;
  setTheme: (t: ThemeName) => void;
}

const ThemeSwitchContext = createContext<ThemeSwitchValue>({ theme: DEFAULT_THEME, setTheme: () => {} });

// The remembered theme is a tiny external store over localStorage, so the server render and
// the first client render agree (dark) and the stored choice applies right after hydration.
const listeners = new Set<() => void>();
function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
function storedTheme(): ThemeName {
  const v = readRaw(STORAGE_KEYS.theme);
  return isThemeName(v) ? v : DEFAULT_THEME;
}
const serverTheme = (): ThemeName => DEFAULT_THEME;

/** Dark by default (spec section 9); the user's choice is remembered on the device. */
export function ThemeSwitchProvider({ children }: { children: ReactNode }) {
  const theme = useSyncExternalStore(subscribe, storedTheme, serverTheme);
  const setTheme = useCallback((t: ThemeName) => {
    writeRaw(STORAGE_KEYS.theme, t);
    listeners.forEach((l) => l());
  }, []);
  const value = useMemo(() => ({ theme, setTheme }), [theme, setTheme]);
  return (
    <ThemeSwitchContext.Provider value={value}>
      <ThemeProvider theme={themes[theme]}>{children}</ThemeProvider>
    </ThemeSwitchContext.Provider>
  );
}

export function useThemeSwitch(): ThemeSwitchValue {
  return useContext(ThemeSwitchContext);
}
