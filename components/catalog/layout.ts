/**
 * The catalogue's list layouts: the card grid (4 / 3 / 2 columns) and home's sideways rows.
 */
import styled from 'styled-components';
import { media } from '@/styles/breakpoints';
import { tapTarget } from '@/styles/tapTarget';

/** Columns of a card grid on a phone: its first row is what a phone shows first. */
export const PHONE_COLUMNS = 2;

/** A grid of cards: 4 / 3 / 2 columns. */
export const Grid = styled.ul`
  display: grid;
  grid-template-columns: repeat(4, 1fr);
  gap: 16px;
  list-style: none;
  margin: 0;
  padding: 0;
  ${media.tabletDown} {
    grid-template-columns: repeat(3, 1fr);
  }
  ${media.mobile} {
    grid-template-columns: repeat(${PHONE_COLUMNS}, 1fr);
    gap: 10px;
  }
`;

/** Home's sideways rows look like "continue playing" (components/mylist), so they share its row. */
export { CardRow as Row } from '@/components/mylist/CardRow';

/** A row's heading with its "see all" link on the right. */
export const RowHead = styled.div`
  display: flex;
  align-items: baseline;
  justify-content: space-between;
  gap: 12px;
  a {
    font-size: 0.9rem;
    /* "もっと見る": the text alone is 23 px */
    ${tapTarget}
  }
`;
