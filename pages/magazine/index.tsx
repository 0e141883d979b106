import type { GetServerSideProps } from 'next';
import { Link } from '@/components/ui/Link';
import styled from 'styled-components';
import { RoutePage } from '@/components/layout/RoutePage';
import { EmptyState } from '@/components/ui/EmptyState';
import { ArticleList } from '@/components/catalog/ArticleList';
import { CatalogError } from '@/components/catalog/CatalogError';
import { catalogErrorMessage, fetchArticles, type ArticleSummary } from '@/lib/api/catalog';

/** Articles per page of the list. */
export const MAGAZINE_PAGE_SIZE = 12;

const Pager = styled.nav`
  display: flex;
  justify-content: space-between;
  margin-top: 24px;
`;

type Props = { articles: ArticleSummary[]; nextCursor: string | null; paged: boolean; error: null } | { articles: null; nextCursor: null; paged: boolean; error: string };

/** Per request, with the page's cursor in the URL (?cursor=), so every page is a link. */
export const getServerSideProps: GetServerSideProps<Props> = async ({ query }) => {
  const cursor = typeof query.cursor === 'string' && query.cursor.length <= 200 ? query.cursor : null;
  try {
    const page = await fetchArticles({ cursor, limit: MAGAZINE_PAGE_SIZE });
    return { props: { articles: page.items, nextCursor: page.nextCursor, paged: !!cursor, error: null } };
  } catch (e) {
    return { props: { articles: null, nextCursor: null, paged: !!cursor, error: catalogErrorMessage(e) } };
  }
};

export default function Magazine({ articles, nextCursor, paged, error }: Props) {
  return (
    <RoutePage title="マガジン" path="/magazine" description="ユメキャストのタイトルを紹介するレビュー、インタビュー、特集記事。">
      {!articles ? (
        <CatalogError message={error} />
      ) : articles.length === 0 ? (
        <EmptyState title="まだ記事はありません">
          <p>レビューや特集記事を準備中です。</p>
        </EmptyState>
      ) : (
        <ArticleList articles={articles} noticeHidden />
      )}
      {(paged || nextCursor) && (
        <Pager aria-label="ページ送り">
          {paged ? <Link href="/magazine">最新の記事へ</Link> : <span />}
          {nextCursor && (
            <Link href={{ pathname: '/magazine', query: { cursor: nextCursor } }} data-testid="magazine-next">
              過去の記事へ
            </Link>
          )}
        </Pager>
      )}
    </RoutePage>
  );
}
