import type { GetStaticPaths, GetStaticProps } from 'next';
import styled from 'styled-components';
import { PageHead } from '@/components/seo/PageHead';
import { PageContainer, Section, SectionTitle } from '@/components/ui/Page';
import { GatedImage } from '@/components/safecheck/GatedImage';
import { TitleGrid } from '@/components/catalog/TitleGrid';
import { ScreenshotStrip } from '@/components/title/ScreenshotStrip';
import { TitleActions } from '@/components/title/TitleActions';
import { TitleFacts } from '@/components/title/TitleFacts';
import { TitleLicense } from '@/components/title/TitleLicense';
import { fetchTitle, type TitleDetail } from '@/lib/api/catalog';
import { absoluteUrl } from '@/lib/seo/head';
import { config } from '@/lib/config';
import { isAgeRated, type GameSummary } from '@/lib/types/game';

const KeyArt = styled(GatedImage)`
  display: block;
  width: 100%;
  height: auto;
  max-width: 960px;
  aspect-ratio: 16 / 9;
  border-radius: 12px;
  margin-bottom: 16px;
`;

const Title = styled.h1`
  margin: 0 0 4px;
  font-size: 1.6rem;
`;

const Reading = styled.p`
  margin: 0 0 16px;
  font-size: 0.85rem;
  color: ${({ theme }) => theme.textMuted};
`;

const Description = styled.p`
  white-space: pre-line;
  line-height: 1.9;
  max-width: 760px;
`;

interface Props {
  game: TitleDetail;
  related: GameSummary[];
}

/** No paths at build time: the api is not running while `next build` runs; pages build on first request. */
export const getStaticPaths: GetStaticPaths = async () => ({ paths: [], fallback: 'blocking' });

/**
 * An api failure throws: Next keeps serving the last good page of a known title, and a title
 * never built yet gets the Japanese error page (docs/web-catalogue.md).
 */
export const getStaticProps: GetStaticProps<Props, { id: string }> = async ({ params }) => {
  const found = params?.id ? await fetchTitle(params.id) : null;
  if (!found) return { notFound: true, revalidate: 60 };
  return { props: { game: found.title, related: found.related }, revalidate: 60 };
};

function videoGameJsonLd(game: TitleDetail) {
  return {
    '@context': 'https://schema.org',
    '@type': 'VideoGame',
    name: game.title,
    alternateName: game.reading,
    description: game.description,
    url: absoluteUrl(`/title/${game.id}`),
    // Age-rated art never leaves in server HTML, share cards included (the default image instead).
    image: isAgeRated(game) ? undefined : absoluteUrl(game.keyArt),
    genre: game.genres,
    keywords: game.tags.join(','),
    publisher: { '@type': 'Organization', name: game.brand },
    datePublished: game.releaseDate,
    contentRating: game.ageRating === 'r18' ? '18歳以上' : game.ageRating === 'r15' ? '15歳以上' : '全年齢',
    inLanguage: 'ja',
    playMode: 'SinglePlayer',
    gamePlatform: ['Web browser', 'Smartphone'],
    provider: { '@type': 'Organization', name: config.siteName },
  };
}

export default function TitlePage({ game, related }: Props) {
  return (
    <>
      <PageHead game={{ ...game, keyArt: isAgeRated(game) ? undefined : game.keyArt }} jsonLd={videoGameJsonLd(game)} />
      <PageContainer>
        <KeyArt
          src={game.keyArt}
          alt={`${game.title}のキービジュアル`}
          width={1280}
          height={720}
          sizes="(max-width: 991px) 100vw, 960px"
          priority
          fetchPriority="high"
          ageRating={game.ageRating}
          withPanel
        />
        <Title>{game.title}</Title>
        <Reading>{game.reading}</Reading>
        <TitleActions game={game} />
        <Description data-testid="title-description">{game.description}</Description>
        <TitleFacts game={game} />
        <Section>
          <SectionTitle>スクリーンショット</SectionTitle>
          <ScreenshotStrip shots={game.screenshots} ageRating={game.ageRating} />
        </Section>
        {game.license && <TitleLicense license={game.license} />}
        {related.length > 0 && (
          <Section data-testid="related-titles">
            <SectionTitle>関連タイトル</SectionTitle>
            <TitleGrid games={related} />
          </Section>
        )}
      </PageContainer>
    </>
  );
}
