/**
 * The page-change bar: shown only when a change takes longer than ROUTE_PROGRESS_DELAY_MS, never
 * for a shallow one, gone when the change completes or fails.
 */
import { act, screen } from '@testing-library/react';
import Router from 'next/router';
import { renderWithProviders } from '@/test/renderWithProviders';
import { ROUTE_PROGRESS_DELAY_MS, RouteProgress } from './RouteProgress';

jest.mock('next/router', () => {
  const mitt = jest.requireActual('next/dist/shared/lib/mitt').default;
  return { __esModule: true, default: { events: mitt() } };
});

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

function emit(event: 'routeChangeStart' | 'routeChangeComplete' | 'routeChangeError', shallow = false) {
  act(() => Router.events.emit(event, '/mylist', { shallow }));
}
function wait(ms: number) {
  act(() => {
    jest.advanceTimersByTime(ms);
  });
}

it('shows a named progress bar while a slow page change waits, and takes it down when it completes', () => {
  renderWithProviders(<RouteProgress />);
  emit('routeChangeStart');
  wait(ROUTE_PROGRESS_DELAY_MS - 50);
  expect(screen.queryByRole('progressbar')).toBeNull();
  wait(100);
  expect(screen.getByRole('progressbar', { name: 'ページを読み込んでいます' })).toBeInTheDocument();
  emit('routeChangeComplete');
  expect(screen.queryByRole('progressbar')).toBeNull();
});

it('never flashes for a quick change, a shallow one, or a failed one', () => {
  renderWithProviders(<RouteProgress />);
  emit('routeChangeStart');
  wait(50);
  emit('routeChangeComplete');
  wait(1000);
  expect(screen.queryByRole('progressbar')).toBeNull();
  emit('routeChangeStart', true);
  wait(1000);
  expect(screen.queryByRole('progressbar')).toBeNull();
  emit('routeChangeStart');
  wait(1000);
  expect(screen.getByRole('progressbar')).toBeInTheDocument();
  emit('routeChangeError');
  expect(screen.queryByRole('progressbar')).toBeNull();
});
