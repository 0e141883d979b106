import type { GetServerSideProps } from 'next';
import { RoutePage } from '@/components/layout/RoutePage';
import { EmptyState } from '@/components/ui/EmptyState';
import { GameCardGrid } from '@/components/title/GameCardGrid';
import { SearchBox } from '@/components/title/SearchBox';
import { listGameMeta, type GameMeta } from '@/lib/catalog/localCatalog';
import { normalizeForSearch, searchTerms } from '@/lib/search/normalize';

interface Props {
  q: string;
  results: GameMeta[];
}

export const getServerSideProps: GetServerSideProps<Props> = async ({ query }) => {
  const q = typeof query.q === 'string' ? query.q.slice(0, 100) : '';
  const terms = searchTerms(q);
  const results = terms.length
    ? listGameMeta().filter((g) => {
        const hay = normalizeForSearch([g.title, g.reading, g.brand, g.brandReading, g.description, ...g.tags].join(' '));
        return terms.every((t) => hay.includes(t));
      })
    : [];
  return { props: { q, results } };
};

export default function Search({ q, results }: Props) {
  return (
    <RoutePage title={q ? `「${q}」の検索結果` : '検索'} path="/search">
      <SearchBox initial={q} />
      {!q.trim() ? (
        <EmptyState title="タイトル名・ブランド・タグで検索できます">
          <p>ひらがなでもカタカナでも探せます。</p>
        </EmptyState>
      ) : results.length ? (
        <GameCardGrid games={results} />
      ) : (
        <EmptyState title={`「${q}」に一致するタイトルは見つかりませんでした`}>
          <p>別のことばや、タイトルの一部で検索してみてください。</p>
        </EmptyState>
      )}
    </RoutePage>
  );
}
