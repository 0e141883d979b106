import Head from 'next/head';
import { generateNextSeo } from 'next-seo/pages';
import { buildSeo, jsonLdString, siteSearchJsonLd, type HeadInput } from '@/lib/seo/head';

export interface PageHeadProps extends HeadInput {
  /** Extra structured data (for example a VideoGame entry on a title page). */
  jsonLd?: Record<string, unknown>;
}

/**
 * The head of every page. With a game it is the game head; without one it is the default
 * head, which also carries the site-search structured data.
 */
export function PageHead({ jsonLd, ...input }: PageHeadProps) {
  const structured = jsonLd ?? (input.game ? undefined : siteSearchJsonLd());
  return (
    <Head>
      {generateNextSeo(buildSeo(input))}
      {structured && (
        <script
          key="jsonld"
          type="application/ld+json"
          dangerouslySetInnerHTML={{ __html: jsonLdString(structured) }}
        />
      )}
    </Head>
  );
}
