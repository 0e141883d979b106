/** The title page's "share to X" button: X's web intent for the title (lib/share/x). */
import styled from 'styled-components';
import { buttonStyle, type ButtonStyleProps } from '@/components/ui/Button';
import { track } from '@/lib/analytics';
import { xShareUrl } from '@/lib/share/x';

const Share = styled.a<ButtonStyleProps>`
  ${buttonStyle}
`;

/** Share to X: opens the intent in a new tab, without giving it a handle on this page. */
export function ShareToX({ gameId, title }: { gameId: string; title: string }) {
  const href = xShareUrl(title, gameId);
  return (
    <Share href={href} target="_blank" rel="noopener noreferrer" $variant="normal" data-testid="share-x" onClick={() => track('outbound_link', { url: href, gameId })}>
      Xでシェア
    </Share>
  );
}
