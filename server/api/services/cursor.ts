/**
 * The one cursor codec of every paginated list (catalogue, search, magazine, my list,
 * screenshots). A cursor is opaque to clients: base64url JSON of the list's order name and the
 * sort key of the last item sent. Decoding checks everything a forged cursor could get wrong
 * before any of it reaches a query: the order's name (a cursor of one list is refused by
 * another), the key's length, and each part against its kind: strings of bounded length, finite
 * numbers, microsecond timestamps and PostgreSQL timestamps that are real instants between 1970
 * and 9999, UUIDs. Any failure is 400 invalid_request with BAD_CURSOR_MESSAGE (docs/catalogue.md),
 * never a database error.
 */
import { ApiError } from '../errors';

export type SortKey = (string | number)[];

/**
 * What one part of a sort key is:
 * - `string`: any string up to 256 characters (ids, readings);
 * - `number`: a finite number (counts, scores);
 * - `epoch_us`: microseconds since the Unix epoch as a decimal string (PostgreSQL bigint), up to
 *   the end of year 9999;
 * - `timestamptz`: a timestamp as PostgreSQL prints it (`created_at::text`), a real instant in
 *   years 1970..9999 with a valid UTC offset;
 * - `uuid`: a UUID.
 */
export type KeyPart = 'string' | 'number' | 'epoch_us' | 'timestamptz' | 'uuid';

export const BAD_CURSOR_MESSAGE = 'ページの指定（cursor）が正しくありません。最初のページから読み直してください。';

const MAX_STRING_PART = 256;
/** 9999-12-31T23:59:59.999999Z in microseconds since the epoch. */
const MAX_EPOCH_US = 253_402_300_799_999_999n;
const EPOCH_US = /^\d{1,18}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** `2025-01-02 03:04:05.123456+09`, `+05:30`, `-03:30:12` (PostgreSQL's text output). */
const TIMESTAMPTZ = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})(?:\.\d{1,6})?([+-])(\d{2})(?::(\d{2}))?(?::(\d{2}))?$/;

/** A real date and time of years 1970..9999 with an offset PostgreSQL accepts (under 16 h). */
function isTimestamptz(text: string): boolean {
  const match = TIMESTAMPTZ.exec(text);
  if (!match) return false;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number);
  const [offsetHours, offsetMinutes, offsetSeconds] = match.slice(8, 11).map((part) => Number(part ?? 0));
  if (year < 1970 || year > 9999 || hour > 23 || minute > 59 || second > 59) return false;
  if (offsetHours > 15 || offsetMinutes > 59 || offsetSeconds > 59) return false;
  // Date.UTC rolls over out-of-range fields (Feb 30 → Mar 2): a real date comes back unchanged.
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

function isPart(value: unknown, kind: KeyPart): boolean {
  switch (kind) {
    case 'string':
      return typeof value === 'string' && value.length <= MAX_STRING_PART;
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'epoch_us':
      return typeof value === 'string' && EPOCH_US.test(value) && BigInt(value) <= MAX_EPOCH_US;
    case 'timestamptz':
      return typeof value === 'string' && isTimestamptz(value);
    case 'uuid':
      return typeof value === 'string' && UUID.test(value);
  }
}

export function encodeCursor(order: string, key: SortKey): string {
  return Buffer.from(JSON.stringify({ o: order, k: key }), 'utf8').toString('base64url');
}

/** The key inside `cursor`, checked against the order's name and the kind of each key part. */
export function decodeCursor(order: string, cursor: string, shape: readonly KeyPart[]): SortKey {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    parsed = null;
  }
  const { o, k } = (typeof parsed === 'object' && parsed !== null ? parsed : {}) as { o?: unknown; k?: unknown };
  const ok = o === order && Array.isArray(k) && k.length === shape.length && k.every((part, i) => isPart(part, shape[i]));
  if (!ok) throw new ApiError('invalid_request', BAD_CURSOR_MESSAGE);
  return k as SortKey;
}
