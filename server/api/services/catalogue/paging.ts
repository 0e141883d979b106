/**
 * Keyset pages. A cursor is opaque to clients: base64url JSON of the order's name and the sort
 * key of the last item sent. The next page is every item whose key sorts after it, so pages
 * neither repeat nor skip items when rows are added or removed between two requests. A cursor
 * that was not made here (or for another order) is 400 invalid_request.
 */
import { ApiError } from '../../errors';

export type SortKey = (string | number)[];

export interface Order<T> {
  /** Names the order inside the cursor (a cursor of one order is refused by another). */
  name: string;
  key(item: T): SortKey;
  /** 1 ascending, -1 descending, per key part. */
  dirs: readonly (1 | -1)[];
  /** The type of each key part (a cursor's key is checked against it). */
  shape: readonly KeyPart[];
}

export type KeyPart = 'string' | 'number';

export interface Page<T> {
  items: T[];
  next: string | null;
}

export const BAD_CURSOR_MESSAGE = 'ページの指定（cursor）が正しくありません。最初のページから読み直してください。';

export function encodeCursor(order: string, key: SortKey): string {
  return Buffer.from(JSON.stringify({ o: order, k: key }), 'utf8').toString('base64url');
}

/** The key inside `cursor`, checked against the order's name and key shape. */
export function decodeCursor(order: string, cursor: string, shape: readonly KeyPart[]): SortKey {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    parsed = null;
  }
  const { o, k } = (typeof parsed === 'object' && parsed !== null ? parsed : {}) as { o?: unknown; k?: unknown };
  const ok =
    o === order &&
    Array.isArray(k) &&
    k.length === shape.length &&
    k.every((part, i) => typeof part === shape[i] && (typeof part !== 'number' || Number.isFinite(part)));
  if (!ok) throw new ApiError('invalid_request', BAD_CURSOR_MESSAGE);
  return k as SortKey;
}

export function compareKeys(a: SortKey, b: SortKey, dirs: readonly (1 | -1)[]): number {
  for (let i = 0; i < dirs.length; i++) {
    const x = a[i];
    const y = b[i];
    if (x === y) continue;
    return (x < y ? -1 : 1) * dirs[i];
  }
  return 0;
}

export function sortBy<T>(items: readonly T[], order: Order<T>): T[] {
  const keyed = items.map((item) => ({ item, key: order.key(item) }));
  keyed.sort((a, b) => compareKeys(a.key, b.key, order.dirs));
  return keyed.map((entry) => entry.item);
}

/** One page of `sorted` (already in `order`) after `cursor`. */
export function pageOf<T>(sorted: readonly T[], order: Order<T>, limit: number, cursor?: string): Page<T> {
  let start = 0;
  if (cursor) {
    const after = decodeCursor(order.name, cursor, order.shape);
    start = sorted.findIndex((item) => compareKeys(order.key(item), after, order.dirs) > 0);
    if (start < 0) start = sorted.length;
  }
  const items = sorted.slice(start, start + limit);
  const more = start + limit < sorted.length;
  return { items, next: more ? encodeCursor(order.name, order.key(items[items.length - 1])) : null };
}
