/**
 * The game's text as host → player messages (issue 13, docs/play-text.md): the host's builders of
 * the `line`, `choices` and `clear` messages that lib/streaming/messages.ts defines, within that file's
 * bounds — a long line split into parts rather than cut, every message's JSON at most
 * MAX_TEXT_MESSAGE_BYTES of UTF-8 (under TRTC SEI's 1000), control characters made spaces (the
 * parser refuses them). Apart from messages.ts because the player only parses them.
 */
import {
  CONTROL_RE,
  MAX_CHOICE_CHARS,
  MAX_CHOICES,
  MAX_LINE_PART_CHARS,
  MAX_LINE_PARTS,
  MAX_SPEAKER_CHARS,
  MAX_TEXT_MESSAGE_BYTES,
  type ChoicesMessage,
  type ClearMessage,
  type LineMessage,
} from './messages';

const utf8 = (s: string): number => new TextEncoder().encode(s).byteLength;
/** Control characters (and line breaks) as single spaces, the ends trimmed. */
function cleanText(s: string): string {
  return s.replace(new RegExp(CONTROL_RE.source, 'gu'), ' ').trim();
}
/** At most `max` code units, whole code points, ending in '…' when cut. */
function clip(s: string, max: number): string {
  if (s.length <= max) return s;
  let out = '';
  for (const cp of s) {
    if (out.length + cp.length > max - 1) break;
    out += cp;
  }
  return `${out}…`;
}

/**
 * A shown line as the messages that carry it: one, or up to MAX_LINE_PARTS parts when its JSON
 * would pass MAX_TEXT_MESSAGE_BYTES; past that the last part ends in '…'. Empty text: none.
 */
export function lineMessages(seq: number, speaker: string | null, text: string, choice = false): LineMessage[] {
  const name = speaker === null ? null : clip(cleanText(speaker), MAX_SPEAKER_CHARS) || null;
  const body = cleanText(text);
  if (!body) return [];
  const head: LineMessage = { v: 1, type: 'line', seq, speaker: name, text: '', part: MAX_LINE_PARTS - 1, parts: MAX_LINE_PARTS };
  if (choice) head.choice = true;
  const room = MAX_TEXT_MESSAGE_BYTES - utf8(JSON.stringify(head));
  const chunks: string[] = [];
  let cur = '';
  let bytes = 0;
  for (const cp of body) {
    const b = utf8(JSON.stringify(cp)) - 2;
    if (bytes + b > room || cur.length + cp.length > MAX_LINE_PART_CHARS) {
      chunks.push(cur);
      cur = '';
      bytes = 0;
    }
    cur += cp;
    bytes += b;
  }
  chunks.push(cur);
  if (chunks.length > MAX_LINE_PARTS) {
    chunks.length = MAX_LINE_PARTS;
    const last = Array.from(chunks[MAX_LINE_PARTS - 1]);
    last[last.length - 1] = '…';
    chunks[MAX_LINE_PARTS - 1] = last.join('');
  }
  return chunks.map((t, part) => ({ ...head, text: t, part, parts: chunks.length }));
}

/**
 * The choices on offer as one message: each cleaned and cut to MAX_CHOICE_CHARS, at most
 * MAX_CHOICES, and the longest shortened further until the JSON fits MAX_TEXT_MESSAGE_BYTES.
 */
export function choicesMessage(seq: number, choices: readonly string[]): ChoicesMessage {
  const list = choices.slice(0, MAX_CHOICES).map((c) => clip(cleanText(c), MAX_CHOICE_CHARS) || '…');
  const msg: ChoicesMessage = { v: 1, type: 'choices', seq, choices: list };
  while (utf8(JSON.stringify(msg)) > MAX_TEXT_MESSAGE_BYTES) {
    let longest = 0;
    list.forEach((c, i) => {
      if (c.length > list[longest].length) longest = i;
    });
    list[longest] = clip(list[longest], list[longest].length - 1);
  }
  return msg;
}

/** The screen shows no line now (title, ending, a new play): one fixed-size message, far under the bound. */
export function clearMessage(seq: number): ClearMessage {
  return { v: 1, type: 'clear', seq };
}
