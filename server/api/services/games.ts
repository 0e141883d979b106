/**
 * The catalogue seed under the name plugins/sessions.ts calls at start (and again from the sweep
 * when PostgreSQL was down at start). The seed itself (brands, titles, articles) is
 * services/catalogue/seed.ts; content comes from CONTENT_DIR or the repository's content/.
 */
import type pg from 'pg';
import { defaultContentDir, seedCatalogue } from './catalogue/seed';
import type { Title } from './catalogue/types';

export async function seedGames(pool: pg.Pool, gamesDir: string): Promise<Title[]> {
  const { titles } = await seedCatalogue(pool, { gamesDir, contentDir: defaultContentDir() });
  return titles;
}
