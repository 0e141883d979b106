/**
 * Japanese-aware normalisation for search (shared by the api's catalogue search and the
 * browser): NFKC (full-width ⇄ half-width, compatibility forms), lower case, katakana folded
 * to hiragana (so ほし finds ホシ and vice versa), long-vowel marks and spaces unified.
 */
const KATAKANA_START = 0x30a1; // ァ
const KATAKANA_END = 0x30f6; // ヶ
const KANA_OFFSET = 0x60;

export function katakanaToHiragana(s: string): string {
  let out = '';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    out += c >= KATAKANA_START && c <= KATAKANA_END ? String.fromCodePoint(c - KANA_OFFSET) : ch;
  }
  return out;
}

export function normalizeForSearch(s: string): string {
  return katakanaToHiragana(s.normalize('NFKC').toLowerCase())
    .replace(/[\s\u3000]+/g, ' ')
    .replace(/[‐－―ｰ]/g, 'ー')
    .trim();
}

/** Splits a query into normalised terms (all must match). */
export function searchTerms(q: string): string[] {
  return normalizeForSearch(q)
    .split(' ')
    .filter((t) => t.length > 0)
    .slice(0, 8);
}
