/**
 * Screenshots: the PNG goes to the ObjectStorage (storage/), its metadata and owner to the
 * `screenshots` table. Only the owner lists, reads or deletes them. The gallery's WebP thumbnail
 * (thumbnail.ts) is made on its first request and kept in the same storage beside the PNG.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type pg from 'pg';
import type { ScreenshotWire } from '../../../lib/api-types/schemas/sessions';
import { ApiError } from '../errors';
import { decodeCursor, encodeCursor } from './cursor';
import type { ObjectStorage } from '../storage';
import type { PngInfo } from './png';
import type { SessionRow } from './sessionStore';
import { makeThumbnail, thumbnailKey } from './thumbnail';

interface ScreenshotRow {
  id: string;
  uid: string;
  session_id: string;
  game_id: string;
  storage_key: string;
  width: number;
  height: number;
  bytes: number;
  created_at: Date;
  cursor_ts: string;
}

export function toWire(row: ScreenshotRow): ScreenshotWire {
  return {
    id: row.id,
    game_id: row.game_id,
    session_id: row.session_id,
    width: row.width,
    height: row.height,
    bytes: row.bytes,
    created_at: row.created_at.toISOString(),
  };
}

const COLUMNS = 'id, uid, session_id, game_id, storage_key, width, height, bytes, created_at, created_at::text AS cursor_ts';

/** The list's order in its cursors (services/cursor.ts): created_at as PostgreSQL prints it, then the id. */
const CURSOR_ORDER = 'screenshots';

function afterOf(cursor: string): { ts: string; id: string } {
  const [ts, id] = decodeCursor(CURSOR_ORDER, cursor, ['timestamptz', 'uuid']) as [string, string];
  return { ts, id };
}

export class ScreenshotService {
  /** Thumbnails being read or made, by screenshot id: concurrent requests share one. */
  private readonly thumbnails = new Map<string, Promise<Buffer>>();

  constructor(
    private readonly db: pg.Pool,
    private readonly storage: ObjectStorage,
    private readonly log: FastifyBaseLogger,
  ) {}

  async create(session: SessionRow, png: Buffer, info: PngInfo): Promise<{ id: string }> {
    const id = randomUUID();
    const key = `${session.uid.replace(/[^A-Za-z0-9_-]/g, '_')}/${id}.png`;
    // The file first: a row never points at nothing. A failed insert leaves an orphan file,
    // which we remove at once.
    await this.storage.put(key, png, 'image/png');
    try {
      await this.db.query(
        `INSERT INTO screenshots (id, uid, session_id, game_id, storage_key, width, height, bytes)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [id, session.uid, session.id, session.game_id, key, info.width, info.height, png.length],
      );
    } catch (error) {
      await this.storage.delete(key).catch(() => {});
      throw error;
    }
    return { id };
  }

  async list(uid: string, limit: number, cursor: string | undefined): Promise<{ items: ScreenshotWire[]; next: string | null }> {
    const after = cursor ? afterOf(cursor) : null;
    const params: unknown[] = [uid, limit + 1];
    let where = 'uid = $1';
    if (after) {
      params.push(after.ts, after.id);
      where += ' AND (created_at, id) < ($3::timestamptz, $4::uuid)';
    }
    const { rows } = await this.db.query<ScreenshotRow>(
      `SELECT ${COLUMNS} FROM screenshots WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT $2`,
      params,
    );
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    const next = rows.length > limit && last ? encodeCursor(CURSOR_ORDER, [last.cursor_ts, last.id]) : null;
    return { items: page.map(toWire), next };
  }

  /** The owner's screenshot, or 404 screenshot_not_found (also for someone else's). */
  async owned(uid: string, id: string): Promise<ScreenshotRow> {
    const { rows } = await this.db.query<ScreenshotRow>(`SELECT ${COLUMNS} FROM screenshots WHERE id = $1 AND uid = $2`, [id, uid]);
    if (!rows[0]) throw new ApiError('screenshot_not_found');
    return rows[0];
  }

  async image(uid: string, id: string): Promise<Buffer> {
    return this.png(await this.owned(uid, id));
  }

  /**
   * The owner's screenshot as the gallery's WebP thumbnail: the kept one, or made from the PNG
   * now and kept (also when the kept file went missing). 404 like `image`. In this process,
   * requests for one screenshot share one read-or-make; an entry goes only after its file is
   * kept, so a later request finds the file. Across processes each makes the same bytes and the
   * storage's atomic put lets the last one win.
   */
  async thumbnail(uid: string, id: string): Promise<Buffer> {
    const row = await this.owned(uid, id);
    let pending = this.thumbnails.get(row.id);
    if (!pending) {
      pending = this.keptOrMadeThumbnail(row).finally(() => this.thumbnails.delete(row.id));
      this.thumbnails.set(row.id, pending);
    }
    return pending;
  }

  private async keptOrMadeThumbnail(row: ScreenshotRow): Promise<Buffer> {
    const key = thumbnailKey(row.storage_key);
    const kept = await this.storage.get(key);
    if (kept) return kept;
    const webp = await this.thumbnailOf(row);
    try {
      await this.storage.put(key, webp, 'image/webp');
    } catch (error) {
      // Not kept is not fatal: this answer still has its thumbnail, the next request retries.
      this.log.warn({ err: error, key }, 'screenshot thumbnail not kept');
      return webp;
    }
    // A delete that ran meanwhile found no thumbnail to remove: remove it now.
    const { rowCount } = await this.db.query('SELECT 1 FROM screenshots WHERE id = $1', [row.id]);
    if (!rowCount) await this.storage.delete(key).catch(() => {});
    return webp;
  }

  /**
   * The thumbnail made from a row's PNG. The upload check (png.ts) reads the PNG's header and
   * end, not its pixels: a file whose image data is damaged is logged and reads as not found,
   * like a missing one (the gallery shows its placeholder tile), never as a 500.
   */
  private async thumbnailOf(row: ScreenshotRow): Promise<Buffer> {
    const png = await this.png(row);
    try {
      return await makeThumbnail(png);
    } catch (error) {
      this.log.error({ err: error, screenshotId: row.id, key: row.storage_key }, 'screenshot file not decodable');
      throw new ApiError('screenshot_not_found');
    }
  }

  /** The stored PNG of a row; a missing file is logged and reads as not found. */
  private async png(row: ScreenshotRow): Promise<Buffer> {
    const data = await this.storage.get(row.storage_key);
    if (!data) {
      this.log.error({ screenshotId: row.id, key: row.storage_key }, 'screenshot file missing');
      throw new ApiError('screenshot_not_found');
    }
    return data;
  }

  async delete(uid: string, id: string): Promise<void> {
    const { rows } = await this.db.query<{ storage_key: string }>(
      'DELETE FROM screenshots WHERE id = $1 AND uid = $2 RETURNING storage_key',
      [id, uid],
    );
    if (!rows[0]) throw new ApiError('screenshot_not_found');
    for (const key of [rows[0].storage_key, thumbnailKey(rows[0].storage_key)]) {
      await this.storage.delete(key).catch((error) => {
        this.log.warn({ err: error, key }, 'screenshot file not removed');
      });
    }
  }
}
