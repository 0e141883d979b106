/**
 * One transcript line as page text: the speaker's name and the line, or a taken choice marked ▶.
 * The backlog panel's list and the captions show lines alike, so they share this.
 */
import type { TranscriptLine } from './transcriptState';

export function LineText({ line }: { line: Pick<TranscriptLine, 'speaker' | 'text' | 'choice'> }) {
  if (line.choice) return <>▶ {line.text}</>;
  return (
    <>
      {line.speaker && <span className="speaker">{line.speaker}</span>}
      {line.text}
    </>
  );
}
