import styled from 'styled-components';
import type { AgeRating } from '@/lib/api-types/schemas/catalog';

const LABELS: Record<AgeRating, string> = { all: '全年齢', r15: '15歳以上', r18: '18歳以上' };

const Badge = styled.span<{ $rating: AgeRating }>`
  display: inline-block;
  padding: 1px 8px;
  border-radius: 4px;
  font-size: 0.75rem;
  font-weight: 700;
  border: 1px solid ${({ theme, $rating }) => ($rating === 'all' ? theme.border : $rating === 'r15' ? theme.attention : theme.destructive)};
  color: ${({ theme, $rating }) => ($rating === 'all' ? theme.textMuted : $rating === 'r15' ? theme.attention : theme.destructive)};
`;

/** The title's age rating (metadata only: no explicit content exists). */
export function AgeBadge({ rating }: { rating: AgeRating }) {
  return (
    <Badge $rating={rating} data-testid="age-badge" aria-label={`対象年齢: ${LABELS[rating]}`}>
      {LABELS[rating]}
    </Badge>
  );
}
