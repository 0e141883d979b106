/**
 * What the catalogue's pages show besides plain lists: the home page's featured title and rows,
 * and a title page's related titles.
 */
import type { CatalogueTitle } from './snapshot';
import type { Plays } from './wire';

export const HOME_ROW = 12;
export const HOME_GENRES = 6;
export const HOME_ARTICLES = 3;
export const RELATED_MAX = 6;

const playsOf = (plays: Plays, t: CatalogueTitle): number => plays.get(t.id) ?? 0;

/**
 * The featured title: an all-ages title (the home page is seen before any age check), the one
 * with the most plays in the last 30 days; ties and a catalogue without plays go to the newest.
 * `titles` is newest first.
 */
export function featuredTitle(titles: CatalogueTitle[], plays: Plays): CatalogueTitle | null {
  let best: CatalogueTitle | null = null;
  for (const t of titles) {
    if (t.ageRating !== 'all') continue;
    if (!best || playsOf(plays, t) > playsOf(plays, best)) best = t;
  }
  return best;
}

/** Genres with the most titles first (ties: code point order), each with its newest titles. */
export function genreRows(titles: CatalogueTitle[]): { genre: string; titles: CatalogueTitle[] }[] {
  const byGenre = new Map<string, CatalogueTitle[]>();
  for (const t of titles) for (const genre of t.genres) byGenre.set(genre, [...(byGenre.get(genre) ?? []), t]);
  return [...byGenre.entries()]
    .sort(([a, x], [b, y]) => y.length - x.length || (a < b ? -1 : 1))
    .slice(0, HOME_GENRES)
    .map(([genre, list]) => ({ genre, titles: list.slice(0, HOME_ROW) }));
}

/**
 * Up to RELATED_MAX other titles: same brand (3), each shared genre (2) and tag (1) add up;
 * titles sharing nothing fill the rest. Ties: plays, then newest. Never the title itself.
 */
export function relatedTitles(self: CatalogueTitle, titles: CatalogueTitle[], plays: Plays): CatalogueTitle[] {
  const affinity = (t: CatalogueTitle): number =>
    (t.brandId === self.brandId ? 3 : 0) +
    t.genres.filter((g) => self.genres.includes(g)).length * 2 +
    t.tags.filter((tag) => self.tags.includes(tag)).length;
  return titles
    .filter((t) => t.id !== self.id)
    .map((t) => ({ t, a: affinity(t) }))
    .sort((x, y) => y.a - x.a || playsOf(plays, y.t) - playsOf(plays, x.t) || (x.t.releaseDate < y.t.releaseDate ? 1 : -1))
    .slice(0, RELATED_MAX)
    .map(({ t }) => t);
}
