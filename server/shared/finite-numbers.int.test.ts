/**
 * The finite-numbers Ajv plugin (finite-numbers.ts) in a real Fastify app with the api's Ajv
 * options: "Infinity", "-Infinity", "1e309" in a query, a path parameter or a header no longer
 * pass Integer minimum/maximum through coercion, nor do overflowing JSON literals in a body (a
 * loosely typed field included); the error names the field as the schema calls it; finite
 * numbers, schemas with an $id and deeply nested bodies still work. (No services needed.)
 */
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import { errorBody, validationMessage } from './errors';
import { finiteNumbers, nonFinitePath } from './finite-numbers';

jest.setTimeout(30_000);

const Limit = { type: 'integer', minimum: 1, maximum: 100, default: 20 };

let app: FastifyInstance;
let base: string;

beforeAll(async () => {
  app = Fastify({ ajv: { customOptions: { removeAdditional: false }, plugins: [finiteNumbers] } });
  app.setErrorHandler(async (error: FastifyError, _request, reply) =>
    reply.code(error.validation ? 400 : 500).send(errorBody(error.validation ? 'invalid_request' : 'internal', error.validation ? validationMessage(error) : undefined)),
  );
  const echo = async (request: { query: unknown; params: unknown; body: unknown }) => ({ query: request.query, params: request.params, body: request.body ?? null });
  app.get('/list', { schema: { querystring: { type: 'object', properties: { limit: Limit, n: { type: 'number' } } } } }, echo);
  app.get('/item/:n', { schema: { params: { type: 'object', properties: { n: { type: 'integer' } } } } }, echo);
  app.get('/header', { schema: { headers: { type: 'object', properties: { 'x-n': { type: 'integer' } } } } }, echo);
  app.post('/body', { schema: { body: { type: 'object', properties: { n: { type: 'integer', maximum: 10 }, free: {} } } } }, echo);
  // Answers without repeating the body (JSON.stringify of a deep body would be the failure).
  app.post('/sink', { schema: { body: { type: 'object', properties: { free: {} } } } }, async () => ({ status: 'ok' }));
  app.get('/shared', { schema: { querystring: { $id: 'SharedQuery', type: 'object', properties: { limit: Limit } } } }, echo);
  app.get('/shared-too', { schema: { querystring: { $id: 'SharedQuery', type: 'object', properties: { limit: Limit } } } }, echo);
  await app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await app?.close();
});

async function call(url: string, init: RequestInit = {}): Promise<{ status: number; body: { error?: { code: string; message: string }; query?: unknown; body?: unknown } }> {
  const response = await fetch(base + url, init);
  return { status: response.status, body: await response.json() };
}

const post = (text: string) => call('/body', { method: 'POST', headers: { 'content-type': 'application/json' }, body: text });

describe('finite numbers', () => {
  it('refuses ±Infinity that coercion made of a query string, naming the field', async () => {
    for (const value of ['Infinity', '-Infinity', '+Infinity', '1e309', '-1e309']) {
      const answer = await call(`/list?limit=${encodeURIComponent(value)}`);
      expect([value, answer.status, answer.body.error?.code]).toEqual([value, 400, 'invalid_request']);
      expect(answer.body.error?.message).toBe('リクエストの内容が正しくありません（クエリ: limit）。');
    }
    // A number without bounds too.
    expect((await call('/list?n=Infinity')).status).toBe(400);
    expect((await call('/list?limit=NaN')).status).toBe(400);
    expect((await call('/list?limit=-0')).status).toBe(400);
  });

  it('still accepts finite numbers and applies defaults', async () => {
    expect((await call('/list?limit=100&n=-1.5e10')).body.query).toEqual({ limit: 100, n: -1.5e10 });
    expect((await call('/list')).body.query).toEqual({ limit: 20 });
    expect((await call('/list?limit=101')).status).toBe(400);
  });

  it('refuses them in path parameters and headers', async () => {
    expect((await call('/item/Infinity')).status).toBe(400);
    expect((await call('/item/12')).body).toMatchObject({ params: { n: 12 } });
    expect((await call('/header', { headers: { 'x-n': '1e309' } })).status).toBe(400);
    expect((await call('/header', { headers: { 'x-n': '7' } })).status).toBe(200);
  });

  it('refuses overflowing JSON literals in a body, in loosely typed fields too', async () => {
    expect((await post('{"n":1e309}')).status).toBe(400);
    expect((await post('{"n":"Infinity"}')).status).toBe(400);
    const free = await post('{"free":{"deep":[1,2,{"x":-1e309}]}}');
    expect(free.status).toBe(400);
    expect(free.body.error?.message).toBe('リクエストの内容が正しくありません（本文: free）。');
    expect((await post('{"n":3,"free":{"deep":[1,2,{"x":1e300}]}}')).body.body).toEqual({ n: 3, free: { deep: [1, 2, { x: 1e300 }] } });
  });

  it('covers schemas with an $id (served from the Ajv cache)', async () => {
    expect((await call('/shared?limit=Infinity')).status).toBe(400);
    expect((await call('/shared-too?limit=Infinity')).status).toBe(400);
    expect((await call('/shared-too?limit=5')).body.query).toEqual({ limit: 5 });
  });

  it('walks deeply nested values without overflowing the stack', async () => {
    const depth = 100_000;
    expect(nonFinitePath(JSON.parse('['.repeat(depth) + ']'.repeat(depth)))).toBeNull();
    const deep = JSON.parse('['.repeat(depth) + '1e309' + ']'.repeat(depth));
    expect(nonFinitePath(deep)).toHaveLength(depth);
    expect(nonFinitePath({ a: [0, { 'b/c': -Infinity }] })).toEqual(['a', '1', 'b/c']);
    expect(nonFinitePath(NaN)).toEqual([]);
    const sink = (text: string) => call('/sink', { method: 'POST', headers: { 'content-type': 'application/json' }, body: text });
    expect((await sink('{"free":' + '['.repeat(5_000) + ']'.repeat(5_000) + '}')).status).toBe(200);
    expect((await sink('{"free":' + '['.repeat(5_000) + '1e309' + ']'.repeat(5_000) + '}')).status).toBe(400);
  });
});
