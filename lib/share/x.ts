/**
 * Sharing to X (Twitter): the web intent URL with a text and a title's page. One builder for the
 * title page's share button (components/title/ShareToX) and the screenshot share fallback
 * (lib/mylist/share). The page URL is the site's (absoluteUrl), never the current host.
 */
import { absoluteUrl } from '@/lib/seo/head';

/** X's web intent with the text and the title's page URL. */
export function xShareUrl(text: string, gameId: string): string {
  const url = absoluteUrl(`/title/${encodeURIComponent(gameId)}`);
  return `https://twitter.com/intent/tweet?text=${encodeURIComponent(text)}&url=${encodeURIComponent(url)}`;
}
