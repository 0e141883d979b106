import Image, { type ImageProps } from 'next/image';
import styled from 'styled-components';
import type { AgeRating } from '@/lib/api-types/schemas/catalog';
import { mayShow } from '@/lib/safecheck/ageGate';
import { useSafeCheck } from '@/lib/safecheck/useSafeCheck';
import { AgeGatePanel } from './AgeGatePanel';

/** Width of the stand-in picture (fixed: its srcset holds only 1x and 2x of it), so no more of the art than this reaches an unconfirmed browser. */
const BLUR_WIDTH = 16;

const Frame = styled.div`
  position: relative;
  overflow: hidden;
  .blurred {
    display: block;
    width: 100%;
    height: auto;
    filter: blur(24px) saturate(0.7);
    transform: scale(1.15);
  }
  .gate {
    position: absolute;
    inset: 0;
    display: flex;
    align-items: center;
    justify-content: center;
    padding: 12px;
  }
`;

interface Props extends Omit<ImageProps, 'alt'> {
  alt: string;
  ageRating: AgeRating;
  /** Show the はい/いいえ panel over the blurred picture (the page's main art). */
  withPanel?: boolean;
  compactPanel?: boolean;
}

/**
 * An image of an age-rated title: the full picture once the user has confirmed being over 18;
 * until then (and always in server HTML) a 16 px version, blurred, under the age panel.
 */
export function GatedImage({ ageRating, withPanel, compactPanel, width, height, className, alt, ...rest }: Props) {
  const { state } = useSafeCheck();
  if (mayShow({ ageRating }, state)) return <Image className={className} width={width} height={height} alt={alt} {...rest} />;
  const h = Math.max(1, Math.round((Number(height) / Number(width)) * BLUR_WIDTH)) || 9;
  return (
    <Frame className={className} data-testid="gated-image">
      <Image className="blurred" src={rest.src} width={BLUR_WIDTH} height={h} alt="" aria-hidden="true" />
      {withPanel && (
        <div className="gate">
          <AgeGatePanel compact={compactPanel} />
        </div>
      )}
    </Frame>
  );
}
