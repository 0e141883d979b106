import { Link } from '@/components/ui/Link';
import styled from 'styled-components';
import { AgeBadge } from '@/components/catalog/AgeBadge';
import { PremiumBadge } from '@/components/purchase/PremiumBadge';
import { FactList } from '@/components/ui/Panel';
import type { TitleDetail } from '@/lib/api/catalog';
import { formatDate } from '@/lib/catalog/format';

const Chips = styled.ul`
  display: flex;
  flex-wrap: wrap;
  gap: 8px;
  list-style: none;
  padding: 0;
  margin: 0;
  a,
  span {
    display: inline-block;
    padding: 2px 10px;
    border-radius: 999px;
    background: ${({ theme }) => theme.surfaceRaised};
    color: ${({ theme }) => theme.text};
    font-size: 0.85rem;
    text-decoration: none;
  }
`;

/** Brand, genres, tags (each a search), release date, age rating and, for a premium title, its badge. */
export function TitleFacts({ game }: { game: TitleDetail }) {
  return (
    <FactList>
      <dt>ブランド</dt>
      <dd>
        <Link href={`/brand#${encodeURIComponent(game.brandId)}`} data-testid="brand-link">
          {game.brand}
        </Link>
      </dd>
      <dt>ジャンル</dt>
      <dd>
        <Chips aria-label="ジャンル">
          {game.genres.map((g) => (
            <li key={g}>
              <span>{g}</span>
            </li>
          ))}
        </Chips>
      </dd>
      <dt>タグ</dt>
      <dd>
        <Chips aria-label="タグ" data-testid="tags">
          {game.tags.map((t) => (
            <li key={t}>
              <Link href={{ pathname: '/search', query: { q: t } }}>{t}</Link>
            </li>
          ))}
        </Chips>
      </dd>
      <dt>発売日</dt>
      <dd>
        <time dateTime={game.releaseDate}>{formatDate(game.releaseDate)}</time>
      </dd>
      <dt>対象年齢</dt>
      <dd>
        <AgeBadge rating={game.ageRating} />
      </dd>
      {game.premium && (
        <>
          <dt>ご利用条件</dt>
          <dd>
            <PremiumBadge /> プレミアムプラン会員限定
          </dd>
        </>
      )}
    </FactList>
  );
}
