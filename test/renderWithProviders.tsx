/**
 * The unit tests' render helper: a component inside a fresh Redux store and the theme, as the
 * Redux templates' `renderWithProviders` (tests pass `preloadedState` or their own store).
 */
import type { ReactElement } from 'react';
import { render, type RenderOptions } from '@testing-library/react';
import { Provider } from 'react-redux';
import { ThemeProvider } from 'styled-components';
import { makeStore, type AppStore, type RootState } from '@/store';
import { darkTheme } from '@/styles/theme';

interface Options extends Omit<RenderOptions, 'queries'> {
  preloadedState?: Partial<RootState>;
  store?: AppStore;
}

/** Renders a component with a fresh store and the theme (the Redux templates' renderWithProviders). */
export function renderWithProviders(ui: ReactElement, { preloadedState, store = makeStore(preloadedState), ...options }: Options = {}) {
  return {
    store,
    ...render(
      <Provider store={store}>
        <ThemeProvider theme={darkTheme}>{ui}</ThemeProvider>
      </Provider>,
      options,
    ),
  };
}
