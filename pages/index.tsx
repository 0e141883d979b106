import type { GetStaticProps } from 'next';
import Link from 'next/link';
import styled from 'styled-components';
import { PageHead } from '@/components/seo/PageHead';
import { PageContainer, Section, SectionTitle } from '@/components/ui/Page';
import { EmptyState } from '@/components/ui/EmptyState';
import { GameCardGrid } from '@/components/title/GameCardGrid';
import { listGameMeta, type GameMeta } from '@/lib/catalog/localCatalog';
import { media } from '@/styles/breakpoints';

const Hero = styled.section`
  padding: 40px 24px;
  margin-bottom: 32px;
  border-radius: 16px;
  background: linear-gradient(135deg, ${({ theme }) => theme.intense}, ${({ theme }) => theme.primary});
  color: #fff;
  h1 {
    margin: 0 0 8px;
    font-size: 1.8rem;
  }
  p {
    margin: 0;
    line-height: 1.8;
  }
  ${media.mobile} {
    padding: 28px 16px;
    h1 {
      font-size: 1.35rem;
    }
  }
`;

interface Props {
  games: GameMeta[];
}

export const getStaticProps: GetStaticProps<Props> = async () => ({
  props: { games: listGameMeta() },
  revalidate: 60,
});

export default function Home({ games }: Props) {
  return (
    <>
      <PageHead path="/" />
      <PageContainer>
        <Hero>
          <h1>ノベルゲームを、どこでも。</h1>
          <p>インストールもダウンロードも不要。スマートフォンでもパソコンでも、押してすぐに遊べます。</p>
        </Hero>
        <Section>
          <SectionTitle>新着タイトル</SectionTitle>
          {games.length ? (
            <GameCardGrid games={games} />
          ) : (
            <EmptyState title="まだ公開中のタイトルはありません">
              <p>公開準備が整いしだい、ここに新しいタイトルが並びます。</p>
            </EmptyState>
          )}
        </Section>
        <Section>
          <Link href="/search">タイトルをさがす</Link>
        </Section>
      </PageContainer>
    </>
  );
}
