/**
 * A magazine article (`/magazine/[slug]`, issue 5): prerendered and regenerated every 60 s, its
 * Markdown rendered to HTML on the server (lib/catalog/markdownHtml.ts, issue 12), with the
 * titles it presents.
 */
import type { GetStaticPaths, GetStaticProps } from 'next';
import { Link } from '@/components/ui/Link';
import styled from 'styled-components';
import { tapTarget } from '@/styles/tapTarget';
import { PageHead } from '@/components/seo/PageHead';
import { PageContainer, Section, SectionTitle } from '@/components/ui/Page';
import { GatedImage } from '@/components/safecheck/GatedImage';
import { ArticleBody } from '@/components/catalog/ArticleBody';
import { TitleGrid } from '@/components/catalog/TitleGrid';
import { SearchWords } from '@/components/catalog/SearchResults';
import { fetchArticle, fetchTitle, type Article } from '@/lib/api/catalog';
import { formatDate } from '@/lib/catalog/format';
import { markdownToHtml } from '@/lib/catalog/markdownHtml';
import { isAgeRated, type GameSummary } from '@/lib/types/game';

const Cover = styled(GatedImage)`
  display: block;
  width: 100%;
  height: auto;
  aspect-ratio: 16 / 9;
  border-radius: 12px;
  margin-bottom: 20px;
`;

const Narrow = styled.article`
  max-width: 760px;
  margin: 0 auto;
  h1 {
    margin: 0 0 8px;
    font-size: 1.6rem;
    line-height: 1.45;
  }
  .lead {
    margin: 0 0 12px;
    font-size: 1.05rem;
    line-height: 1.8;
    color: ${({ theme }) => theme.textMuted};
  }
  .byline {
    margin: 0 0 16px;
    font-size: 0.85rem;
    color: ${({ theme }) => theme.textMuted};
    a {
      /* the text alone is 20 px */
      ${tapTarget}
    }
  }
`;

interface Props {
  /** The article without its Markdown: the page gets the body as the server's HTML. */
  article: Omit<Article, 'body'>;
  bodyHtml: string;
  games: GameSummary[];
}

/** Like title pages: built on first request (the api is not running during `next build`), then every 60 s. */
export const getStaticPaths: GetStaticPaths = async () => ({ paths: [], fallback: 'blocking' });

export const getStaticProps: GetStaticProps<Props, { slug: string }> = async ({ params }) => {
  const article = params?.slug ? await fetchArticle(params.slug) : null;
  if (!article) return { notFound: true, revalidate: 60 };
  const found = await Promise.all(article.gameIds.map((id) => fetchTitle(id)));
  const games = found.flatMap((f) => (f ? [f.title] : []));
  const { body, ...rest } = article;
  return { props: { article: rest, bodyHtml: markdownToHtml(body), games }, revalidate: 60 };
};

export default function ArticlePage({ article, bodyHtml, games }: Props) {
  const gated = isAgeRated(article);
  return (
    <>
      <PageHead title={article.title} description={article.lead} path={`/magazine/${article.slug}`} />
      <PageContainer>
        <Narrow>
          <p className="byline">
            <Link href="/magazine">マガジン</Link>
          </p>
          <Cover src={article.cover} alt="" width={1280} height={720} sizes="(max-width: 991px) 100vw, 760px" preload fetchPriority="high" ageRating={article.ageRating} withPanel />
          <h1>{article.title}</h1>
          <p className="lead">{article.lead}</p>
          <p className="byline">
            <time dateTime={article.publishedAt}>{formatDate(article.publishedAt)}</time>　文・{article.author}
            {gated && '　（18歳以上向けタイトルの記事です）'}
          </p>
          <ArticleBody html={bodyHtml} />
          {article.tags.length > 0 && <SearchWords words={article.tags} testId="article-tags" />}
        </Narrow>
        {games.length > 0 && (
          <Section style={{ marginTop: 40 }} data-testid="article-titles">
            <SectionTitle>この記事で紹介したタイトル</SectionTitle>
            <TitleGrid games={games} noticeHidden />
          </Section>
        )}
      </PageContainer>
    </>
  );
}
