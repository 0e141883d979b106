import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { isApiErrorResponse } from '../../../lib/api-types/errors';
import { closed, GameIdString } from '../../../lib/api-types/schemas/common';
import { errorResponses } from '../schemas';
import { listenForTest, type TestClient, type TestResponse } from '../testing/http-client';
import { buildTestApp, createTestSchema, type TestSchema } from '../testing/test-app';

jest.setTimeout(30_000);

/** Routes that exist only in this test, to drive each kind of failure through the real app. */
async function addProbeRoutes(app: FastifyInstance): Promise<void> {
  app.post(
    '/probe/echo',
    {
      schema: {
        body: {
          type: 'object',
          required: ['name'],
          additionalProperties: false,
          properties: { name: { type: 'string', maxLength: 20 } },
        },
        response: {
          200: {
            type: 'object',
            required: ['status', 'name'],
            additionalProperties: false,
            properties: { status: { type: 'string', enum: ['ok'] }, name: { type: 'string' } },
          },
          ...errorResponses,
        },
      },
    },
    async (request) => ({ status: 'ok', name: (request.body as { name: string }).name }),
  );
  // The one path-parameter rule: with config.notFound, a malformed path parameter is that 404.
  const itemSchema = { params: closed({ id: GameIdString }), querystring: Type.Object({ n: Type.Optional(Type.Integer()) }), response: { ...errorResponses } };
  app.get('/probe/item/:id', { config: { notFound: 'game_not_found' }, schema: itemSchema }, async () => ({ status: 'ok' }));
  app.get('/probe/plain/:id', { schema: itemSchema }, async () => ({ status: 'ok' }));
  app.get('/probe/bug', { schema: { response: { ...errorResponses } } }, async () => {
    throw new Error('secret internal detail');
  });
  app.get('/probe/sql', { schema: { response: { ...errorResponses } } }, async () => {
    await app.db.query('SELECT secret_column FROM no_such_table');
    return {};
  });
}

function expectTypedError(response: TestResponse, status: number, code: string) {
  expect(response.statusCode).toBe(status);
  const body = response.json();
  expect(isApiErrorResponse(body)).toBe(true);
  expect(body).toEqual({ status: 'error', error: { code, message: expect.any(String) } });
  // User-facing Japanese text, no stack traces.
  expect((body as { error: { message: string } }).error.message).toMatch(/[\u3040-\u30ff\u4e00-\u9fff]/);
  expect(response.body).not.toMatch(/\bat .+:\d+:\d+|stack|Error:/);
}

describe('the one error format', () => {
  let schema: TestSchema;
  let app: FastifyInstance;
  let client: TestClient;

  beforeAll(async () => {
    schema = await createTestSchema('errors');
    app = await buildTestApp(schema.name);
    await addProbeRoutes(app);
    client = await listenForTest(app);
  });

  afterAll(async () => {
    await app?.close();
    await schema?.drop();
  });

  it('answers an unknown route with 404 not_found', async () => {
    expectTypedError(await client.request({ method: 'GET', url: '/no/such/route' }), 404, 'not_found');
    expectTypedError(
      await client.request({ method: 'POST', url: '/v1/nothing', payload: { a: 1 } }),
      404,
      'not_found',
    );
  });

  it('answers a schema violation with 400 invalid_request naming the field', async () => {
    const missing = await client.request({ method: 'POST', url: '/probe/echo', payload: {} });
    expectTypedError(missing, 400, 'invalid_request');
    expect(missing.json().error.message).toContain('name');

    expectTypedError(await client.request({ method: 'POST', url: '/probe/echo', payload: { name: 'x'.repeat(21) } }), 400, 'invalid_request');
    // Unknown fields are rejected, not silently dropped.
    expectTypedError(await client.request({ method: 'POST', url: '/probe/echo', payload: { name: 'a', extra: 1 } }), 400, 'invalid_request');
    // The valid request passes.
    const ok = await client.request({ method: 'POST', url: '/probe/echo', payload: { name: 'ゆめ' } });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ status: 'ok', name: 'ゆめ' });
  });

  it("answers a malformed path parameter with the route's typed 404 (config.notFound), anything else with 400", async () => {
    expectTypedError(await client.request({ method: 'GET', url: '/probe/item/Bad_Id' }), 404, 'game_not_found');
    expectTypedError(await client.request({ method: 'GET', url: '/probe/item/Bad_Id?n=x' }), 404, 'game_not_found');
    expectTypedError(await client.request({ method: 'GET', url: '/probe/item/good-id?n=x' }), 400, 'invalid_request');
    expectTypedError(await client.request({ method: 'GET', url: '/probe/plain/Bad_Id' }), 400, 'invalid_request');
    expect((await client.request({ method: 'GET', url: '/probe/item/good-id?n=1' })).statusCode).toBe(200);
  });

  it('answers malformed JSON with 400 and a non-JSON body with 415', async () => {
    expectTypedError(
      await client.request({ method: 'POST', url: '/probe/echo', headers: { 'content-type': 'application/json' }, payload: '{"name": ' }),
      400,
      'invalid_request',
    );
    expectTypedError(
      await client.request({ method: 'POST', url: '/probe/echo', headers: { 'content-type': 'text/xml' }, payload: '<name/>' }),
      415,
      'unsupported_media_type',
    );
  });

  it('answers a body over the limit (64 kB by default) with 413 payload_too_large', async () => {
    const huge = JSON.stringify({ name: 'x'.repeat(70 * 1024) });
    expectTypedError(
      await client.request({ method: 'POST', url: '/probe/echo', headers: { 'content-type': 'application/json' }, payload: huge }),
      413,
      'payload_too_large',
    );
  });

  it('honours a configured body limit', async () => {
    const small = await buildTestApp(schema.name, { bodyLimit: 1024, runMigrations: false });
    try {
      await addProbeRoutes(small);
      const response = await (await listenForTest(small)).request({
        method: 'POST',
        url: '/probe/echo',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ name: 'x'.repeat(2048) }),
      });
      expectTypedError(response, 413, 'payload_too_large');
    } finally {
      await small.close();
    }
  });

  it('answers a bug or a failing query with 500 internal and keeps the details in the log', async () => {
    const bug = await client.request({ method: 'GET', url: '/probe/bug' });
    expectTypedError(bug, 500, 'internal');
    expect(bug.body).not.toContain('secret');

    const sql = await client.request({ method: 'GET', url: '/probe/sql' });
    expectTypedError(sql, 500, 'internal');
    expect(sql.body).not.toMatch(/secret_column|no_such_table/);
  });

  it('allows the web origin through CORS, also on error responses, and nobody else', async () => {
    const preflight = await client.request({
      method: 'OPTIONS',
      url: '/v1/me',
      headers: {
        origin: 'http://127.0.0.1:3000',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'authorization',
      },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('http://127.0.0.1:3000');
    expect(String(preflight.headers['access-control-allow-headers']).toLowerCase()).toContain('authorization');

    const localhost = await client.request({ method: 'GET', url: '/nope', headers: { origin: 'http://localhost:3000' } });
    expect(localhost.statusCode).toBe(404);
    expect(localhost.headers['access-control-allow-origin']).toBe('http://localhost:3000');

    const foreign = await client.request({ method: 'GET', url: '/health', headers: { origin: 'https://evil.example' } });
    expect(foreign.headers['access-control-allow-origin']).toBeUndefined();
  });
});
