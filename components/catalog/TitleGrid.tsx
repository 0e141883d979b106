/**
 * A grid of title cards (search results, brand and magazine lists): the titles the safe check
 * lets through, a notice for the hidden ones, and what to show when none is left.
 */
import type { ReactNode } from 'react';
import { HiddenTitlesNotice } from '@/components/safecheck/HiddenTitlesNotice';
import { visibleItems } from '@/lib/safecheck/ageGate';
import { useSafeCheck } from '@/lib/safecheck/useSafeCheck';
import type { GameSummary } from '@/lib/types/game';
import { GameCard } from './GameCard';
import { Grid, PHONE_COLUMNS } from './layout';

/**
 * The `eager` of a grid at the top of its page: its first row on a phone (the widest screen that
 * matters for LCP under Lighthouse's mobile run), whose art is the page's largest paint.
 */
export const EAGER_FIRST_ROW = PHONE_COLUMNS;

interface Props {
  games: GameSummary[];
  /** Say how many age-rated titles are kept back, with the age question (search, brands). */
  noticeHidden?: boolean;
  testId?: string;
  /** Shown when nothing is left to show and no age question is pending (e.g. after いいえ). */
  empty?: ReactNode;
  /**
   * How many first cards load their art at once, preloaded at high priority: only for a grid at
   * the top of its page (`EAGER_FIRST_ROW`: the first row a phone shows). A grid further down
   * leaves it at 0, so its art does not compete with the page's largest picture (issue 12: the
   * title page's related titles took the bandwidth from its key art).
   */
  eager?: number;
}

/** A grid of titles, age-rated ones left out until the safe check allows them. */
export function TitleGrid({ games, noticeHidden, testId, empty, eager = 0 }: Props) {
  const { state } = useSafeCheck();
  const { shown, hidden } = visibleItems(games, state);
  return (
    <>
      {noticeHidden && <HiddenTitlesNotice count={hidden} />}
      {shown.length === 0 && (hidden === 0 || state !== 'ask') && empty}
      {shown.length > 0 && (
        <Grid data-testid={testId}>
          {shown.map((g, i) => (
            <li key={g.id}>
              <GameCard game={g} eager={i < eager} />
            </li>
          ))}
        </Grid>
      )}
    </>
  );
}
