/**
 * The brands page (`/brand`): every brand with its reading, description and titles, rendered per
 * request; the first brand's first row of art is the page's largest paint on a phone.
 */
import type { GetServerSideProps } from 'next';
import styled from 'styled-components';
import { RoutePage } from '@/components/layout/RoutePage';
import { Section, SectionTitle } from '@/components/ui/Page';
import { EmptyState } from '@/components/ui/EmptyState';
import { CatalogError } from '@/components/catalog/CatalogError';
import { EAGER_FIRST_ROW, TitleGrid } from '@/components/catalog/TitleGrid';
import { catalogErrorMessage, fetchBrands, type Brand } from '@/lib/api/catalog';

const BrandSection = styled(Section)`
  scroll-margin-top: 72px;
  .reading {
    margin: -8px 0 8px;
    font-size: 0.8rem;
    color: ${({ theme }) => theme.textMuted};
  }
  .description {
    margin: 0 0 16px;
    line-height: 1.8;
    white-space: pre-line;
  }
`;

type Props = { brands: Brand[]; error: null } | { brands: null; error: string };

/** Rendered per request like home: the brands change only with the catalogue, and the page is small. */
export const getServerSideProps: GetServerSideProps<Props> = async () => {
  try {
    return { props: { brands: await fetchBrands(), error: null } };
  } catch (e) {
    return { props: { brands: null, error: catalogErrorMessage(e) } };
  }
};

export default function BrandPage({ brands, error }: Props) {
  return (
    <RoutePage title="ブランド" path="/brand" description="ユメキャストで遊べるノベルゲームのブランドと、その作品の一覧です。">
      {!brands ? (
        <CatalogError message={error} />
      ) : brands.length === 0 ? (
        <EmptyState title="まだ掲載中のブランドはありません" />
      ) : (
        brands.map((b, i) => (
          <BrandSection key={b.id} id={b.id} data-testid="brand-section">
            <SectionTitle>{b.name}</SectionTitle>
            <p className="reading">{b.reading}</p>
            {b.description && <p className="description">{b.description}</p>}
            {b.titles.length > 0 ? <TitleGrid games={b.titles} noticeHidden eager={i === 0 ? EAGER_FIRST_ROW : 0} /> : <p>掲載中のタイトルはまだありません。</p>}
          </BrandSection>
        ))
      )}
    </RoutePage>
  );
}
