/**
 * My list: bookmarks and play history of verified users, over the real catalogue. Another
 * user's bookmark is a 404 and never appears in a list; visitors get 403 verified_required.
 */
import { appPerFile, request, TestUsers } from '../testing/sessions';

jest.setTimeout(60_000);

const users = new TestUsers();
const file = appPerFile('mylist', { users });
const call = (method: string, url: string, token?: string) => request(file.api.base, method, url, { token });


describe('bookmarks', () => {
  it('adds (idempotently), reads, lists newest first and removes a bookmark', async () => {
    const user = await users.email();
    const url = '/v1/mylist/bookmarks/hoshifuru-toshokan';
    expect((await call('GET', url, user.idToken)).body).toEqual({ status: 'ok', game_id: 'hoshifuru-toshokan', bookmarked: false });
    expect((await call('PUT', url, user.idToken)).body).toEqual({ status: 'ok', game_id: 'hoshifuru-toshokan', bookmarked: true });
    const firstAt = (await call('GET', '/v1/mylist/bookmarks', user.idToken)).body.bookmarks[0].created_at;
    expect((await call('PUT', url, user.idToken)).body.bookmarked).toBe(true);
    expect((await call('PUT', '/v1/mylist/bookmarks/sakurairo-signal', user.idToken)).status).toBe(200);
    expect((await call('GET', url, user.idToken)).body.bookmarked).toBe(true);

    const list = (await call('GET', '/v1/mylist/bookmarks', user.idToken)).body;
    expect(list.next_cursor).toBeNull();
    expect(list.bookmarks.map((b: { game_id: string }) => b.game_id)).toEqual(['sakurairo-signal', 'hoshifuru-toshokan']);
    expect(list.bookmarks[1]).toEqual({
      game_id: 'hoshifuru-toshokan',
      created_at: firstAt, // the second PUT kept the first time
      title: expect.objectContaining({ id: 'hoshifuru-toshokan', title: '星降る図書館', brand: '月灯工房' }),
    });

    expect((await call('DELETE', url, user.idToken)).body).toEqual({ status: 'ok', game_id: 'hoshifuru-toshokan', bookmarked: false });
    const again = await call('DELETE', url, user.idToken);
    expect(again.status).toBe(404);
    expect(again.body.error).toEqual({ code: 'bookmark_not_found', message: 'このゲームはブックマークに登録されていません。' });
    expect((await call('GET', '/v1/mylist/bookmarks', user.idToken)).body.bookmarks).toHaveLength(1);
  });

  it('answers 404 for unknown and malformed ids with the typed code', async () => {
    const user = await users.email();
    for (const [method, code] of [['GET', 'game_not_found'], ['PUT', 'game_not_found'], ['DELETE', 'bookmark_not_found']] as const) {
      for (const id of ['no-such-title', 'Bad_Id']) {
        const answer = await call(method, `/v1/mylist/bookmarks/${id}`, user.idToken);
        expect([method, id, answer.status, answer.body.error.code]).toEqual([method, id, 404, code]);
      }
    }
  });

  it("never shows or removes another user's bookmarks", async () => {
    const [alice, bob] = [await users.email(), await users.email()];
    await call('PUT', '/v1/mylist/bookmarks/hajimari-no-eki', alice.idToken);
    expect((await call('GET', '/v1/mylist/bookmarks/hajimari-no-eki', bob.idToken)).body.bookmarked).toBe(false);
    const steal = await call('DELETE', '/v1/mylist/bookmarks/hajimari-no-eki', bob.idToken);
    expect(steal.status).toBe(404);
    expect(steal.body.error.code).toBe('bookmark_not_found');
    expect((await call('GET', '/v1/mylist/bookmarks', bob.idToken)).body).toEqual({ status: 'ok', bookmarks: [], next_cursor: null });
    expect((await call('GET', '/v1/mylist/bookmarks', alice.idToken)).body.bookmarks).toHaveLength(1);
  });

  it('pages bookmarks with a cursor (round trip) and bounds the limit', async () => {
    const user = await users.email();
    const ids = ['hajimari-no-eki', 'hoshifuru-toshokan', 'sakurairo-signal'];
    for (const id of ids) await call('PUT', `/v1/mylist/bookmarks/${id}`, user.idToken);
    // same created_at for two rows: the keyset's tie on game_id must still page cleanly
    await file.schema.pool.query(`UPDATE bookmarks SET created_at = '2026-11-01T00:00:00.123456Z' WHERE uid = $1 AND game_id <> 'sakurairo-signal'`, [user.uid]);
    const first = (await call('GET', '/v1/mylist/bookmarks?limit=2', user.idToken)).body;
    expect(first.bookmarks).toHaveLength(2);
    expect(first.next_cursor).toEqual(expect.any(String));
    const second = (await call('GET', `/v1/mylist/bookmarks?limit=2&cursor=${first.next_cursor}`, user.idToken)).body;
    expect(second.next_cursor).toBeNull();
    const seen = [...first.bookmarks, ...second.bookmarks].map((b: { game_id: string }) => b.game_id);
    expect(seen).toEqual(['sakurairo-signal', 'hoshifuru-toshokan', 'hajimari-no-eki']);
    for (const query of ['limit=0', 'limit=101', 'cursor=garbage']) {
      const bad = await call('GET', `/v1/mylist/bookmarks?${query}`, user.idToken);
      expect([query, bad.status, bad.body.error.code]).toEqual([query, 400, 'invalid_request']);
    }
  });
});

