/**
 * A list of magazine articles: a grid on the magazine page, a sideways row on home; articles
 * about age-rated titles are left out until the safe check allows them.
 */
import { HiddenTitlesNotice } from '@/components/safecheck/HiddenTitlesNotice';
import type { ArticleSummary } from '@/lib/api/catalog';
import { visibleItems } from '@/lib/safecheck/ageGate';
import { useSafeCheck } from '@/lib/safecheck/useSafeCheck';
import { ArticleCard } from './ArticleCard';
import { Grid, Row } from './layout';

interface Props {
  articles: ArticleSummary[];
  /** A sideways row (home) instead of a grid (the magazine page). */
  row?: boolean;
  noticeHidden?: boolean;
}

/** Articles, those about age-rated titles left out until the safe check allows them. */
export function ArticleList({ articles, row, noticeHidden }: Props) {
  const { state } = useSafeCheck();
  const { shown, hidden } = visibleItems(articles, state);
  const List = row ? Row : Grid;
  return (
    <>
      {noticeHidden && <HiddenTitlesNotice count={hidden} what="記事" />}
      {shown.length > 0 && (
        <List data-testid="article-list">
          {shown.map((a) => (
            <li key={a.slug}>
              {/* Home's row sits under its own h2; the magazine page's grid right under the h1. */}
              <ArticleCard article={a} sizes={row ? '(max-width: 575px) 70vw, 260px' : undefined} headingLevel={row ? 3 : 2} />
            </li>
          ))}
        </List>
      )}
    </>
  );
}
