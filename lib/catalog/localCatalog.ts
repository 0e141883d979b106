/**
 * Reads the titles in games/ (server side only: getStaticProps / the api's seed).
 * Each games/<id>/meta.json is one title; the catalogue issue moves the source of truth to
 * PostgreSQL, seeded from these same files.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { GameSummary } from '@/lib/types/game';

export interface GameMeta extends GameSummary {
  brandReading: string;
  genres: string[];
  releaseDate: string;
}

const GAMES_DIR = path.join(process.cwd(), 'games');
const ID_RE = /^[a-z0-9][a-z0-9-]{0,63}$/;

export function isGameId(id: unknown): id is string {
  return typeof id === 'string' && ID_RE.test(id);
}

export function readGameMeta(id: string): GameMeta | null {
  if (!isGameId(id)) return null;
  try {
    const raw = JSON.parse(fs.readFileSync(path.join(GAMES_DIR, id, 'meta.json'), 'utf8')) as GameMeta;
    return raw.id === id ? raw : null;
  } catch {
    return null;
  }
}

export function listGameMeta(): GameMeta[] {
  let ids: string[] = [];
  try {
    ids = fs.readdirSync(GAMES_DIR).filter(isGameId);
  } catch {
    return [];
  }
  return ids
    .map(readGameMeta)
    .filter((g): g is GameMeta => g !== null)
    .sort((a, b) => b.releaseDate.localeCompare(a.releaseDate));
}
