/**
 * The transcript's live region (issue 13): the last few lines and choices as a visually hidden
 * `role="log"` (polite), so a screen reader reads each new line as it arrives, whether or not
 * the backlog panel is open. Entries are keyed by `seq`: only additions are announced.
 */
import { VisuallyHidden } from '@/components/ui/VisuallyHidden';
import type { LiveEntry } from './transcriptState';

export function LiveTranscript({ entries }: { entries: LiveEntry[] }) {
  return (
    <VisuallyHidden as="div" role="log" aria-live="polite" aria-relevant="additions" aria-label="ゲームのテキスト" lang="ja" data-testid="transcript-live">
      {entries.map((e) => (
        <p key={e.key}>{e.text}</p>
      ))}
    </VisuallyHidden>
  );
}
