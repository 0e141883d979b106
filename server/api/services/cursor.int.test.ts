/**
 * The cursor codec (services/cursor.ts) on its own: a cursor round-trips; a forged one (another
 * list's, not base64 JSON, a key of the wrong length) and every out-of-range key part (numbers
 * JSON cannot hold, microsecond times past year 9999 or negative, impossible dates, offsets
 * PostgreSQL refuses, non-UUIDs, overlong strings) is 400 invalid_request before any query runs.
 * (No services needed; it runs with the integration project like every server test.)
 */
import { ApiError } from '../errors';
import { BAD_CURSOR_MESSAGE, decodeCursor, encodeCursor, type KeyPart } from './cursor';

const forge = (json: string) => Buffer.from(json, 'utf8').toString('base64url');

function refused(order: string, cursor: string, shape: readonly KeyPart[]): void {
  let caught: unknown;
  try {
    decodeCursor(order, cursor, shape);
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(ApiError);
  expect(caught).toMatchObject({ code: 'invalid_request', statusCode: 400, message: BAD_CURSOR_MESSAGE });
}

describe('cursors', () => {
  it('round-trip every kind of key part', () => {
    const key = ['hoshi', 1.5, '1732000000123456', '2025-11-23 13:15:21.123456+09', '0b7e3f0e-6c6a-4a53-9d1e-6f1f3f0f4a11'];
    const shape: KeyPart[] = ['string', 'number', 'epoch_us', 'timestamptz', 'uuid'];
    expect(decodeCursor('list', encodeCursor('list', key), shape)).toEqual(key);
    for (const ts of ['2025-01-02 03:04:05+00', '2024-02-29 23:59:59.5-03:30', '1970-01-01 00:00:00+05:30:15', '9999-12-31 23:59:59.999999+00']) {
      expect(decodeCursor('s', encodeCursor('s', [ts]), ['timestamptz'])).toEqual([ts]);
    }
    expect(decodeCursor('s', encodeCursor('s', ['253402300799999999']), ['epoch_us'])).toEqual(['253402300799999999']);
  });

  it("refuses another list's cursor, garbage and keys of the wrong length", () => {
    refused('bookmarks', encodeCursor('play_histories', ['1', 'a']), ['epoch_us', 'string']);
    refused('bookmarks', 'garbage', ['epoch_us', 'string']);
    refused('bookmarks', forge('[1,2]'), ['epoch_us', 'string']);
    refused('bookmarks', forge('{"o":"bookmarks","k":"1"}'), ['epoch_us', 'string']);
    refused('bookmarks', encodeCursor('bookmarks', ['1']), ['epoch_us', 'string']);
    refused('bookmarks', encodeCursor('bookmarks', ['1', 'a', 'b']), ['epoch_us', 'string']);
  });

  it('refuses numbers that are not finite (JSON literals that overflow)', () => {
    for (const literal of ['1e309', '-1e309']) refused('popular', forge(`{"o":"popular","k":[${literal},"a"]}`), ['number', 'string']);
    refused('popular', forge('{"o":"popular","k":["1","a"]}'), ['number', 'string']);
  });

  it('refuses microsecond times out of range or not plain digits', () => {
    for (const us of ['99999999999999999999', '9223372036854775807', '253402300800000000', '-1', '1e3', '1.5', '', ' 1']) {
      refused('bookmarks', encodeCursor('bookmarks', [us, 'a']), ['epoch_us', 'string']);
    }
    refused('bookmarks', encodeCursor('bookmarks', [1, 'a']), ['epoch_us', 'string']);
  });

  it('refuses timestamps that are not real instants PostgreSQL accepts', () => {
    const bad = [
      '9999-99-99 99:99:99+00',
      '0000-01-01 00:00:00+00',
      '1969-12-31 23:59:59+00',
      '2023-02-29 00:00:00+00',
      '2024-02-30 00:00:00+00',
      '2024-13-01 00:00:00+00',
      '2024-01-01 24:00:00+00',
      '2024-01-01 00:60:00+00',
      '2024-01-01 00:00:60+00',
      '2024-01-01 00:00:00+99:99',
      '2024-01-01 00:00:00+16',
      '2024-01-01 00:00:00.1234567+00',
      '294277-01-01 00:00:00+00',
      '2024-01-01T00:00:00Z',
      '2024-01-01 00:00:00',
    ];
    for (const ts of bad) refused('screenshots', encodeCursor('screenshots', [ts, '0b7e3f0e-6c6a-4a53-9d1e-6f1f3f0f4a11']), ['timestamptz', 'uuid']);
  });

  it('refuses ids that are not UUIDs and strings over 256 characters', () => {
    for (const id of ['', 'not-a-uuid', '0b7e3f0e-6c6a-4a53-9d1e-6f1f3f0f4a1', '0b7e3f0e6c6a4a539d1e6f1f3f0f4a11']) {
      refused('screenshots', encodeCursor('screenshots', ['2025-01-01 00:00:00+00', id]), ['timestamptz', 'uuid']);
    }
    refused('title', encodeCursor('title', ['x'.repeat(257), 'a']), ['string', 'string']);
    expect(decodeCursor('title', encodeCursor('title', ['x'.repeat(256), 'a']), ['string', 'string'])).toHaveLength(2);
  });
});
