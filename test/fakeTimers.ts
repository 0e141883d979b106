/**
 * Jest's fake timers for unit tests, put back whatever the test does: `withFakeTimers` runs a
 * test body with them (a failing assertion no longer leaves the next test on fake time);
 * `settle` lets pending promises and the renders they cause finish; `advance` moves fake time
 * on inside React's act. Used by the purchase forms' "never loads" tests and the play
 * controller's timing tests.
 */
import { act } from '@testing-library/react';

/** Runs `body` on fake timers, then back to real ones. */
export async function withFakeTimers(body: () => Promise<void> | void, config?: Parameters<typeof jest.useFakeTimers>[0]): Promise<void> {
  jest.useFakeTimers(config);
  try {
    await body();
  } finally {
    jest.useRealTimers();
  }
}

/** Lets pending promises, and the renders they cause, settle: `rounds` turns of act. */
export async function settle(rounds = 1): Promise<void> {
  for (let i = 0; i < rounds; i += 1) await act(async () => undefined);
}

/** Moves fake time on by `ms`, inside act (React applies the state the timers set). */
export function advance(ms: number): void {
  act(() => {
    jest.advanceTimersByTime(ms);
  });
}
