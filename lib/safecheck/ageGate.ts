/**
 * What the safe check (spec section 3) means for age-rated content, as pure functions.
 *
 * - はい (over 18) stores confirmed + over18 + isNSFWMode: isNSFWMode is "show age-rated
 *   content", which the answer turns on; everything age-rated shows at once.
 * - いいえ stores confirmed only: age-rated content stays hidden and blurred.
 * - Anything else (never asked, reset on sign-out, or isNSFWMode off) asks again.
 * The server cannot read local storage, so it always renders the "ask" state.
 */
import { DEFAULT_SAFE_CHECK, type SafeCheck } from '@/lib/storage/safeCheck';
import { isAgeRated } from '@/lib/types/game';
import type { AgeRating } from '@/lib/api-types/schemas/catalog';

export type AgeGateState = 'ask' | 'declined' | 'allowed';

export function ageGateState(s: SafeCheck): AgeGateState {
  if (s.confirmed && s.over18 && s.isNSFWMode) return 'allowed';
  if (s.confirmed && !s.over18) return 'declined';
  return 'ask';
}

export const OVER_18_ANSWER: SafeCheck = { confirmed: true, over18: true, isNSFWMode: true };
export const UNDER_18_ANSWER: SafeCheck = { confirmed: true, over18: false, isNSFWMode: false };
export const NOT_ASKED: SafeCheck = DEFAULT_SAFE_CHECK;

/** Whether one item (title, article) may be shown unblurred / listed. */
export function mayShow(item: { ageRating: AgeRating }, state: AgeGateState): boolean {
  return !isAgeRated(item) || state === 'allowed';
}

/** The items a list may show, and how many it keeps back. */
export function visibleItems<T extends { ageRating: AgeRating }>(items: T[], state: AgeGateState): { shown: T[]; hidden: number } {
  const shown = items.filter((i) => mayShow(i, state));
  return { shown, hidden: items.length - shown.length };
}
