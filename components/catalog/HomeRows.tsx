/**
 * Home's rows: the featured title, continue playing (verified users), new, popular, the genres
 * and the magazine.
 */
import dynamic from 'next/dynamic';
import { Link } from '@/components/ui/Link';
import { Section, SectionTitle } from '@/components/ui/Page';
import { EmptyState } from '@/components/ui/EmptyState';
import type { Home } from '@/lib/api/catalog';
import { mayShow } from '@/lib/safecheck/ageGate';
import { useSafeCheck } from '@/lib/safecheck/useSafeCheck';
import { ArticleList } from './ArticleList';
import { FeaturedTitle } from './FeaturedTitle';
import { RowHead } from './layout';
import { TitleRow } from './TitleRow';
import { useAppSelector } from '@/store/hooks';
import { selectAuthState } from '@/store/slices/user';

/**
 * Continue playing is for verified users only and filled in on the client: its code (the row, the
 * play history's load, the api client) comes in its own chunk when such a user is known, not in
 * the home page's first load (issue 12).
 */
const ContinuePlaying = dynamic(() => import('@/components/mylist/ContinuePlaying').then((m) => m.ContinuePlaying), { ssr: false });

/**
 * Home's content: the featured title (the api's choice, or the newest title the safe check
 * shows when that one is age-rated and not yet allowed), continue playing, the rows, the magazine.
 */
export function HomeRows({ home }: { home: Home }) {
  const { state } = useSafeCheck();
  const verified = useAppSelector(selectAuthState) === 'verified';
  const featured = [home.featured, ...home.newTitles, ...home.popular].find((g) => g && mayShow(g, state)) ?? null;
  const empty = !featured && home.newTitles.length === 0 && home.popular.length === 0;
  return (
    <>
      {featured && <FeaturedTitle game={featured} />}
      {verified && <ContinuePlaying />}
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
