/**
 * My list of a verified user: bookmarks and play history. Always read live from PostgreSQL and
 * always scoped to the caller's uid, so another user's rows can never appear (their ids answer
 * 404 like an unknown one). Titles that are no longer available are left out, like everywhere
 * in the catalogue.
 */
import type pg from 'pg';
import type { BookmarkListWire, BookmarkStateWire, PlayHistoryListWire } from '../../../../lib/api-types/schemas/catalog';
import { ApiError } from '../../errors';
import { decodeCursor, encodeCursor } from '../cursor';
import { loadPlays } from './plays';
import type { CatalogueService } from './service';
import type { CatalogueSnapshot, CatalogueTitle } from './snapshot';
import { titleWire, type Plays } from './wire';

/** Rows carry their time as microseconds since the epoch (text): a JS Date would lose them. */
interface TimedRow {
  game_id: string;
  at: Date;
  at_us: string;
}

interface Keyset {
  after?: [string, string];
}

/** The cursor's key: the time in microseconds since the epoch (bounded, services/cursor.ts) and the game id. */
function keysetOf(name: string, cursor?: string): Keyset {
  if (!cursor) return {};
  const [us, gameId] = decodeCursor(name, cursor, ['epoch_us', 'string']) as [string, string];
  return { after: [us, gameId] };
}

export class MyListService {
  constructor(
    private readonly db: pg.Pool,
    private readonly catalogue: CatalogueService,
  ) {}

  /** The title if the catalogue has it (available), else 404 game_not_found. */
  private async titleOf(gameId: string): Promise<CatalogueTitle> {
    const title = (await this.catalogue.snapshot()).byId.get(gameId);
    if (!title) throw new ApiError('game_not_found');
    return title;
  }

  /**
   * One page of `table` for `uid`, newest `column` first, available titles only. The limit is
   * asked one over, to know whether a next page exists.
   */
  private async page<R extends TimedRow>(
    table: 'bookmarks' | 'play_histories',
    column: 'created_at' | 'last_played_at',
    extra: string,
    uid: string,
    limit: number,
    cursor?: string,
  ): Promise<{ rows: R[]; next: string | null; snapshot: CatalogueSnapshot; plays: Plays }> {
    const { after } = keysetOf(table, cursor);
    const params: unknown[] = [uid, limit + 1];
    let where = '';
    if (after) {
      params.push(after[0], after[1]);
      where = `AND (x.${column}, x.game_id) < (timestamptz 'epoch' + $3::bigint * interval '1 microsecond', $4)`;
    }
    const [result, snapshot, plays] = await Promise.all([
      this.db.query<R>(
        `SELECT x.game_id, x.${column} AS at, (extract(epoch FROM x.${column}) * 1000000)::bigint::text AS at_us ${extra}
           FROM ${table} x JOIN games g ON g.id = x.game_id AND g.available
          WHERE x.uid = $1 ${where}
          ORDER BY x.${column} DESC, x.game_id DESC
          LIMIT $2`,
        params,
      ),
      this.catalogue.snapshot(),
      loadPlays(this.db),
    ]);
    const more = result.rows.length > limit;
    const rows = result.rows.slice(0, limit).filter((row) => snapshot.byId.has(row.game_id));
    const last = result.rows[Math.min(limit, result.rows.length) - 1];
    return { rows, next: more && last ? encodeCursor(table, [last.at_us, last.game_id]) : null, snapshot, plays };
  }

  async bookmarks(uid: string, limit: number, cursor?: string): Promise<BookmarkListWire> {
    const { rows, next, snapshot, plays } = await this.page<TimedRow>('bookmarks', 'created_at', '', uid, limit, cursor);
    return {
      status: 'ok',
      bookmarks: rows.map((row) => ({
        game_id: row.game_id,
        created_at: row.at.toISOString(),
        title: titleWire(snapshot.byId.get(row.game_id)!, plays),
      })),
      next_cursor: next,
    };
  }

  async bookmarkState(uid: string, gameId: string): Promise<BookmarkStateWire> {
    await this.titleOf(gameId);
    const { rowCount } = await this.db.query('SELECT 1 FROM bookmarks WHERE uid = $1 AND game_id = $2', [uid, gameId]);
    return { status: 'ok', game_id: gameId, bookmarked: (rowCount ?? 0) > 0 };
  }

  /** Idempotent: bookmarking twice keeps the first time. */
  async addBookmark(uid: string, gameId: string): Promise<BookmarkStateWire> {
    await this.titleOf(gameId);
    // The user's row may not exist yet (their first call to the api could be this one).
    await this.db.query(
      `INSERT INTO users (uid, last_seen_at) VALUES ($1, now()) ON CONFLICT (uid) DO UPDATE SET last_seen_at = EXCLUDED.last_seen_at`,
      [uid],
    );
    await this.db.query('INSERT INTO bookmarks (uid, game_id) VALUES ($1, $2) ON CONFLICT (uid, game_id) DO NOTHING', [uid, gameId]);
    return { status: 'ok', game_id: gameId, bookmarked: true };
  }

  /** Also works for a title withdrawn since (the user can still tidy their list). */
  async removeBookmark(uid: string, gameId: string): Promise<BookmarkStateWire> {
    const { rowCount } = await this.db.query('DELETE FROM bookmarks WHERE uid = $1 AND game_id = $2', [uid, gameId]);
    if (!rowCount) throw new ApiError('bookmark_not_found');
    return { status: 'ok', game_id: gameId, bookmarked: false };
  }

  async history(uid: string, limit: number, cursor?: string): Promise<PlayHistoryListWire> {
    type HistoryRow = TimedRow & { total_seconds: string; play_count: number };
    const { rows, next, snapshot, plays } = await this.page<HistoryRow>(
      'play_histories',
      'last_played_at',
      ', x.total_seconds, x.play_count',
      uid,
      limit,
      cursor,
    );
    return {
      status: 'ok',
      histories: rows.map((row) => ({
        game_id: row.game_id,
        title: titleWire(snapshot.byId.get(row.game_id)!, plays),
        last_played_at: row.at.toISOString(),
        total_seconds: Number(row.total_seconds),
        play_count: row.play_count,
      })),
      next_cursor: next,
    };
  }
}
