import type { AgeRating, TitleWire } from '@/lib/api-types/schemas/catalog';

/** A catalogue entry as the browser holds it in `game.gameList` (GAME.UPDATE_GAME_LIST). */
export interface GameSummary {
  id: string;
  title: string;
  /** Kana reading of the title, used by search. */
  reading: string;
  brandId: string;
  brand: string;
  description: string;
  tags: string[];
  genres: string[];
  /** YYYY-MM-DD */
  releaseDate: string;
  /** Path or URL of the key art image. */
  keyArt: string;
  ageRating: AgeRating;
  /** Sessions that reached play in the last 30 days. */
  plays: number;
  /** Only for subscribers (the api enforces it at start). */
  premium: boolean;
}

/** The one mapping from the api's TitleWire (lib/api-types/schemas/catalog.ts) to the browser's shape. */
export function toGameSummary(w: TitleWire): GameSummary {
  return {
    id: w.id,
    title: w.title,
    reading: w.reading,
    brandId: w.brand_id,
    brand: w.brand,
    description: w.description,
    tags: w.tags,
    genres: w.genres,
    releaseDate: w.release_date,
    keyArt: w.key_art,
    ageRating: w.age_rating,
    plays: w.plays,
    premium: w.premium,
  };
}

/** r18 titles are hidden or blurred until the safe check confirms the user is over 18. */
export function isAgeRated(g: Pick<GameSummary, 'ageRating'>): boolean {
  return g.ageRating === 'r18';
}
