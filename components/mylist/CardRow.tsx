import styled from 'styled-components';
import { media } from '@/styles/breakpoints';

/** One horizontal, scrollable row of cards (home's "continue playing"). */
export const CardRow = styled.ul`
  display: grid;
  grid-auto-flow: column;
  grid-auto-columns: minmax(200px, 260px);
  gap: 16px;
  overflow-x: auto;
  list-style: none;
  margin: 0;
  padding: 0 0 8px;
  scroll-snap-type: x proximity;
  > li {
    scroll-snap-align: start;
  }
  ${media.mobile} {
    grid-auto-columns: 70%;
    gap: 10px;
  }
`;
