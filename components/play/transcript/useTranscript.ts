/**
 * The play page's transcript hook (issue 13): holds the session's lines and choices
 * (./transcriptState.ts), whether the backlog panel is open, and the caption settings
 * (./captionPrefs.ts, remembered). PlayerView hands it every host message; it keeps the text
 * ones (line, choices, clear). A new session (a retry) numbers its text from 1 again, so its
 * transcript starts empty.
 */
import { useCallback, useMemo, useReducer, useState } from 'react';
import type { HostMessage, NamedKey } from '@/lib/streaming/messages';
import { loadCaptionPrefs, saveCaptionPrefs, type CaptionPrefs } from './captionPrefs';
import { EMPTY_TRANSCRIPT, transcriptReducer } from './transcriptState';

/**
 * The key that picks the n-th choice on offer (0-based): `1`..`9`, what the player's keyboard
 * sends for it (runtime/src/input.ts), so a choice from the panel passes the host's validation
 * and rate limit exactly as a key press does. Null past the ninth.
 */
export function choiceKey(n: number): NamedKey | null {
  return Number.isInteger(n) && n >= 0 && n < 9 ? (String(n + 1) as NamedKey) : null;
}

export function useTranscript() {
  const [state, dispatch] = useReducer(transcriptReducer, EMPTY_TRANSCRIPT);
  const [session, setSession] = useState<string | null>(null);
  /**
   * Called while rendering with the current session: a different one empties the transcript
   * (React's "adjust state when something changes during render", before the children see it).
   */
  const forSession = (sessionId: string | null) => {
    if (sessionId === session) return;
    setSession(sessionId);
    dispatch({ type: 'reset' });
  };
  const [open, setOpen] = useState(false);
  const [captions, setCaptions] = useState<CaptionPrefs>(() => loadCaptionPrefs());

  const onHostMessage = useCallback((m: HostMessage) => {
    if (m.type === 'line' || m.type === 'choices' || m.type === 'clear') dispatch({ type: 'message', msg: m });
  }, []);
  const updateCaptions = useCallback((patch: Partial<CaptionPrefs>) => {
    setCaptions((c) => {
      const next = { ...c, ...patch };
      saveCaptionPrefs(next);
      return next;
    });
  }, []);
  const toggle = useCallback(() => setOpen((o) => !o), []);
  const close = useCallback(() => setOpen(false), []);

  const value = useMemo(() => ({ state, open, toggle, close, captions, updateCaptions, onHostMessage }), [state, open, toggle, close, captions, updateCaptions, onHostMessage]);
  return { ...value, forSession };
}

export type Transcript = ReturnType<typeof useTranscript>;
