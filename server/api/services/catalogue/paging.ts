/**
 * Keyset pages. A cursor is opaque to clients: base64url JSON of the order's name and the sort
 * key of the last item sent (the codec is services/cursor.ts, shared by every list). The next
 * page is every item whose key sorts after it, so pages neither repeat nor skip items when rows
 * are added or removed between two requests. A cursor that was not made here (or for another
 * order) is 400 invalid_request.
 */
import { decodeCursor, encodeCursor, type KeyPart, type SortKey } from '../cursor';

export type { KeyPart, SortKey };

export interface Order<T> {
  /** Names the order inside the cursor (a cursor of one order is refused by another). */
  name: string;
  key(item: T): SortKey;
  /** 1 ascending, -1 descending, per key part. */
  dirs: readonly (1 | -1)[];
  /** The type of each key part (a cursor's key is checked against it). */
  shape: readonly KeyPart[];
}

export interface Page<T> {
  items: T[];
  next: string | null;
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
