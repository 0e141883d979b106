/**
 * The `games` table mirrors games/<id>/meta.json: a title exists iff its meta.json exists. The
 * api seeds it at every start (upsert); titles whose folder is gone are marked unavailable
 * (their old sessions, saves and screenshots still reference the row).
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type pg from 'pg';

const GAME_ID = /^[a-z0-9][a-z0-9-]{0,63}$/;

export interface GameMeta {
  id: string;
  title: string;
  [key: string]: unknown;
}

export async function readGames(dir: string): Promise<GameMeta[]> {
  let entries: string[];
  try {
    entries = await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const games: GameMeta[] = [];
  for (const entry of entries.sort()) {
    if (!GAME_ID.test(entry)) continue;
    let text: string;
    try {
      text = await readFile(path.join(dir, entry, 'meta.json'), 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') continue;
      throw error;
    }
    let meta: unknown;
    try {
      meta = JSON.parse(text);
    } catch (error) {
      throw new Error(`games/${entry}/meta.json is not valid JSON: ${(error as Error).message}`);
    }
    const record = (typeof meta === 'object' && meta !== null ? meta : {}) as Record<string, unknown>;
    if (record.id !== undefined && record.id !== entry) {
      throw new Error(`games/${entry}/meta.json has id "${String(record.id)}"; it must match its folder`);
    }
    games.push({ ...record, id: entry, title: typeof record.title === 'string' ? record.title : entry });
  }
  return games;
}

/** Upserts every title of `dir` and marks the others unavailable, in one transaction. */
export async function seedGames(pool: pg.Pool, dir: string): Promise<GameMeta[]> {
  const games = await readGames(dir);
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    for (const game of games) {
      await client.query(
        `INSERT INTO games (id, title, meta, available, updated_at) VALUES ($1, $2, $3, true, now())
         ON CONFLICT (id) DO UPDATE SET title = EXCLUDED.title, meta = EXCLUDED.meta, available = true,
           updated_at = CASE WHEN games.meta IS DISTINCT FROM EXCLUDED.meta OR NOT games.available
                             THEN now() ELSE games.updated_at END`,
        [game.id, game.title, JSON.stringify(game)],
      );
    }
    await client.query(`UPDATE games SET available = false, updated_at = now() WHERE available AND NOT (id = ANY($1::text[]))`, [
      games.map((game) => game.id),
    ]);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
  return games;
}
