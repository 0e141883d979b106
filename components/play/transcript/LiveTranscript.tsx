/**
 * The transcript's live region (issue 13): the last few lines and choices as a visually hidden
 * `role="log"` (polite), so a screen reader reads each new line as it arrives, whether or not
 * the backlog panel is open. Entries are keyed by `seq`: only additions are announced.
 *
 * An entry is announced once the text has settled for SETTLE_MS. In skip mode lines arrive ~16 a
 * second: a screen reader would read all of them, long after the picture moved on. A burst is
 * announced as its newest line (and the choices, if it brought some) once it stops; the backlog
 * panel keeps every line.
 */
import { useEffect, useState } from 'react';
import { VisuallyHidden } from '@/components/ui/VisuallyHidden';
import { LIVE_LOG_SIZE, type LiveEntry } from './transcriptState';

export const SETTLE_MS = 400;

export function LiveTranscript({ entries }: { entries: LiveEntry[] }) {
  const [shown, setShown] = useState<LiveEntry[]>(entries);
  useEffect(() => {
    const timer = setTimeout(() => {
      setShown((before) => {
        const known = new Set(before.map((e) => e.key));
        const fresh = entries.filter((e) => !known.has(e.key));
        if (fresh.length <= 1) return entries;
        // Of a burst: its newest line and, when choices came with it, the newest choices.
        const newest = (kind: string) => fresh.filter((e) => e.key.startsWith(kind)).slice(-1);
        const kept = new Set([...newest('l'), ...newest('c')]);
        return [...before, ...fresh.filter((e) => kept.has(e))].slice(-LIVE_LOG_SIZE);
      });
    }, SETTLE_MS);
    return () => clearTimeout(timer);
  }, [entries]);
  return (
    <VisuallyHidden as="div" role="log" aria-live="polite" aria-relevant="additions" aria-label="ゲームのテキスト" lang="ja" data-testid="transcript-live">
      {shown.map((e) => (
        <p key={e.key}>{e.text}</p>
      ))}
    </VisuallyHidden>
  );
}
