/**
 * The look of the play page's controls over the video (the control bar's buttons, the back link,
 * the transcript's button): a dark translucent pill with white text, readable on any scene.
 * One definition, so they stay alike.
 */
import { css } from 'styled-components';

export const pill = css`
  border: 0;
  border-radius: 18px;
  background: rgba(0, 0, 0, 0.55);
  color: #fff;
  font: inherit;
  font-size: 0.8rem;
`;
