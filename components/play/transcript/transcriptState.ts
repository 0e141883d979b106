/**
 * The session's transcript as state (issue 13, docs/play-text.md): the host's `line`, `choices`
 * and `clear` messages (lib/streaming/messages.ts) folded into the lines read so far, the choices
 * on offer, whether a line is on screen, and a short log for the screen reader's live region. A
 * pure reducer, so the rules are tested without a stream: lines are ordered and de-duplicated by
 * `seq` (the host sends the current line and choices again after a reconnect), a long line's
 * parts are joined as they come, a later line ends the choices, a `clear` (the title, the ending
 * card, a new play) leaves the caption empty until the next line but keeps every line read, and a
 * `choices` or `clear` older than the newest text is stale.
 */
import type { TextMessage } from '@/lib/streaming/messages';

/** Lines kept for the page's life (a long session drops its oldest). */
export const MAX_TRANSCRIPT_LINES = 2000;
/** Entries the live region holds (what a screen reader announces are the additions). */
export const LIVE_LOG_SIZE = 5;

export interface TranscriptLine {
  seq: number;
  speaker: string | null;
  /** The choice the player took, as the game's backlog shows it. */
  choice: boolean;
  /** Each part's text, or null while it has not arrived. */
  parts: (string | null)[];
  /** The parts that arrived, joined. */
  text: string;
  complete: boolean;
}

export interface TranscriptChoices {
  seq: number;
  /** In the game's order: the n-th is picked by the key n. */
  items: string[];
}

export interface LiveEntry {
  key: string;
  text: string;
}

export interface TranscriptState {
  lines: TranscriptLine[];
  choices: TranscriptChoices | null;
  /** The newest `seq` seen. */
  latest: number;
  /** The `seq` of the newest `clear` taken (0: none): no line older than it is on screen. */
  cleared: number;
  live: LiveEntry[];
}

export const EMPTY_TRANSCRIPT: TranscriptState = { lines: [], choices: null, latest: 0, cleared: 0, live: [] };

/**
 * How a line reads aloud and copies: the speaker's name before what they say, in 「」 unless the
 * story already quotes it (most titles write 「……」 in the line itself).
 */
export function spoken(line: Pick<TranscriptLine, 'speaker' | 'text' | 'choice'>): string {
  if (line.choice) return `選択：${line.text}`;
  if (!line.speaker) return line.text;
  return /^[「『（(]/u.test(line.text) ? `${line.speaker} ${line.text}` : `${line.speaker}「${line.text}」`;
}

function pushLive(live: LiveEntry[], entry: LiveEntry): LiveEntry[] {
  return [...live, entry].slice(-LIVE_LOG_SIZE);
}

function onLine(s: TranscriptState, m: Extract<TextMessage, { type: 'line' }>): TranscriptState {
  let lines = s.lines;
  let i = lines.findIndex((l) => l.seq === m.seq);
  let line: TranscriptLine;
  if (i < 0) {
    // older than everything kept: a resend of a line dropped long ago
    if (lines.length >= MAX_TRANSCRIPT_LINES && m.seq < lines[0].seq) return s;
    line = { seq: m.seq, speaker: m.speaker, choice: m.choice === true, parts: Array.from({ length: m.parts }, () => null), text: '', complete: false };
    const at = lines.findIndex((l) => l.seq > m.seq);
    i = at < 0 ? lines.length : at;
    lines = [...lines.slice(0, i), line, ...lines.slice(i)];
  } else {
    line = lines[i];
    // a part already here (a resend), or a message that disagrees with the first part: ignore
    if (line.parts.length !== m.parts || line.parts[m.part] !== null) return s;
    lines = lines.slice();
  }
  const parts = line.parts.slice();
  parts[m.part] = m.text;
  const complete = parts.every((p) => p !== null);
  const next: TranscriptLine = { ...line, parts, text: parts.filter((p) => p !== null).join(''), complete };
  lines[i] = next;
  if (lines.length > MAX_TRANSCRIPT_LINES) lines = lines.slice(lines.length - MAX_TRANSCRIPT_LINES);
  const choices = s.choices && m.seq > s.choices.seq ? null : s.choices;
  const live = complete ? pushLive(s.live, { key: `l${m.seq}`, text: spoken(next) }) : s.live;
  return { ...s, lines, choices, latest: Math.max(s.latest, m.seq), live };
}

function onChoices(s: TranscriptState, m: Extract<TextMessage, { type: 'choices' }>): TranscriptState {
  if (m.seq < s.latest) return s;
  if (s.choices?.seq === m.seq) return s;
  const choices = m.choices.length ? { seq: m.seq, items: m.choices.slice() } : null;
  const live = choices ? pushLive(s.live, { key: `c${m.seq}`, text: `選択肢：${choices.items.map((c, n) => `${n + 1}. ${c}`).join('、')}` }) : s.live;
  return { ...s, choices, latest: m.seq, live };
}

/** No line on screen from `m.seq` on (the lines stay); it ends the choices. Stale or repeated: nothing. */
function onClear(s: TranscriptState, m: Extract<TextMessage, { type: 'clear' }>): TranscriptState {
  if (m.seq < s.latest || m.seq <= s.cleared) return s;
  return { ...s, choices: null, latest: m.seq, cleared: m.seq };
}

export type TranscriptAction = { type: 'message'; msg: TextMessage } | { type: 'reset' };

export function transcriptReducer(s: TranscriptState, a: TranscriptAction): TranscriptState {
  if (a.type === 'reset') return EMPTY_TRANSCRIPT;
  switch (a.msg.type) {
    case 'line':
      return onLine(s, a.msg);
    case 'choices':
      return onChoices(s, a.msg);
    case 'clear':
      return onClear(s, a.msg);
  }
}

/** The line a caption shows: the newest one, as far as it arrived; none after a newer `clear`. */
export function currentLine(s: TranscriptState): TranscriptLine | null {
  const last = s.lines.at(-1);
  return last && last.seq > s.cleared ? last : null;
}
