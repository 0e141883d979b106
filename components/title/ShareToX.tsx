import styled from 'styled-components';
import { buttonStyle, type ButtonStyleProps } from '@/components/ui/Button';
import { track } from '@/lib/analytics';
import { absoluteUrl } from '@/lib/seo/head';

const Share = styled.a<ButtonStyleProps>`
  ${buttonStyle}
`;

/** X's web intent with the title's name and its page URL (the site URL, never the current host). */
export function xShareUrl(title: string, id: string): string {
  const url = absoluteUrl(`/title/${encodeURIComponent(id)}`);
  return `https://twitter.com/intent/tweet?text=${encodeURIComponent(title)}&url=${encodeURIComponent(url)}`;
}

/** Share to X: opens the intent in a new tab, without giving it a handle on this page. */
export function ShareToX({ gameId, title }: { gameId: string; title: string }) {
  const href = xShareUrl(title, gameId);
  return (
    <Share href={href} target="_blank" rel="noopener noreferrer" $variant="normal" data-testid="share-x" onClick={() => track('outbound_link', { url: href, gameId })}>
      Xでシェア
    </Share>
  );
}
