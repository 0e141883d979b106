/**
 * The caption mode (issue 13): the current line under the video, in the page's own font at the
 * size the player picked (./captionPrefs.ts), for small phones and for low vision. It reports
 * its height so the play page can keep the picture above it rather than under it. Real text:
 * selectable, and translated with the page. When no line is on screen (before the first, and
 * after the host's `clear`: the title, the ending card, a new play) the bar shows nothing but
 * stays, so the picture does not jump when the next line comes.
 */
import { useRef } from 'react';
import styled from 'styled-components';
import { useReportHeight } from '../useReportHeight';
import { CAPTION_FONT_REM, type CaptionSize } from './captionPrefs';
import type { TranscriptLine } from './transcriptState';
import { LineText } from './LineText';

const Bar = styled.div<{ $rem: number }>`
  position: absolute;
  left: 0;
  right: 0;
  bottom: 0;
  z-index: 15;
  min-height: 2.4em;
  max-height: 40vh;
  overflow-y: auto;
  padding: 0.5em max(12px, 4vw) calc(0.6em + env(safe-area-inset-bottom, 0px));
  background: #0b0b12;
  color: #fff;
  font-size: ${({ $rem }) => $rem}rem;
  line-height: 1.6;
  user-select: text;
  cursor: auto;
  overflow-wrap: anywhere;
  .speaker {
    font-weight: bold;
    color: #ffd6e4;
    margin-right: 0.6em;
  }
`;

interface Props {
  /** The line on screen (transcriptState's currentLine), or null: none. */
  line: TranscriptLine | null;
  size: CaptionSize;
  /** The bar's height in CSS pixels, whenever it changes (0 when it goes). */
  onHeight(px: number): void;
}

export function Captions({ line, size, onHeight }: Props) {
  const ref = useRef<HTMLDivElement | null>(null);
  useReportHeight(ref, onHeight);
  return (
    <Bar ref={ref} $rem={CAPTION_FONT_REM[size]} lang="ja" translate="yes" data-testid="captions" data-size={size} onPointerDown={(e) => e.stopPropagation()}>
      {line ? (
        <p style={{ margin: 0 }}>
          <LineText line={line} />
        </p>
      ) : null}
    </Bar>
  );
}
