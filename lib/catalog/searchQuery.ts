/**
 * The search query as the page takes it, from the address bar (`/search?q=`) or the box: what
 * is searched, echoed in the heading, the page title and the address. A crafted link can carry
 * what no one can type: control characters (`%00`) and bytes that are not UTF-8 (`%E0%A4`,
 * which the URL parser turns into U+FFFD "�"). Those are dropped (line breaks and tabs become
 * spaces), and the query is capped as the box caps what is typed; what is left empty is the
 * empty query (the start state).
 */

/** The box's `maxLength`, and the longest query the page searches for. */
export const SEARCH_MAX_LENGTH = 100;

/** Whitespace control characters: they separate words, so they become a space. */
const CONTROL_SPACE = /[\t\n\v\f\r\u0085]/g;
/** Other control characters (C0, DEL, C1), U+FFFD and lone surrogate halves (also shown as "�"). */
const UNSHOWABLE = /[\p{Cc}\uFFFD]|\p{Cs}/gu;

/** The query to search and show: cleaned, trimmed, at most SEARCH_MAX_LENGTH (never half a pair). */
export function cleanSearchQuery(raw: unknown): string {
  if (typeof raw !== 'string') return '';
  const cleaned = raw.replace(CONTROL_SPACE, ' ').replace(UNSHOWABLE, '').trim();
  // A cut between the halves of a surrogate pair (an emoji) would leave a lone half: drop it.
  return cleaned.slice(0, SEARCH_MAX_LENGTH).replace(UNSHOWABLE, '').trim();
}
