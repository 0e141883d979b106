import Image from 'next/image';
import Link from 'next/link';
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
  h3 {
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
export function ArticleCard({ article, sizes = CARD_SIZES }: { article: ArticleSummary; sizes?: string }) {
  return (
    <Card href={`/magazine/${encodeURIComponent(article.slug)}`} data-testid="article-card" data-slug={article.slug}>
      <Image className="art" src={article.cover} alt="" width={1280} height={720} sizes={sizes} />
      <div className="meta">
        <h3>{article.title}</h3>
        <p className="lead">{article.lead}</p>
        <time dateTime={article.publishedAt}>{formatDate(article.publishedAt)}</time>
      </div>
    </Card>
  );
}
