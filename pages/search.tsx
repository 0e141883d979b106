import type { GetServerSideProps } from 'next';
import { RoutePage } from '@/components/layout/RoutePage';
import { EmptyState } from '@/components/ui/EmptyState';
import { GameCardGrid } from '@/components/title/GameCardGrid';
import { SearchBox } from '@/components/title/SearchBox';
import { listGameMeta, type GameMeta } from '@/lib/catalog/localCatalog';

interface Props {
  q: string;
  results: GameMeta[];
}

export const getServerSideProps: GetServerSideProps<Props> = async ({ query }) => {
  const q = typeof query.q === 'string' ? query.q.slice(0, 100) : '';
  const needle = q.trim().normalize('NFKC').toLowerCase();
  const results = needle
    ? listGameMeta().filter((g) =>
        [g.title, g.reading, g.brand, g.description, ...g.tags].some((f) => f.normalize('NFKC').toLowerCase().includes(needle)),
      )
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
