/**
 * One magazine article as a card: cover, title, lead and date, the whole card one link. Its
 * title is a heading one level below the list's (h2 on the magazine page, h3 in home's row).
 */
import Image from 'next/image';
import { Link } from '@/components/ui/Link';
import styled from 'styled-components';
import type { ArticleSummary } from '@/lib/api/catalog';
import { formatDate } from '@/lib/catalog/format';
import { cardFrame, keyArt } from './cardStyle';
import { CARD_SIZES } from './GameCard';

const Card = styled(Link)`
  ${cardFrame}
  ${keyArt}
  .meta {
    padding: 10px 12px 14px;
  }
  .title {
    margin: 0 0 6px;
    font-size: 1rem;
    line-height: 1.5;
  }
  .lead {
    margin: 0 0 6px;
    font-size: 0.85rem;
    line-height: 1.6;
    color: ${({ theme }) => theme.textMuted};
  }
  time {
    font-size: 0.8rem;
    color: ${({ theme }) => theme.textMuted};
  }
`;

/** One magazine article in a list (lists pass only articles the safe check lets through). */
export function ArticleCard({ article, sizes = CARD_SIZES, headingLevel = 3 }: { article: ArticleSummary; sizes?: string; headingLevel?: 2 | 3 }) {
  const Title = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <Card href={`/magazine/${encodeURIComponent(article.slug)}`} data-testid="article-card" data-slug={article.slug}>
      <Image className="art" src={article.cover} alt="" width={1280} height={720} sizes={sizes} />
      <div className="meta">
        <Title className="title">{article.title}</Title>
        <p className="lead">{article.lead}</p>
        <time dateTime={article.publishedAt}>{formatDate(article.publishedAt)}</time>
      </div>
    </Card>
  );
}
