/**
 * The screenshot routes against the real database and a temporary screenshot folder: a fake host
 * uploads PNGs, the owner lists, reads, thumbnails and deletes them, strangers get one 404.
 * Run: node_modules/.bin/tsx server/dev/with-services.ts -- node_modules/.bin/jest --selectProjects integration -- screenshots
 */
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { FakeHost, makePng } from '../testing/fake-host';
import { request, startSessionApp, TEST_HOST_SECRET, TestUsers, waitFor, type SessionTestApp } from '../testing/sessions';
import { createTestSchema, type TestSchema } from '../testing/test-app';

jest.setTimeout(60_000);

const GAME = 'hoshifuru-toshokan';
/** A real frame of that title (1280×720, Japanese text on a busy scene), as the PNG a host sends. */
const SCENE = path.resolve(__dirname, '../../../public/games', GAME, 'screenshots/02.webp');

describe('screenshots', () => {
  let schema: TestSchema;
  let api: SessionTestApp;
  let host: FakeHost;
  let dir: string;
  const users = new TestUsers();

  beforeAll(async () => {
    schema = await createTestSchema('shots');
    dir = await mkdtemp(path.join(tmpdir(), 'yc-shots-test-'));
    api = await startSessionApp(schema.name, {}, { screenshotDir: dir });
    host = await new FakeHost({ id: 'host-shots', capacity: 4, secret: TEST_HOST_SECRET, apiBase: api.base }).listen();
    await host.register();
  });

  afterAll(async () => {
    await host?.close();
    await api?.close();
    await users.cleanup();
    await schema?.drop();
    await rm(dir, { recursive: true, force: true });
  });

  async function liveSession(): Promise<{ id: string; idToken: string; uid: string }> {
    const user = await users.email();
    const started = await request(api.base, 'GET', `/v1/game/${GAME}/start`, { token: user.idToken });
    const id = started.body.game_session_id;
    await waitFor(async () => (await request(api.base, 'GET', `/v1/session/${id}/status`, { token: user.idToken })).body.session_state === 'ready');
    return { id, idToken: user.idToken, uid: user.uid };
  }

  async function files(): Promise<string[]> {
    const out: string[] = [];
    for (const sub of await readdir(dir).catch(() => [] as string[])) {
      for (const file of await readdir(path.join(dir, sub))) out.push(`${sub}/${file}`);
    }
    return out;
  }

  it('stores a PNG from the host and shows it to its owner only', async () => {
    const owner = await liveSession();
    const png = makePng(1280, 720);
    const upload = await host.call('POST', `/internal/sessions/${owner.id}/screenshots`, png);
    expect(upload.status).toBe(201);
    expect(upload.body).toEqual({ status: 'ok', screenshotId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    const shotId = upload.body.screenshotId;
    expect(await files()).toEqual([expect.stringMatching(new RegExp(`/${shotId}\\.png$`))]);

    const list = await request(api.base, 'GET', '/v1/screenshots', { token: owner.idToken });
    expect(list.status).toBe(200);
    const meta = { id: shotId, game_id: GAME, session_id: owner.id, width: 1280, height: 720, bytes: png.length, created_at: expect.any(String) };
    expect(list.body).toEqual({ status: 'ok', screenshots: [meta], next_cursor: null });
    expect((await request(api.base, 'GET', `/v1/screenshots/${shotId}`, { token: owner.idToken })).body).toEqual({ status: 'ok', screenshot: meta });

    const image = await request(api.base, 'GET', `/v1/screenshots/${shotId}/image`, { token: owner.idToken });
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(image.headers.get('cache-control')).toMatch(/private/);
    expect(image.raw.equals(png)).toBe(true);

    // Nobody else: the same 404 for someone else's id, an unknown one and a malformed one.
    const stranger = await users.email();
    expect((await request(api.base, 'GET', '/v1/screenshots', { token: stranger.idToken })).body.screenshots).toEqual([]);
    const bodies = new Set<string>();
    for (const id of [shotId, '00000000-0000-4000-8000-000000000000', 'nope']) {
      for (const [method, url] of [
        ['GET', `/v1/screenshots/${id}`],
        ['GET', `/v1/screenshots/${id}/image`],
        ['GET', `/v1/screenshots/${id}/thumbnail`],
        ['DELETE', `/v1/screenshots/${id}`],
      ]) {
        const answer = await request(api.base, method, url, { token: stranger.idToken });
        expect(answer.status).toBe(404);
        bodies.add(answer.raw.toString('utf8'));
      }
    }
    expect(bodies.size).toBe(1);
    expect(JSON.parse([...bodies][0]).error.code).toBe('screenshot_not_found');
    for (const url of ['/v1/screenshots', `/v1/screenshots/${shotId}`, `/v1/screenshots/${shotId}/image`, `/v1/screenshots/${shotId}/thumbnail`]) {
      expect((await request(api.base, 'GET', url)).status).toBe(401);
    }

    // Delete: row and file go.
    const deleted = await request(api.base, 'DELETE', `/v1/screenshots/${shotId}`, { token: owner.idToken });
    expect(deleted.body).toEqual({ status: 'ok' });
    expect(await files()).toEqual([]);
    expect((await request(api.base, 'GET', `/v1/screenshots/${shotId}`, { token: owner.idToken })).status).toBe(404);
    expect((await request(api.base, 'DELETE', `/v1/screenshots/${shotId}`, { token: owner.idToken })).status).toBe(404);
    await request(api.base, 'GET', `/v1/session/${owner.id}/force_close`, { token: owner.idToken });
  });

  it('makes a small WebP thumbnail once, keeps it beside the PNG, and serves the kept one', async () => {
    const owner = await liveSession();
    const png = await sharp(SCENE).png().toBuffer();
    const shotId = (await host.call('POST', `/internal/sessions/${owner.id}/screenshots`, png)).body.screenshotId;
    const url = `/v1/screenshots/${shotId}/thumbnail`;
    const puts = jest.spyOn(api.app.objectStorage, 'put');
    try {
      // Concurrent first requests: one thumbnail made and kept, the same bytes for all.
      const first = await Promise.all([1, 2, 3, 4].map(() => request(api.base, 'GET', url, { token: owner.idToken })));
      expect(first.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
      expect(new Set(first.map((answer) => answer.raw.toString('base64'))).size).toBe(1);
      expect(puts.mock.calls.filter(([key]) => key.endsWith('.webp'))).toHaveLength(1);
    } finally {
      puts.mockRestore();
    }
    const thumb = await request(api.base, 'GET', url, { token: owner.idToken });
    expect(thumb.headers.get('content-type')).toBe('image/webp');
    expect(thumb.headers.get('cache-control')).toMatch(/^private, max-age=\d+, immutable$/);
    expect(thumb.headers.get('x-content-type-options')).toBe('nosniff');
    expect(thumb.raw.toString('latin1', 0, 4) + thumb.raw.toString('latin1', 8, 12)).toBe('RIFFWEBP');
    expect(await sharp(thumb.raw).metadata()).toMatchObject({ format: 'webp', width: 320, height: 180, hasAlpha: false });
    expect(thumb.raw.length).toBeLessThanOrEqual(10_000);
    expect(thumb.raw.length * 20).toBeLessThan(png.length);

    // Kept beside the PNG; a later request is answered from that file (swapped here for a marker).
    const kept = (await files()).find((file) => file.endsWith('.webp'));
    expect(kept).toMatch(new RegExp(`/${shotId}\\.w320q75\\.webp$`));
    const keptFile = path.join(dir, kept!);
    expect((await readFile(keptFile)).equals(thumb.raw)).toBe(true);
    const marker = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#f00' } }).webp().toBuffer();
    await writeFile(keptFile, marker);
    expect((await request(api.base, 'GET', url, { token: owner.idToken })).raw.equals(marker)).toBe(true);
    // A kept file that went missing is made again.
    await rm(keptFile);
    expect((await request(api.base, 'GET', url, { token: owner.idToken })).raw.equals(thumb.raw)).toBe(true);
    expect(await files()).toHaveLength(2);

    // Revalidation: 304 for the owner, the same 404 as ever for anyone else.
    const etag = thumb.headers.get('etag')!;
    expect(etag).toMatch(new RegExp(`^"${shotId}\\.w320q75"$`));
    const again = await request(api.base, 'GET', url, { token: owner.idToken, headers: { 'if-none-match': etag } });
    expect([again.status, again.raw.length]).toEqual([304, 0]);
    const stranger = await users.email();
    const refused = await request(api.base, 'GET', url, { token: stranger.idToken, headers: { 'if-none-match': etag } });
    expect([refused.status, refused.body.error.code, refused.headers.get('etag')]).toEqual([404, 'screenshot_not_found', null]);

    // The viewer's PNG is untouched; a small screenshot is never enlarged; delete removes both files.
    expect((await request(api.base, 'GET', `/v1/screenshots/${shotId}/image`, { token: owner.idToken })).raw.equals(png)).toBe(true);
    const tinyId = (await host.call('POST', `/internal/sessions/${owner.id}/screenshots`, makePng(16, 9))).body.screenshotId;
    const tiny = await request(api.base, 'GET', `/v1/screenshots/${tinyId}/thumbnail`, { token: owner.idToken });
    expect(await sharp(tiny.raw).metadata()).toMatchObject({ width: 16, height: 9 });
    for (const id of [shotId, tinyId]) await request(api.base, 'DELETE', `/v1/screenshots/${id}`, { token: owner.idToken });
    expect(await files()).toEqual([]);
    await request(api.base, 'GET', `/v1/session/${owner.id}/force_close`, { token: owner.idToken });
  });

  it('answers a typed 404 for a stored PNG whose image data cannot be decoded, and keeps no thumbnail', async () => {
    const owner = await liveSession();
    // Passes the upload check (signature, IHDR, IEND) but its IDAT is not zlib data.
    const good = makePng(64, 36);
    const idat = good.indexOf('IDAT', 0, 'latin1');
    const damaged = Buffer.from(good);
    damaged.fill(0x5a, idat + 4, idat + 4 + damaged.readUInt32BE(idat - 4));
    const shotId = (await host.call('POST', `/internal/sessions/${owner.id}/screenshots`, damaged)).body.screenshotId;
    const thumb = await request(api.base, 'GET', `/v1/screenshots/${shotId}/thumbnail`, { token: owner.idToken });
    expect([thumb.status, thumb.body.error.code]).toEqual([404, 'screenshot_not_found']);
    expect((await files()).filter((file) => file.endsWith('.webp'))).toEqual([]);
    await request(api.base, 'DELETE', `/v1/screenshots/${shotId}`, { token: owner.idToken });
    await request(api.base, 'GET', `/v1/session/${owner.id}/force_close`, { token: owner.idToken });
  });

  it('pages through a list newest first with an opaque cursor', async () => {
    const owner = await liveSession();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const upload = await host.call('POST', `/internal/sessions/${owner.id}/screenshots`, makePng(16 + i, 9));
      ids.push(upload.body.screenshotId);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 4; page++) {
      const url: string = `/v1/screenshots?limit=2${cursor ? `&cursor=${cursor}` : ''}`;
      const answer = await request(api.base, 'GET', url, { token: owner.idToken });
      expect(answer.status).toBe(200);
      seen.push(...answer.body.screenshots.map((s: { id: string }) => s.id));
      cursor = answer.body.next_cursor;
      if (!cursor) break;
    }
    expect(seen).toEqual([...ids].reverse());
    expect((await request(api.base, 'GET', '/v1/screenshots?cursor=garbage', { token: owner.idToken })).status).toBe(400);
    expect((await request(api.base, 'GET', '/v1/screenshots?limit=101', { token: owner.idToken })).status).toBe(400);
    await request(api.base, 'GET', `/v1/session/${owner.id}/force_close`, { token: owner.idToken });
  });

  it('refuses uploads that are not PNG, too large, from another host or for an ended session', async () => {
    const owner = await liveSession();
    const url = `/internal/sessions/${owner.id}/screenshots`;
    const wrongType = await host.call('POST', url, makePng(4, 4), { 'content-type': 'image/jpeg' });
    expect(wrongType.status).toBe(415);
    const notPng = await host.call('POST', url, Buffer.from('definitely not a png, just some bytes to look like one'));
    expect(notPng.status).toBe(400);
    const truncated = makePng(8, 8).subarray(0, 40);
    expect((await host.call('POST', url, truncated)).status).toBe(400);
    const huge = Buffer.concat([makePng(4, 4), Buffer.alloc(8 * 1024 * 1024)]);
    const tooLarge = await host.call('POST', url, huge);
    expect(tooLarge.status).toBe(413);

    const other = await new FakeHost({ id: 'host-other', capacity: 0, secret: TEST_HOST_SECRET, apiBase: api.base }).listen();
    try {
      expect((await other.call('POST', url, makePng(4, 4))).status).toBe(404);
    } finally {
      await other.close();
    }
    await request(api.base, 'GET', `/v1/session/${owner.id}/force_close`, { token: owner.idToken });
    const ended = await host.call('POST', url, makePng(4, 4));
    expect(ended.status).toBe(409);
    expect(ended.body.error.code).toBe('session_closed');
    const { rows } = await schema.pool.query('SELECT count(*)::int AS n FROM screenshots WHERE session_id = $1', [owner.id]);
    expect(rows[0].n).toBe(0);
    expect(await stat(dir).then(() => true)).toBe(true);
  });
});
