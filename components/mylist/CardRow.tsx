import styled from 'styled-components';
import { media } from '@/styles/breakpoints';

/** A grid of my-list cards: as many columns of at least 220 px as fit (two on phones). */
export const CardGrid = styled.ul`
  display: grid;
  grid-template-columns: repeat(auto-fill, minmax(220px, 1fr));
  gap: 16px;
  list-style: none;
  margin: 0;
  padding: 0;
  ${media.mobile} {
    grid-template-columns: repeat(2, minmax(0, 1fr));
    gap: 10px;
  }
`;

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
