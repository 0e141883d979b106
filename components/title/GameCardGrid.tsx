import Image from 'next/image';
import Link from 'next/link';
import styled from 'styled-components';
import type { GameSummary } from '@/lib/types/game';
import { media } from '@/styles/breakpoints';

const Grid = styled.ul`
  display: grid;
  grid-template-columns: repeat(4, 1fr);
  gap: 16px;
  list-style: none;
  margin: 0;
  padding: 0;
  ${media.tabletDown} {
    grid-template-columns: repeat(3, 1fr);
  }
  ${media.mobile} {
    grid-template-columns: repeat(2, 1fr);
    gap: 10px;
  }
`;

const Card = styled(Link)`
  display: block;
  text-decoration: none;
  color: ${({ theme }) => theme.text};
  border-radius: 12px;
  overflow: hidden;
  background: ${({ theme }) => theme.surface};
  border: 1px solid ${({ theme }) => theme.border};
  .art {
    display: block;
    width: 100%;
    height: auto;
    aspect-ratio: 16 / 9;
    background: ${({ theme }) => theme.surfaceRaised};
  }
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

export function GameCardGrid({ games }: { games: GameSummary[] }) {
  return (
    <Grid>
      {games.map((g) => (
        <li key={g.id}>
          <Card href={`/title/${g.id}`} data-testid="game-card">
            <Image className="art" src={g.keyArt} alt="" width={1280} height={720} sizes="(max-width: 575px) 50vw, (max-width: 991px) 33vw, 300px" />
            <div className="meta">
              <p className="title">{g.title}</p>
              <p className="brand">{g.brand}</p>
            </div>
          </Card>
        </li>
      ))}
    </Grid>
  );
}
