/**
 * Text for screen readers only (issue 12): present in the accessibility tree, invisible on
 * screen — a dialog's name when it shows no title, a page heading the design leaves out.
 */
import styled from 'styled-components';

export const VisuallyHidden = styled.span`
  position: absolute;
  width: 1px;
  height: 1px;
  margin: -1px;
  padding: 0;
  border: 0;
  overflow: hidden;
  clip: rect(0 0 0 0);
  white-space: nowrap;
`;
