import { Link } from '@/components/ui/Link';
import { Section, SectionTitle } from '@/components/ui/Page';
import { visibleItems } from '@/lib/safecheck/ageGate';
import { useSafeCheck } from '@/lib/safecheck/useSafeCheck';
import type { GameSummary } from '@/lib/types/game';
import { GameCard } from './GameCard';
import { Row, RowHead } from './layout';

interface Props {
  title: string;
  games: GameSummary[];
  /** "もっと見る" target. */
  moreHref?: string;
  testId?: string;
}

/** A titled, sideways-scrolling row of titles; nothing at all when the safe check leaves none. */
export function TitleRow({ title, games, moreHref, testId }: Props) {
  const { state } = useSafeCheck();
  const { shown } = visibleItems(games, state);
  if (shown.length === 0) return null;
  return (
    <Section aria-label={title} data-testid={testId}>
      <RowHead>
        <SectionTitle>{title}</SectionTitle>
        {moreHref && <Link href={moreHref}>もっと見る</Link>}
      </RowHead>
      <Row>
        {shown.map((g) => (
          <li key={g.id}>
            <GameCard game={g} sizes="(max-width: 575px) 70vw, 260px" />
          </li>
        ))}
      </Row>
    </Section>
  );
}
