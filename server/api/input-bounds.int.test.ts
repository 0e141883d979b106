/**
 * Issue 10's 500s, against the real app: `limit=±Infinity / ±1e309` on the public lists
 * (titles, search, magazine) and on the signed-in ones (bookmarks, history, screenshots) is 400
 * invalid_request naming `limit` (server/shared/finite-numbers.ts), never 500 nor an unbounded
 * page; forged cursors with out-of-range numbers or dates on the signed-in lists are 400
 * invalid_request (services/cursor.ts), while the extremes that are valid still answer 200.
 */
import { encodeCursor } from './services/cursor';
import { request, startSessionApp, TestUsers, type SessionTestApp } from './testing/sessions';
import { createTestSchema, type TestSchema } from './testing/test-app';

jest.setTimeout(60_000);

let schema: TestSchema;
let api: SessionTestApp;
let token: string;
const users = new TestUsers();

beforeAll(async () => {
  schema = await createTestSchema('bounds');
  api = await startSessionApp(schema.name);
  token = (await users.email()).idToken;
});

afterAll(async () => {
  await api?.close();
  await users.cleanup();
  await schema?.drop();
});

const forge = (json: string) => Buffer.from(json, 'utf8').toString('base64url');
const UUID = '0b7e3f0e-6c6a-4a53-9d1e-6f1f3f0f4a11';

async function expectInvalid(url: string, field: string, signedIn: boolean): Promise<void> {
  const answer = await request(api.base, 'GET', url, signedIn ? { token } : {});
  expect([url, answer.status, answer.body?.error?.code]).toEqual([url, 400, 'invalid_request']);
  expect(answer.body.error.message).toContain(field);
}

describe('limit is a finite number in 1..100 everywhere', () => {
  const values = ['Infinity', '-Infinity', '1e309', '-1e309', 'NaN', '-0', '0', '101'];

  it.each(['/v1/catalog/titles', '/v1/catalog/search?q=a', '/v1/magazine'])('on %s (public)', async (list) => {
    for (const value of values) await expectInvalid(`${list}${list.includes('?') ? '&' : '?'}limit=${value}`, 'limit', false);
    expect((await request(api.base, 'GET', `${list}${list.includes('?') ? '&' : '?'}limit=1e2`)).status).toBe(200);
  });

  it.each(['/v1/mylist/bookmarks', '/v1/mylist/history', '/v1/screenshots'])('on %s (signed in)', async (list) => {
    for (const value of values) await expectInvalid(`${list}?limit=${value}`, 'limit', true);
    expect((await request(api.base, 'GET', `${list}?limit=100`, { token })).status).toBe(200);
  });
});

describe('forged cursors of the signed-in lists are 400, never a database error', () => {
  it('on my list (bookmarks, history): microsecond times out of range, numbers, wrong names', async () => {
    for (const [list, order] of [['/v1/mylist/bookmarks', 'bookmarks'], ['/v1/mylist/history', 'play_histories']]) {
      const forged = [
        encodeCursor(order, ['99999999999999999999', 'hoshifuru-toshokan']),
        encodeCursor(order, ['9223372036854775807', 'hoshifuru-toshokan']),
        encodeCursor(order, ['-1', 'hoshifuru-toshokan']),
        forge(`{"o":"${order}","k":[1e309,"hoshifuru-toshokan"]}`),
        encodeCursor(order === 'bookmarks' ? 'play_histories' : 'bookmarks', ['1', 'hoshifuru-toshokan']),
        'garbage',
      ];
      for (const cursor of forged) await expectInvalid(`${list}?cursor=${cursor}`, 'cursor', true);
      // The last valid instant (end of year 9999) is a cursor like any other.
      const last = await request(api.base, 'GET', `${list}?cursor=${encodeCursor(order, ['253402300799999999', 'zzz'])}`, { token });
      expect(last.status).toBe(200);
    }
  });

  it('on screenshots: impossible dates, offsets, years out of range, non-UUIDs', async () => {
    const forged = [
      encodeCursor('screenshots', ['9999-99-99 99:99:99+00', UUID]),
      encodeCursor('screenshots', ['0000-01-01 00:00:00+00', UUID]),
      encodeCursor('screenshots', ['2024-02-30 00:00:00+00', UUID]),
      encodeCursor('screenshots', ['2024-01-01 00:00:00+99:99', UUID]),
      encodeCursor('screenshots', ['2024-01-01 00:00:00+00', 'not-a-uuid']),
      // The format before the shared codec: refused like any foreign cursor.
      forge(JSON.stringify(['2024-01-01 00:00:00+00', UUID])),
    ];
    for (const cursor of forged) await expectInvalid(`/v1/screenshots?cursor=${cursor}`, 'cursor', true);
    for (const ts of ['9999-12-31 23:59:59.999999-15', '1970-01-01 00:00:00+00']) {
      const answer = await request(api.base, 'GET', `/v1/screenshots?cursor=${encodeCursor('screenshots', [ts, UUID])}`, { token });
      expect([ts, answer.status]).toEqual([ts, 200]);
    }
  });
});
