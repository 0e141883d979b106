import type { GetServerSideProps } from 'next';
import Link from 'next/link';
import styled from 'styled-components';
import { PageHead } from '@/components/seo/PageHead';
import { PageContainer, Section } from '@/components/ui/Page';
import { CatalogError } from '@/components/catalog/CatalogError';
import { HomeRows } from '@/components/catalog/HomeRows';
import { catalogErrorMessage, fetchHome, type Home as HomeData } from '@/lib/api/catalog';
import { useGameList } from '@/lib/catalog/useGameList';

const Intro = styled.h1`
  margin: 0 0 16px;
  font-size: 1.1rem;
  font-weight: 700;
  color: ${({ theme }) => theme.textMuted};
`;

const Links = styled(Section)`
  display: flex;
  flex-wrap: wrap;
  gap: 16px;
`;

type Props = { home: HomeData; error: null } | { home: null; error: string };

export const getServerSideProps: GetServerSideProps<Props> = async () => {
  try {
    return { props: { home: await fetchHome(), error: null } };
  } catch (e) {
    return { props: { home: null, error: catalogErrorMessage(e) } };
  }
};

export default function Home({ home, error }: Props) {
  useGameList();
  return (
    <>
      <PageHead path="/" />
      <PageContainer>
        <Intro>ノベルゲームを、どこでも。インストール不要で、押してすぐに遊べます。</Intro>
        {home ? <HomeRows home={home} /> : <CatalogError message={error} />}
        <Links>
          <Link href="/search">タイトルをさがす</Link>
          <Link href="/brand">ブランド一覧</Link>
          <Link href="/magazine">マガジン</Link>
        </Links>
      </PageContainer>
    </>
  );
}
