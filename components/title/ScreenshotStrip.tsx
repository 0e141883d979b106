/**
 * The title page's screenshots in one sideways-scrolling row. The row itself takes focus
 * (issue 12: a keyboard user scrolls it with the arrow keys; it holds no link to focus).
 */
import styled from 'styled-components';
import { Row } from '@/components/catalog/layout';
import { GatedImage } from '@/components/safecheck/GatedImage';
import type { AgeRating, ScreenshotImageWire } from '@/lib/api-types/schemas/catalog';

const Strip = styled(Row)`
  grid-auto-columns: minmax(240px, 360px);
  .shot {
    display: block;
    width: 100%;
    height: auto;
    border-radius: 8px;
  }
`;

/** The title's screenshots, side by side; blurred like the key art for an age-rated title. */
export function ScreenshotStrip({ shots, ageRating }: { shots: ScreenshotImageWire[]; ageRating: AgeRating }) {
  if (shots.length === 0) return <p>スクリーンショットはまだありません。</p>;
  return (
    <Strip data-testid="screenshots" tabIndex={0} aria-label="スクリーンショット（横にスクロールできます）">
      {shots.map((s) => (
        <li key={s.src}>
          <GatedImage className="shot" src={s.src} alt={s.alt} width={s.width} height={s.height} sizes="(max-width: 575px) 80vw, 360px" ageRating={ageRating} />
        </li>
      ))}
    </Strip>
  );
}
