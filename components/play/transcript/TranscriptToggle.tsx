/**
 * The button that opens and closes the backlog panel (issue 13), also bound to the key T
 * (TRANSCRIPT_KEY: a key the game takes for nothing; InputLayer keeps it on the page).
 */
import styled from 'styled-components';
import { pill } from '../pill';

/** The page's key for the panel (KeyboardEvent.key, either case). */
export const TRANSCRIPT_KEY = 't';

/** In the play page's top-left row, beside the back link (PlayerView places it). */
const Toggle = styled.button`
  flex: none;
  height: 34px;
  padding: 0 12px;
  ${pill}
  cursor: pointer;
`;

export function TranscriptToggle({ open, onToggle }: { open: boolean; onToggle(): void }) {
  return (
    <Toggle
      type="button"
      aria-expanded={open}
      aria-controls={open ? 'transcript-panel' : undefined}
      aria-keyshortcuts="T"
      onClick={onToggle}
      onPointerDown={(e) => e.stopPropagation()}
      data-testid="transcript-toggle"
    >
      テキスト履歴（T）
    </Toggle>
  );
}
