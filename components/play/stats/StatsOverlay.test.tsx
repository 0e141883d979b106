/**
 * The stats overlay polls the controller once a second while mounted, shows the figures with
 * Japanese labels, and stops reading when unmounted (the toggle off costs nothing).
 */
import { act, screen } from '@testing-library/react';
import { renderWithProviders } from '@/test/renderWithProviders';
import { emptyReceiverStats } from '@/lib/streaming/types';
import { StatsOverlay, STATS_OVERLAY_INTERVAL_MS } from './StatsOverlay';

afterEach(() => jest.useRealTimers());

it('reads every second while shown, shows rates between readings, and stops when hidden', async () => {
  jest.useFakeTimers();
  let n = 0;
  const read = jest.fn(async () => {
    n++;
    return {
      pingMs: 30,
      receiver: { ...emptyReceiverStats(n * 1000), rttMs: 20, width: 1280, height: 720, bytesReceived: n * 250_000, framesDecoded: n * 24, videoCodec: 'VP8' },
    };
  });
  const { unmount } = renderWithProviders(<StatsOverlay read={read} />);
  await act(async () => undefined);
  expect(read).toHaveBeenCalledTimes(1);
  expect(screen.getByRole('region', { name: '通信の統計' })).toBeInTheDocument();
  expect(screen.getByTestId('stats-rtt')).toHaveTextContent('20 ms（応答 30 ms）');
  expect(screen.getByTestId('stats-resolution')).toHaveTextContent('1280×720');
  expect(screen.getByTestId('stats-bitrate')).toHaveTextContent('—');

  await act(async () => {
    await jest.advanceTimersByTimeAsync(STATS_OVERLAY_INTERVAL_MS);
  });
  expect(read).toHaveBeenCalledTimes(2);
  expect(screen.getByTestId('stats-bitrate')).toHaveTextContent('2.00 Mbps');
  expect(screen.getByTestId('stats-fps')).toHaveTextContent('24 fps');
  expect(Number(screen.getByTestId('stats-fps').dataset.value)).toBeCloseTo(24);
  expect(screen.getByText('コーデック')).toBeInTheDocument();

  unmount();
  await act(async () => {
    await jest.advanceTimersByTimeAsync(5 * STATS_OVERLAY_INTERVAL_MS);
  });
  expect(read).toHaveBeenCalledTimes(2);
});

it('shows dashes while there is no connection to read', async () => {
  renderWithProviders(<StatsOverlay read={async () => null} />);
  await act(async () => undefined);
  expect(screen.getByTestId('stats-fps')).toHaveTextContent('—');
  expect(screen.getByTestId('stats-codec')).toHaveTextContent('—');
});
