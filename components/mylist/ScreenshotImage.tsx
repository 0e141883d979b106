import Image from 'next/image';
import styled from 'styled-components';
import { Spinner } from '@/components/ui/Spinner';
import { mayShow } from '@/lib/safecheck/ageGate';
import { useSafeCheck } from '@/lib/safecheck/useSafeCheck';
import type { AgeRating } from '@/lib/api-types/schemas/catalog';

const Frame = styled.div<{ $ratio: string }>`
  position: relative;
  width: 100%;
  aspect-ratio: ${({ $ratio }) => $ratio};
  overflow: hidden;
  border-radius: 8px;
  background: ${({ theme }) => theme.surfaceRaised};
  display: flex;
  align-items: center;
  justify-content: center;
  color: ${({ theme }) => theme.textMuted};
  font-size: 0.85rem;
  img {
    width: 100%;
    height: 100%;
    object-fit: contain;
  }
  img.blurred {
    filter: blur(24px) saturate(0.7);
    transform: scale(1.15);
  }
  .note {
    position: absolute;
    inset: auto 8px 8px;
    text-align: center;
    color: ${({ theme }) => theme.text};
  }
`;

interface Props {
  url: string | null;
  error: string | null;
  width: number;
  height: number;
  alt: string;
  ageRating?: AgeRating;
  priority?: boolean;
}

/**
 * A screenshot shown from its object URL (the optimiser cannot fetch it: it needs the bearer),
 * blurred while the safe check keeps the title's content back.
 */
export function ScreenshotImage({ url, error, width, height, alt, ageRating = 'all', priority }: Props) {
  const { state } = useSafeCheck();
  const blurred = !mayShow({ ageRating }, state);
  return (
    <Frame $ratio={`${width || 16} / ${height || 9}`} data-testid="screenshot-image">
      {url ? (
        <Image src={url} alt={blurred ? '' : alt} width={width || 1280} height={height || 720} unoptimized priority={priority} className={blurred ? 'blurred' : undefined} />
      ) : error ? (
        <span role="alert">{error}</span>
      ) : (
        <Spinner size="small" label="画像を読み込み中" />
      )}
      {url && blurred && <span className="note">年齢確認後に表示されます</span>}
    </Frame>
  );
}
