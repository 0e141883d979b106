/**
 * A title's card in the catalogue's lists (grids and rows): its key art, title, brand and age
 * badge, one link to the title page.
 */
import Image from 'next/image';
import { Link } from '@/components/ui/Link';
import styled from 'styled-components';
import type { GameSummary } from '@/lib/types/game';
import { AgeBadge } from './AgeBadge';
import { cardFrame, keyArt } from './cardStyle';

/** Card widths: two columns on phones, three on tablets, about 300 px otherwise. */
export const CARD_SIZES = '(max-width: 575px) 50vw, (max-width: 991px) 33vw, 300px';

const Card = styled(Link)`
  ${cardFrame}
  ${keyArt}
  .meta {
    padding: 8px 10px 12px;
  }
  .title {
    font-weight: 700;
    margin: 0;
  }
  .brand {
    margin: 2px 0 0;
    font-size: 0.8rem;
    color: ${({ theme }) => theme.textMuted};
  }
`;

/**
 * One title in a list. Lists pass only titles the safe check lets through (TitleGrid, TitleRow),
 * so the card itself shows its art as is. `eager` for the first cards of a page's first list:
 * their art is what a phone shows first (the page's largest paint, e.g. /search's), so it is not
 * lazy-loaded, is fetched at high priority and is preloaded from the head: the browser asks for
 * it before the page's scripts, not after them (issue 12: behind ten scripts on HTTP/1.1's six
 * connections, /search's first card was the last request to start).
 */
export function GameCard({ game, sizes = CARD_SIZES, eager = false }: { game: GameSummary; sizes?: string; eager?: boolean }) {
  return (
    <Card href={`/title/${encodeURIComponent(game.id)}`} data-testid="game-card" data-game-id={game.id}>
      <Image className="art" src={game.keyArt} alt="" width={1280} height={720} sizes={sizes} {...(eager ? { preload: true, fetchPriority: 'high' } : {})} />
      <div className="meta">
        <p className="title">{game.title}</p>
        <p className="brand">{game.brand}</p>
        {game.ageRating !== 'all' && <AgeBadge rating={game.ageRating} />}
      </div>
    </Card>
  );
}
