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
import { Grid } from './layout';

interface Props {
  games: GameSummary[];
  /** Say how many age-rated titles are kept back, with the age question (search, brands). */
  noticeHidden?: boolean;
  testId?: string;
  /** Shown when nothing is left to show and no age question is pending (e.g. after いいえ). */
  empty?: ReactNode;
}

/** A grid of titles, age-rated ones left out until the safe check allows them. */
/** Cards whose art loads at once: the first row a phone shows (two columns). */
const EAGER_CARDS = 2;

export function TitleGrid({ games, noticeHidden, testId, empty }: Props) {
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
              <GameCard game={g} eager={i < EAGER_CARDS} />
            </li>
          ))}
        </Grid>
      )}
    </>
  );
}
