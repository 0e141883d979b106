/**
 * The shared look of catalogue cards (titles, articles): the card frame and its 16:9 key art.
 */
import { css } from 'styled-components';

/** The frame of a catalogue card (titles, articles): a rounded, bordered surface that is one link. */
export const cardFrame = css`
  display: block;
  height: 100%;
  text-decoration: none;
  color: ${({ theme }) => theme.text};
  border-radius: 12px;
  overflow: hidden;
  background: ${({ theme }) => theme.surface};
  border: 1px solid ${({ theme }) => theme.border};
  /* Inset: a card sits in a sideways-scrolling row, whose edges would clip an outer ring. */
  &:focus-visible {
    outline: 3px solid ${({ theme }) => theme.focus};
    outline-offset: -3px;
  }
`;

/** 16:9 key art filling its box (class "art"). */
export const keyArt = css`
  .art {
    display: block;
    width: 100%;
    height: auto;
    aspect-ratio: 16 / 9;
    object-fit: cover;
    background: ${({ theme }) => theme.surfaceRaised};
  }
`;
