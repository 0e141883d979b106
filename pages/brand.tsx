import type { GetStaticProps } from 'next';
import { RoutePage } from '@/components/layout/RoutePage';
import { Section, SectionTitle } from '@/components/ui/Page';
import { EmptyState } from '@/components/ui/EmptyState';
import { GameCardGrid } from '@/components/title/GameCardGrid';
import { listGameMeta, type GameMeta } from '@/lib/catalog/localCatalog';

interface Props {
  brands: { name: string; games: GameMeta[] }[];
}

export const getStaticProps: GetStaticProps<Props> = async () => {
  const byBrand = new Map<string, GameMeta[]>();
  for (const g of listGameMeta()) byBrand.set(g.brand, [...(byBrand.get(g.brand) ?? []), g]);
  return { props: { brands: [...byBrand].map(([name, games]) => ({ name, games })) }, revalidate: 60 };
};

export default function Brand({ brands }: Props) {
  return (
    <RoutePage title="ブランド" path="/brand">
      {brands.length === 0 && <EmptyState title="まだ掲載中のブランドはありません" />}
      {brands.map((b) => (
        <Section key={b.name} id={b.name}>
          <SectionTitle>{b.name}</SectionTitle>
          <GameCardGrid games={b.games} />
        </Section>
      ))}
    </RoutePage>
  );
}
