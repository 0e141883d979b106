/**
 * Page-head rules of spec section 2, as pure functions (components/seo/PageHead renders them).
 */
import type { NextSeoProps } from 'next-seo/pages';
import { config } from '@/lib/config';

export const DEFAULT_TITLE = `${config.siteName}（${config.siteNameJa}）| ノベルゲームを、どこでも。`;
export const DEFAULT_DESCRIPTION =
  'ユメキャストは、美少女ゲーム・ノベルゲームをインストール不要でスマートフォンやブラウザからすぐに遊べるゲームストリーミングサービスです。';
export const DEFAULT_SHARE_IMAGE = '/images/og-default.png';
export const DESCRIPTION_MAX = 140;

/** Line breaks removed, cut to the first 140 characters (code points, so no half emoji). */
export function cutDescription(text: string): string {
  return Array.from(text.replace(/[\r\n]+/g, '')).slice(0, DESCRIPTION_MAX).join('');
}

export function absoluteUrl(path: string): string {
  return /^https?:\/\//.test(path) ? path : `${config.siteUrl}${path.startsWith('/') ? '' : '/'}${path}`;
}

export interface GameHeadInput {
  id: string;
  title: string;
  description: string;
  keyArt?: string;
}

export interface HeadInput {
  /** A page title without the product name (e.g. "検索"). */
  title?: string;
  description?: string;
  game?: GameHeadInput;
  path?: string;
}

export function buildSeo(input: HeadInput, logEnable = config.logEnable): NextSeoProps {
  const { game } = input;
  const title = game
    ? `${game.title} | ${config.siteName}`
    : input.title
      ? `${input.title} | ${config.siteName}`
      : DEFAULT_TITLE;
  const description = cutDescription(game ? game.description : (input.description ?? DEFAULT_DESCRIPTION));
  const image = absoluteUrl(game?.keyArt || DEFAULT_SHARE_IMAGE);
  const canonical = game ? absoluteUrl(`/title/${encodeURIComponent(game.id)}`) : input.path ? absoluteUrl(input.path) : undefined;
  return {
    title,
    description,
    canonical,
    noindex: logEnable,
    nofollow: logEnable,
    openGraph: {
      type: 'website',
      siteName: config.siteName,
      locale: 'ja_JP',
      title,
      description,
      url: canonical,
      images: [{ url: image, alt: game?.title ?? config.siteName }],
    },
    twitter: { cardType: 'summary_large_image' },
  };
}

/** The site-search structured-data entry of the default head, pointing at /search?q=. */
export function siteSearchJsonLd(): Record<string, unknown> {
  return {
    '@context': 'https://schema.org',
    '@type': 'WebSite',
    name: config.siteName,
    alternateName: config.siteNameJa,
    url: `${config.siteUrl}/`,
    potentialAction: {
      '@type': 'SearchAction',
      target: { '@type': 'EntryPoint', urlTemplate: `${config.siteUrl}/search?q={search_term_string}` },
      'query-input': 'required name=search_term_string',
    },
  };
}

/** JSON for a <script type="application/ld+json">, safe against "</script>" in the data. */
export function jsonLdString(data: unknown): string {
  return JSON.stringify(data).replace(/</g, '\\u003c');
}
