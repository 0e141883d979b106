/**
 * Catalogue search over the in-memory snapshot. Both sides go through lib/search/normalize.ts
 * (NFKC, full/half width, katakana → hiragana, lower case), so ほし finds ホシ and ＡＢＣ finds abc.
 *
 * Every term of the query must match somewhere. A title's score is the sum, over the terms, of
 * the best field each term matches (the weights below), plus EXACT when the whole query is the
 * title or its reading. Results: score, then plays, then newest, then id.
 */
import { normalizeForSearch, searchTerms } from '../../../../lib/search/normalize';
import type { Order } from './paging';
import type { CatalogueSnapshot, CatalogueTitle, SearchFields } from './snapshot';
import type { Plays } from './wire';

export const WEIGHTS = {
  exact: 1000,
  titlePrefix: 100,
  titleContains: 60,
  brandExact: 45,
  brandContains: 40,
  tagExact: 35,
  tagContains: 30,
  description: 10,
} as const;

export const MAX_QUERY_LENGTH = 100;
const SUGGESTIONS = 8;

export interface SearchHit {
  title: CatalogueTitle;
  score: number;
}

export interface SearchOutcome {
  normalized: string;
  hits: SearchHit[];
  suggestions: string[];
}

function termScore(f: SearchFields, term: string): number {
  if (f.title.startsWith(term) || f.reading.startsWith(term)) return WEIGHTS.titlePrefix;
  if (f.title.includes(term) || f.reading.includes(term)) return WEIGHTS.titleContains;
  if (f.brand === term || f.brandReading === term) return WEIGHTS.brandExact;
  if (f.brand.includes(term) || f.brandReading.includes(term)) return WEIGHTS.brandContains;
  const labels = [...f.tags, ...f.genres];
  if (labels.includes(term)) return WEIGHTS.tagExact;
  if (labels.some((label) => label.includes(term))) return WEIGHTS.tagContains;
  if (f.description.includes(term)) return WEIGHTS.description;
  return 0;
}

const compact = (s: string): string => s.replace(/ /g, '');

/** The score of one title for the query's terms, or 0 when a term matches nowhere. */
export function scoreTitle(f: SearchFields, terms: string[], whole: string): number {
  let score = 0;
  for (const term of terms) {
    const s = termScore(f, term);
    if (s === 0) return 0;
    score += s;
  }
  if (whole && (compact(f.title) === whole || compact(f.reading) === whole)) score += WEIGHTS.exact;
  return score;
}

export function searchOrder(plays: Plays): Order<SearchHit> {
  return {
    name: 'search',
    key: (hit) => [hit.score, plays.get(hit.title.id) ?? 0, hit.title.releaseDate, hit.title.id],
    dirs: [-1, -1, -1, 1],
    shape: ['number', 'number', 'string', 'string'],
  };
}

function byPlays(snapshot: CatalogueSnapshot, plays: Plays): CatalogueTitle[] {
  return [...snapshot.titles].sort((a, b) => (plays.get(b.id) ?? 0) - (plays.get(a.id) ?? 0) || (a.releaseDate < b.releaseDate ? 1 : -1));
}

/** Tags or genres, most played first (ties: the most titles, then code point order). */
function popularLabels(snapshot: CatalogueSnapshot, plays: Plays, pick: (t: CatalogueTitle) => string[]): string[] {
  const weight = new Map<string, [number, number]>();
  for (const title of snapshot.titles) {
    for (const label of pick(title)) {
      const [p, n] = weight.get(label) ?? [0, 0];
      weight.set(label, [p + (plays.get(title.id) ?? 0), n + 1]);
    }
  }
  return [...weight.entries()]
    .sort(([a, [pa, na]], [b, [pb, nb]]) => pb - pa || nb - na || (a < b ? -1 : 1))
    .map(([label]) => label);
}

/** Share of the query's distinct characters found in the title or its reading. */
function overlap(query: string, f: SearchFields): number {
  const chars = new Set(compact(query));
  if (chars.size === 0) return 0;
  const hay = f.title + f.reading;
  let found = 0;
  for (const ch of chars) if (hay.includes(ch)) found++;
  return found / chars.size;
}

function unique(list: string[]): string[] {
  return [...new Set(list)].slice(0, SUGGESTIONS);
}

/** For an empty query: the most played titles, then the genres. */
export function emptyQuerySuggestions(snapshot: CatalogueSnapshot, plays: Plays): string[] {
  return unique([...byPlays(snapshot, plays).slice(0, 4).map((t) => t.title), ...popularLabels(snapshot, plays, (t) => t.genres)]);
}

/** For a query that matched nothing: titles sharing most of its characters, then popular tags. */
export function noMatchSuggestions(snapshot: CatalogueSnapshot, plays: Plays, normalized: string): string[] {
  const close = snapshot.titles
    .map((title) => ({ title, share: overlap(normalized, title.search) }))
    .filter((entry) => entry.share >= 0.34)
    .sort((a, b) => b.share - a.share || (plays.get(b.title.id) ?? 0) - (plays.get(a.title.id) ?? 0))
    .slice(0, 4)
    .map((entry) => entry.title.title);
  return unique([...close, ...popularLabels(snapshot, plays, (t) => t.tags)]);
}

export function searchCatalogue(snapshot: CatalogueSnapshot, q: string, plays: Plays): SearchOutcome {
  const normalized = normalizeForSearch(q);
  const terms = searchTerms(q);
  if (terms.length === 0) return { normalized, hits: [], suggestions: emptyQuerySuggestions(snapshot, plays) };
  const whole = compact(normalized);
  const hits: SearchHit[] = [];
  for (const title of snapshot.titles) {
    const score = scoreTitle(title.search, terms, whole);
    if (score > 0) hits.push({ title, score });
  }
  return { normalized, hits, suggestions: hits.length ? [] : noMatchSuggestions(snapshot, plays, normalized) };
}
