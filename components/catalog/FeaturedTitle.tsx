import Image from 'next/image';
import { Link } from '@/components/ui/Link';
import styled from 'styled-components';
import { LinkButton } from '@/components/ui/Button';
import type { GameSummary } from '@/lib/types/game';
import { media } from '@/styles/breakpoints';
import { keyArt } from './cardStyle';

const Hero = styled.section`
  position: relative;
  display: grid;
  grid-template-columns: 3fr 2fr;
  gap: 24px;
  align-items: center;
  margin-bottom: 32px;
  padding: 16px;
  border-radius: 16px;
  background: ${({ theme }) => theme.surface};
  border: 1px solid ${({ theme }) => theme.border};
  ${keyArt}
  .art {
    border-radius: 12px;
  }
  .label {
    margin: 0 0 4px;
    font-size: 0.8rem;
    font-weight: 700;
    color: ${({ theme }) => theme.primary};
  }
  h2 {
    margin: 0 0 4px;
    font-size: 1.6rem;
  }
  .brand {
    margin: 0 0 12px;
    color: ${({ theme }) => theme.textMuted};
  }
  .lead {
    margin: 0 0 20px;
    line-height: 1.8;
    white-space: pre-line;
    display: -webkit-box;
    -webkit-line-clamp: 4;
    -webkit-box-orient: vertical;
    overflow: hidden;
  }
  .actions {
    display: flex;
    flex-wrap: wrap;
    gap: 12px;
  }
  ${media.tabletDown} {
    grid-template-columns: 1fr;
    gap: 12px;
    h2 {
      font-size: 1.3rem;
    }
  }
`;

/** Home's featured title: large key art, title, lead, play and detail buttons. */
export function FeaturedTitle({ game }: { game: GameSummary }) {
  const href = `/title/${encodeURIComponent(game.id)}`;
  return (
    <Hero aria-label="注目のタイトル" data-testid="featured-title">
      <Link href={href} tabIndex={-1} aria-hidden="true">
        <Image className="art" src={game.keyArt} alt="" width={1280} height={720} sizes="(max-width: 991px) 100vw, 700px" priority fetchPriority="high" />
      </Link>
      <div>
        <p className="label">注目のタイトル</p>
        <h2>{game.title}</h2>
        <p className="brand">{game.brand}</p>
        <p className="lead">{game.description}</p>
        <div className="actions">
          <LinkButton href={`/play/${encodeURIComponent(game.id)}`} $variant="primary" $size="large" data-testid="featured-play">
            プレイする
          </LinkButton>
          <LinkButton href={href} $size="large">
            詳しく見る
          </LinkButton>
        </div>
      </div>
    </Hero>
  );
}
