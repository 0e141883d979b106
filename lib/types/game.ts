/** A catalogue entry as the browser holds it in `game.gameList`. */
export interface GameSummary {
  id: string;
  title: string;
  /** Kana reading of the title, used by search. */
  reading: string;
  brand: string;
  description: string;
  tags: string[];
  /** Path or URL of the key art image. */
  keyArt: string;
  ageRating: 'all' | 'r15' | 'r18';
}
