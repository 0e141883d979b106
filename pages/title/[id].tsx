import type { GetStaticPaths, GetStaticProps } from 'next';
import Image from 'next/image';
import Link from 'next/link';
import styled from 'styled-components';
import { PageHead } from '@/components/seo/PageHead';
import { PageContainer } from '@/components/ui/Page';
import { buttonStyle, type ButtonStyleProps } from '@/components/ui/Button';
import { listGameMeta, readGameMeta, type GameMeta } from '@/lib/catalog/localCatalog';
import { absoluteUrl } from '@/lib/seo/head';
import { config } from '@/lib/config';

const PlayLink = styled(Link)<ButtonStyleProps>`
  ${buttonStyle}
`;

const Tags = styled.ul`
  display: flex;
  flex-wrap: wrap;
  gap: 8px;
  list-style: none;
  padding: 0;
  margin: 12px 0 20px;
  li {
    padding: 2px 10px;
    border-radius: 999px;
    background: ${({ theme }) => theme.surfaceRaised};
    font-size: 0.85rem;
  }
`;

const KeyArt = styled(Image)`
  display: block;
  width: 100%;
  height: auto;
  max-width: 960px;
  aspect-ratio: 16 / 9;
  border-radius: 12px;
  margin-bottom: 16px;
`;

const Description = styled.p`
  white-space: pre-line;
  line-height: 1.9;
`;

interface Props {
  game: GameMeta;
}

export const getStaticPaths: GetStaticPaths = async () => ({
  paths: listGameMeta().map((g) => ({ params: { id: g.id } })),
  fallback: 'blocking',
});

export const getStaticProps: GetStaticProps<Props, { id: string }> = async ({ params }) => {
  const game = params ? readGameMeta(params.id) : null;
  if (!game) return { notFound: true, revalidate: 60 };
  return { props: { game }, revalidate: 60 };
};

function videoGameJsonLd(game: GameMeta) {
  return {
    '@context': 'https://schema.org',
    '@type': 'VideoGame',
    name: game.title,
    description: game.description,
    url: absoluteUrl(`/title/${game.id}`),
    image: absoluteUrl(game.keyArt),
    genre: game.genres,
    publisher: { '@type': 'Organization', name: game.brand },
    datePublished: game.releaseDate,
    inLanguage: 'ja',
    playMode: 'SinglePlayer',
    gamePlatform: ['Web browser', 'Smartphone'],
    provider: { '@type': 'Organization', name: config.siteName },
  };
}

export default function TitlePage({ game }: Props) {
  return (
    <>
      <PageHead game={game} jsonLd={videoGameJsonLd(game)} />
      <PageContainer>
        <KeyArt src={game.keyArt} alt={`${game.title}のキービジュアル`} width={1280} height={720} sizes="(max-width: 991px) 100vw, 960px" priority />
        <h1>{game.title}</h1>
        <p>
          <Link href={`/brand#${encodeURIComponent(game.brand)}`}>{game.brand}</Link>
        </p>
        <Tags aria-label="タグ">
          {game.tags.map((t) => (
            <li key={t}>{t}</li>
          ))}
        </Tags>
        <PlayLink href={`/play/${game.id}`} $variant="primary" $size="large" data-testid="play-button">
          プレイする
        </PlayLink>
        <Description>{game.description}</Description>
      </PageContainer>
    </>
  );
}
