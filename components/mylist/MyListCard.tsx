import { Link } from '@/components/ui/Link';
import type { ReactNode } from 'react';
import styled from 'styled-components';
import { cardFrame, keyArt as keyArtStyle } from '@/components/catalog/cardStyle';
import { CARD_SIZES } from '@/components/catalog/GameCard';
import { GatedImage } from '@/components/safecheck/GatedImage';
import type { AgeRating } from '@/lib/api-types/schemas/catalog';

const Card = styled.div`
  ${cardFrame}
  ${keyArtStyle}
  position: relative;
  display: flex;
  flex-direction: column;
  .meta {
    display: flex;
    flex-direction: column;
    gap: 2px;
    padding: 8px 10px 12px;
    flex: 1;
  }
  .title {
    font-weight: 700;
    margin: 0;
    color: ${({ theme }) => theme.text};
    text-decoration: none;
  }
  .title::after {
    /* The whole card is the link's hit area; actions inside stay clickable above it. */
    content: '';
    position: absolute;
    inset: 0;
  }
  .sub {
    margin: 0;
    font-size: 0.8rem;
    color: ${({ theme }) => theme.textMuted};
  }
  .actions {
    position: relative;
    z-index: 1;
    display: flex;
    gap: 8px;
    flex-wrap: wrap;
    margin-top: 8px;
  }
`;

export interface MyListCardProps {
  href: string;
  title: string;
  keyArt?: string;
  /** Age-rated art stays blurred until the safe check allows it (unknown: treated as all ages). */
  ageRating?: AgeRating;
  /** Lines under the title (brand, dates, play time…). */
  lines?: ReactNode[];
  actions?: ReactNode;
  testId?: string;
}

/** A title card of the my-list pages: key art, title, a few lines, optional actions. */
export function MyListCard({ href, title, keyArt, ageRating = 'all', lines = [], actions, testId }: MyListCardProps) {
  return (
    <Card data-testid={testId}>
      {keyArt ? <GatedImage className="art" ageRating={ageRating} src={keyArt} alt="" width={1280} height={720} sizes={CARD_SIZES} /> : <div className="art" aria-hidden="true" />}
      <div className="meta">
        <Link className="title" href={href}>
          {title}
        </Link>
        {lines.map((l, i) => (
          <p className="sub" key={i}>
            {l}
          </p>
        ))}
        {actions && <div className="actions">{actions}</div>}
      </div>
    </Card>
  );
}
