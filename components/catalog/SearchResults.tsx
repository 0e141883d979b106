/**
 * What /search shows: the ranked results with "more", the no-match state with suggestions, and
 * before anything is typed the popular titles and genres to start from.
 */
import { Link } from '@/components/ui/Link';
import styled from 'styled-components';
import { Button } from '@/components/ui/Button';
import { EmptyState } from '@/components/ui/EmptyState';
import { Section, SectionTitle } from '@/components/ui/Page';
import type { SearchResult } from '@/lib/api/catalog';
import type { GameSummary } from '@/lib/types/game';
import { EAGER_FIRST_ROW, TitleGrid } from './TitleGrid';

const Words = styled.ul`
  display: flex;
  flex-wrap: wrap;
  justify-content: center;
  gap: 8px;
  list-style: none;
  padding: 0;
  margin: 0;
  a {
    display: inline-block;
    padding: 4px 12px;
    border-radius: 999px;
    background: ${({ theme }) => theme.surfaceRaised};
    color: ${({ theme }) => theme.text};
    text-decoration: none;
  }
`;

const More = styled.div`
  display: flex;
  justify-content: center;
  margin-top: 20px;
`;

/** Words as links to their own search. */
export function SearchWords({ words, testId }: { words: string[]; testId?: string }) {
  return (
    <Words data-testid={testId}>
      {words.map((w) => (
        <li key={w}>
          <Link href={{ pathname: '/search', query: { q: w } }}>{w}</Link>
        </li>
      ))}
    </Words>
  );
}

/** Nothing typed yet: popular titles and genres to start from. */
export function SearchStart({ popular, genres }: { popular: GameSummary[]; genres: string[] }) {
  return (
    <>
      <EmptyState title="タイトル名・ブランド・タグで検索できます">
        <p>ひらがなでもカタカナでも探せます。</p>
        {genres.length > 0 && <SearchWords words={genres} testId="search-genres" />}
      </EmptyState>
      {popular.length > 0 && (
        <Section style={{ marginTop: 32 }}>
          <SectionTitle>人気のタイトル</SectionTitle>
          <TitleGrid games={popular} testId="search-popular" eager={EAGER_FIRST_ROW} />
        </Section>
      )}
    </>
  );
}

interface ResultsProps {
  result: SearchResult;
  onMore: () => void;
  loadingMore: boolean;
}

function NoMatch({ result }: { result: SearchResult }) {
  return (
    <EmptyState title={`「${result.query}」に一致するタイトルは見つかりませんでした`}>
      <p>別のことばや、タイトルの一部で検索してみてください。</p>
      {result.suggestions.length > 0 && (
        <>
          <p>こちらのことばはいかがですか？</p>
          <SearchWords words={result.suggestions} testId="search-suggestions" />
        </>
      )}
    </EmptyState>
  );
}

/** Ranked results as the api returns them, with "more" while there is a next page. */
export function SearchResults({ result, onMore, loadingMore }: ResultsProps) {
  if (result.titles.length === 0) return <NoMatch result={result} />;
  return (
    <>
      <TitleGrid games={result.titles} noticeHidden testId="search-results" empty={<NoMatch result={result} />} eager={EAGER_FIRST_ROW} />
      {result.nextCursor && (
        <More>
          <Button onClick={onMore} disabled={loadingMore} data-testid="search-more">
            {loadingMore ? '読み込み中…' : 'もっと見る'}
          </Button>
        </More>
      )}
    </>
  );
}