describe('access', () => {
  it('refuses visitors (anonymous accounts) with 403 verified_required and callers without a token with 401', async () => {
    const visitor = await users.anonymous();
    for (const [method, url] of [
      ['GET', '/v1/mylist/bookmarks'],
      ['GET', '/v1/mylist/bookmarks/hajimari-no-eki'],
      ['PUT', '/v1/mylist/bookmarks/hajimari-no-eki'],
      ['DELETE', '/v1/mylist/bookmarks/hajimari-no-eki'],
      ['GET', '/v1/mylist/history'],
    ]) {
      const anonymous = await call(method, url, visitor.idToken);
      expect([method, url, anonymous.status, anonymous.body.error.code]).toEqual([method, url, 403, 'verified_required']);
      expect(anonymous.body.error.message).toContain('マイリスト');
      expect((await call(method, url)).status).toBe(401);
    }
    const { rows } = await file.schema.pool.query('SELECT count(*)::int AS n FROM bookmarks WHERE uid = $1', [visitor.uid]);
    expect(rows[0].n).toBe(0);
  });
});

describe('history', () => {
  it("lists the caller's history last played first, paged, and never another user's", async () => {
    const [me, other] = [await users.email(), await users.email()];
    await file.schema.pool.query('INSERT INTO users (uid) VALUES ($1), ($2) ON CONFLICT DO NOTHING', [me.uid, other.uid]);
    await file.schema.pool.query(
      `INSERT INTO play_histories (uid, game_id, last_played_at, total_seconds, play_count) VALUES
         ($1, 'hajimari-no-eki', '2026-11-10T10:00:00Z', 600, 2),
         ($1, 'hoshifuru-toshokan', '2026-11-12T10:00:00Z', 90, 1),
         ($2, 'sakurairo-signal', '2026-11-13T10:00:00Z', 30, 1)`,
      [me.uid, other.uid],
    );
    const first = (await call('GET', '/v1/mylist/history?limit=1', me.idToken)).body;
    expect(first.histories).toEqual([
      {
        game_id: 'hoshifuru-toshokan',
        title: expect.objectContaining({ id: 'hoshifuru-toshokan' }),
        last_played_at: '2026-11-12T10:00:00.000Z',
        total_seconds: 90,
        play_count: 1,
      },
    ]);
    const second = (await call('GET', `/v1/mylist/history?limit=1&cursor=${first.next_cursor}`, me.idToken)).body;
    expect(second.histories.map((h: { game_id: string; total_seconds: number }) => [h.game_id, h.total_seconds])).toEqual([['hajimari-no-eki', 600]]);
    expect(second.next_cursor).toBeNull();
    const bookmarkCursor = await call('GET', `/v1/mylist/bookmarks?cursor=${first.next_cursor}`, me.idToken);
    expect(bookmarkCursor.status).toBe(400);
    expect((await call('GET', '/v1/mylist/history', other.idToken)).body.histories.map((h: { game_id: string }) => h.game_id)).toEqual(['sakurairo-signal']);
  });
});
