/**
 * A text link made at least MIN_TARGET_SIZE (24 px) tall to tap, its text where it was (WCAG 2.2,
 * 2.5.8 Target Size (Minimum)): small links' text alone is 20–23 px. One rule for every such link
 * (the footer's, もっと見る, the purchase pages' legal links, an article's マガジン).
 */
import { css } from 'styled-components';
import { MIN_TARGET_SIZE } from './breakpoints';

export const tapTarget = css`
  display: inline-flex;
  align-items: center;
  min-height: ${MIN_TARGET_SIZE}px;
`;
