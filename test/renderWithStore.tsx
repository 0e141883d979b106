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

/** Renders a component with a fresh store and the theme (the with-redux test helper). */
export function renderWithStore(ui: ReactElement, { preloadedState, store = makeStore(preloadedState), ...options }: Options = {}) {
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
