import { useCallback, useSyncExternalStore } from 'react';
import { loadSafeCheck, saveSafeCheck, subscribeSafeCheck, type SafeCheck } from '@/lib/storage/safeCheck';
import { ageGateState, NOT_ASKED, OVER_18_ANSWER, UNDER_18_ANSWER, type AgeGateState } from './ageGate';

// useSyncExternalStore needs a stable snapshot: re-read local storage only after a change.
// Registered first, so it runs before any component's listener, even with none mounted.
let cached: SafeCheck | null = null;
subscribeSafeCheck(() => {
  cached = null;
});
const snapshot = () => (cached ??= loadSafeCheck());
const serverSnapshot = () => NOT_ASKED;

export interface UseSafeCheck {
  safeCheck: SafeCheck;
  state: AgeGateState;
  answerOver18: () => void;
  answerUnder18: () => void;
  /** Asks again (after いいえ): the stored answer is cleared. */
  askAgain: () => void;
}

/**
 * The device's safe check, shared by every component: an answer given anywhere, or the reset on
 * sign-out (lib/auth/listener → resetSafeCheck), re-renders all of them at once. On the server
 * and during hydration it is always "not asked", so server HTML never shows age-rated art.
 */
export function useSafeCheck(): UseSafeCheck {
  const safeCheck = useSyncExternalStore(subscribeSafeCheck, snapshot, serverSnapshot);
  const answerOver18 = useCallback(() => saveSafeCheck(OVER_18_ANSWER), []);
  const answerUnder18 = useCallback(() => saveSafeCheck(UNDER_18_ANSWER), []);
  const askAgain = useCallback(() => saveSafeCheck(NOT_ASKED), []);
  return { safeCheck, state: ageGateState(safeCheck), answerOver18, answerUnder18, askAgain };
}
