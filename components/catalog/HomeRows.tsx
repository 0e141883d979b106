import { Link } from '@/components/ui/Link';
import { ContinuePlaying } from '@/components/mylist/ContinuePlaying';
import { Section, SectionTitle } from '@/components/ui/Page';
import { EmptyState } from '@/components/ui/EmptyState';
import type { Home } from '@/lib/api/catalog';
import { mayShow } from '@/lib/safecheck/ageGate';
import { useSafeCheck } from '@/lib/safecheck/useSafeCheck';
import { ArticleList } from './ArticleList';
import { FeaturedTitle } from './FeaturedTitle';
import { RowHead } from './layout';
import { TitleRow } from './TitleRow';

/**
 * Home's content: the featured title (the api's choice, or the newest title the safe check
 * shows when that one is age-rated and not yet allowed), continue playing, the rows, the magazine.
 */
export function HomeRows({ home }: { home: Home }) {
  const { state } = useSafeCheck();
  const featured = [home.featured, ...home.newTitles, ...home.popular].find((g) => g && mayShow(g, state)) ?? null;
  const empty = !featured && home.newTitles.length === 0 && home.popular.length === 0;
  return (
    <>
      {featured && <FeaturedTitle game={featured} />}
      <ContinuePlaying />
      {empty && (
        <EmptyState title="まだ公開中のタイトルはありません">
          <p>公開準備が整いしだい、ここに新しいタイトルが並びます。</p>
        </EmptyState>
      )}
      <TitleRow title="新着タイトル" games={home.newTitles} testId="row-new" />
      <TitleRow title="人気のタイトル" games={home.popular} testId="row-popular" />
      {home.genres.map((g) => (
        <TitleRow key={g.genre} title={g.genre} games={g.titles} moreHref={`/search?q=${encodeURIComponent(g.genre)}`} testId="row-genre" />
      ))}
      {home.articles.length > 0 && (
        <Section aria-label="マガジン" data-testid="row-magazine">
          <RowHead>
            <SectionTitle>マガジン</SectionTitle>
            <Link href="/magazine">記事をすべて見る</Link>
          </RowHead>
          <ArticleList articles={home.articles} row />
        </Section>
      )}
    </>
  );
}
