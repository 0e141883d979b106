/**
 * The fuzz suite's world: the api on its own schema (with the internal routes switched on, so
 * they are fuzzed without their secret, and the rate limits raised, so the run reaches the
 * routes rather than the limiter), every route and its schemas, a signed-in emulator user
 * with bookmarks and play history (so lists and cursors reach the database), the names of real
 * cursor orders, the ids that exist (never generated), and the authorization headers of each
 * identity the fuzzer sends as.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { craftIdToken, type EmulatorUser } from '../../testing/emulator-users';
import { testSessionConfig, TestUsers } from '../../testing/sessions';
import { buildTestApp, createTestSchema, type TestSchema } from '../../testing/test-app';
import type { FuzzContext } from './arbitraries';
import { send } from './harness';
import { listRoutes, RouteSchemas, type FuzzRoute } from './routes';

export interface FuzzWorld {
  schema: TestSchema;
  app: FastifyInstance;
  port: number;
  user: EmulatorUser;
  routes: FuzzRoute[];
  schemas: RouteSchemas;
  context: FuzzContext;
  /** Names our schemas declare (a message may name them): never counted as echoed input. */
  declared: Set<string>;
  close(): Promise<void>;
}

/** Long enough for the internal routes' minimum; the fuzzer never sends it. */
const INTERNAL_TOKEN = 'fuzz-internal-token-never-sent-0123456789';

async function getJson(port: number, url: string, token?: string): Promise<Record<string, unknown>> {
  const answer = await send(port, { method: 'GET', path: url, headers: token ? { authorization: `Bearer ${token}` } : {} });
  if (answer.status !== 200) throw new Error(`fuzz setup: GET ${url} answered ${answer.status}: ${answer.body.slice(0, 200)}`);
  return JSON.parse(answer.body) as Record<string, unknown>;
}

function cursorOrder(cursor: unknown): string | undefined {
  if (typeof cursor !== 'string') return undefined;
  const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { o?: unknown };
  return typeof parsed.o === 'string' ? parsed.o : undefined;
}

export async function startFuzzWorld(): Promise<FuzzWorld> {
  const schema = await createTestSchema('fuzz');
  const screenshotDir = await mkdtemp(path.join(tmpdir(), 'yc-fuzz-'));
  const users = new TestUsers();
  // Read while the app is built: the internal routes exist only with INTERNAL_API_TOKEN, and the
  // rate limits (600 a minute per address) would otherwise answer most of the run with 429.
  const env: Record<string, string> = {
    INTERNAL_API_TOKEN: INTERNAL_TOKEN,
    API_RATE_LIMIT_USER_MAX: '100000000',
    API_RATE_LIMIT_PUBLIC_MAX: '100000000',
    API_RATE_LIMIT_INTERNAL_MAX: '100000000',
  };
  const saved = Object.fromEntries(Object.keys(env).map((name) => [name, process.env[name]]));
  Object.assign(process.env, env);
  let app: FastifyInstance;
  try {
    app = await buildTestApp(schema.name, { sessions: testSessionConfig({ screenshotDir }) });
  } finally {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
  const schemas = new RouteSchemas();
  schemas.install(app);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  const close = async () => {
    await app.close();
    await users.cleanup();
    await schema.drop();
    await rm(screenshotDir, { recursive: true, force: true });
  };

  try {
    const routes = listRoutes(app);
    // One request per route, signed out, so every route's schema is known (and nothing happens).
    for (const route of routes) {
      const url = route.url === '*' ? '/fuzz-probe' : route.params.reduce((at, name) => at.replace(`:${name}`, 'fuzz-probe'), route.url);
      await send(port, { method: route.method, path: url, headers: {} });
    }

    const user = await users.email();
    await getJson(port, '/v1/me', user.idToken);
    const titles = (await getJson(port, '/v1/catalog/titles?limit=100')).titles as { id: string }[];
    const articles = (await getJson(port, '/v1/magazine?limit=100')).articles as { slug: string }[];
    for (const { id } of titles.slice(0, 2)) {
      const answer = await send(port, { method: 'PUT', path: `/v1/mylist/bookmarks/${id}`, headers: { authorization: `Bearer ${user.idToken}` } });
      if (answer.status !== 200) throw new Error(`fuzz setup: bookmark answered ${answer.status}`);
    }
    for (const [i, { id }] of titles.slice(0, 2).entries()) {
      await schema.pool.query(
        `INSERT INTO play_histories (uid, game_id, last_played_at, total_seconds, play_count) VALUES ($1, $2, now() - $3 * interval '1 hour', 60, 1)`,
        [user.uid, id, i + 1],
      );
    }
    const lists = [
      '/v1/catalog/titles?limit=1&sort=new',
      '/v1/catalog/titles?limit=1&sort=popular',
      '/v1/catalog/titles?limit=1&sort=title',
      `/v1/catalog/search?limit=1&q=${encodeURIComponent('の')}`,
      '/v1/magazine?limit=1',
      '/v1/mylist/bookmarks?limit=1',
      '/v1/mylist/history?limit=1',
    ];
    const orders = new Set<string>();
    for (const url of lists) {
      const order = cursorOrder((await getJson(port, url, user.idToken)).next_cursor);
      if (order) orders.add(order);
    }

    const declared = new Set<string>();
    for (const route of routes) {
      for (const name of [...route.params, ...schemas.fields(route, 'querystring'), ...schemas.fields(route, 'body')]) declared.add(name);
    }
    const inputless = (route: FuzzRoute) => route.params.length === 0 && !schemas.get(route)?.body;
    const context: FuzzContext = {
      authorization: {
        garbage: fc.oneof(
          fc.constantFrom('Bearer garbage', 'Bearer a.b.c', 'Bearer ', `Bearer ${'x'.repeat(3000)}`, `Bearer ${user.idToken}x`),
          fc.string({ maxLength: 80 }).map((text) => `Bearer ${text}`),
        ),
        real: fc.constant(`Bearer ${user.idToken}`),
        crafted: fc.constantFrom(
          `Bearer ${craftIdToken({ exp: Math.floor(Date.now() / 1000) - 60 })}`,
          `Bearer ${craftIdToken({ aud: 'another-project' })}`,
          `Bearer ${craftIdToken({ sub: '' })}`,
          `Bearer ${craftIdToken()}`,
        ),
        scheme: fc.constantFrom('Basic dXNlcjpwYXNz', 'Bearer', 'bearer  x', 'Token x', ''),
      },
      cursorOrders: [...orders],
      avoid: new Set([...titles.map((t) => t.id), ...articles.map((a) => a.slug), 'standard']),
      fields: (route, part) => schemas.fields(route, part),
      inputless,
    };
    return { schema, app, port, user, routes, schemas, context, declared, close };
  } catch (error) {
    await close();
    throw error;
  }
}
