/**
 * Home (`/`, spec section 2): the catalogue's rows, served as prerendered HTML regenerated in the
 * background (ISR, issue 12: thousands of requests a second, no render per visitor). The per-user
 * rows (continue playing) are filled in on the client (components/mylist/ContinuePlaying).
 */
import type { GetStaticProps } from 'next';
import { PHASE_PRODUCTION_BUILD } from 'next/constants';
import { Link } from '@/components/ui/Link';
import styled from 'styled-components';
import { PageHead } from '@/components/seo/PageHead';
import { PageContainer, Section } from '@/components/ui/Page';
import { CatalogError } from '@/components/catalog/CatalogError';
import { HomeRows } from '@/components/catalog/HomeRows';
import { catalogErrorMessage, fetchHome, type Home as HomeData } from '@/lib/api/catalog';

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

/** Seconds a built home page is served before it is regenerated (as the title pages). */
export const HOME_REVALIDATE_S = 60;

/**
 * The api is not running while `next build` runs: the build's page is the Japanese error,
 * regenerated on the first request a second later (the local stack asks for it before it says
 * it is ready, scripts/stack/stack.ts). After that an api failure throws, so Next keeps serving
 * the last good page and tries again on the next request.
 */
export const getStaticProps: GetStaticProps<Props> = async () => {
  try {
    return { props: { home: await fetchHome(), error: null }, revalidate: HOME_REVALIDATE_S };
  } catch (e) {
    if (process.env.NEXT_PHASE !== PHASE_PRODUCTION_BUILD) throw e;
    return { props: { home: null, error: catalogErrorMessage(e) }, revalidate: 1 };
  }
};

export default function Home({ home, error }: Props) {
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
