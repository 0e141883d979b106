import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { ThemeProvider } from 'styled-components';
import { DEFAULT_THEME, isThemeName, themes, type ThemeName } from '@/styles/theme';
import { STORAGE_KEYS } from '@/lib/storage/keys';
import { readRaw, writeRaw } from '@/lib/storage/localStore';

interface ThemeSwitchValue {
  theme: ThemeName;
  setTheme: (t: ThemeName) => void;
}

const ThemeSwitchContext = createContext<ThemeSwitchValue>({ theme: DEFAULT_THEME, setTheme: () => {} });

/** Dark by default (spec section 9); the user's choice is remembered on the device. */
export function ThemeSwitchProvider({ children }: { children: ReactNode }) {
  const [theme, setThemeState] = useState<ThemeName>(DEFAULT_THEME);

  useEffect(() => {
    const stored = readRaw(STORAGE_KEYS.theme);
    if (isThemeName(stored)) setThemeState(stored);
  }, []);

  const setTheme = useCallback((t: ThemeName) => {
    setThemeState(t);
    writeRaw(STORAGE_KEYS.theme, t);
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
