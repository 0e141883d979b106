/**
 * A method a route does not have (plugins/errors.ts, docs/api.md "Response format") on the real
 * app: 405 method_not_allowed in the error envelope with a Japanese message and `Allow` listing
 * the path's methods, for fixed and parameterised paths, with or without a query; an unknown path
 * stays 404 whatever the method; CORS preflights and the 400 of a non-preflight OPTIONS are as
 * before; the 405 carries the security headers and spends the public rate-limit budget.
 */
import type { FastifyInstance } from 'fastify';
import type { AddressInfo } from 'node:net';
import { API_ERROR_MESSAGES } from '../../../lib/api-types/errors';
import { appPerFile, request, TEST_WEB_ORIGIN, type Answer } from '../testing/sessions';
import { buildTestApp, createTestSchema, type TestSchema } from '../testing/test-app';
import { API_SECURITY_HEADERS } from './securityHeaders';

jest.setTimeout(60_000);

const WEB = TEST_WEB_ORIGIN;
const file = appPerFile('method_not_allowed', { webOrigin: true });

const call = (method: string, url: string, options: Parameters<typeof request>[3] = {}) => request(file.api.base, method, url, options);

function expect405(answer: Answer, allow: string): void {
  expect([answer.status, answer.headers.get('allow')]).toEqual([405, allow]);
  expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
  expect(answer.body).toEqual({ status: 'error', error: { code: 'method_not_allowed', message: API_ERROR_MESSAGES.method_not_allowed } });
  expect(answer.body.error.message).toMatch(/[\u3040-\u30ff\u4e00-\u9fff]/);
}

it.each([
  ['DELETE on a GET-only route', 'DELETE', '/v1/catalog/titles', 'GET, HEAD'],
  ['POST on the health check', 'POST', '/health', 'GET, HEAD'],
  ['PUT with a query string', 'PUT', '/v1/catalog/titles?limit=1', 'GET, HEAD'],
  ['PATCH (no route uses it) on a parameterised route', 'PATCH', '/v1/game/hoshifuru-toshokan/start', 'GET, HEAD'],
  ['GET on a POST-only route', 'GET', '/v1/purchase/subscribe', 'POST'],
  ['HEAD on a POST-only route', 'HEAD', '/collect', 'POST'],
  ['POST on a path with three methods', 'POST', '/v1/mylist/bookmarks/hoshifuru-toshokan', 'DELETE, GET, HEAD, PUT'],
  ['DELETE on a session call, before any token is asked for', 'DELETE', '/v1/session/all', 'GET, HEAD'],
] as const)('%s is 405 with Allow', async (_what, method, url, allow) => {
  const answer = await call(method, url, method === 'HEAD' || method === 'GET' ? {} : { body: {} });
  if (method === 'HEAD') {
    // No body on a HEAD answer; the status and headers say it all.
    expect([answer.status, answer.headers.get('allow'), answer.raw.length]).toEqual([405, allow, 0]);
  } else {
    expect405(answer, allow);
  }
});

it('keeps unknown paths 404 not_found, whatever the method', async () => {
  for (const method of ['GET', 'DELETE', 'POST', 'PATCH']) {
    for (const url of ['/no/such/route', '/v1/catalog/titles/extra/segment', '/v1/game/x/begin']) {
      const answer = await call(method, url, method === 'GET' ? {} : { body: {} });
      expect([method, url, answer.status, answer.headers.get('allow'), answer.body.error?.code]).toEqual([method, url, 404, null, 'not_found']);
    }
  }
  // A path that does not percent-decode, with a method no route uses, is no route's path.
  const bad = await call('PATCH', '/v1/catalog/%zz');
  expect(bad.status).not.toBe(405);
  expect(bad.headers.get('allow')).toBeNull();
});

it('leaves the routes themselves alone: GET, the automatic HEAD of a GET route', async () => {
  expect((await call('GET', '/v1/catalog/titles?limit=1')).status).toBe(200);
  expect((await call('HEAD', '/v1/catalog/titles?limit=1')).status).toBe(200);
});

it('keeps OPTIONS as CORS answers it: a preflight is 204, an OPTIONS that is no preflight 400', async () => {
  const preflight = await call('OPTIONS', '/v1/catalog/titles', { headers: { origin: WEB, 'access-control-request-method': 'DELETE' } });
  expect(preflight.status).toBe(204);
  expect(preflight.headers.get('access-control-allow-origin')).toBe(WEB);
  const plain = await call('OPTIONS', '/v1/catalog/titles');
  expect([plain.status, plain.body.error.code]).toEqual([400, 'invalid_request']);
});

it('answers the 405 with the security headers, and with CORS for the web origin', async () => {
  const answer = await call('DELETE', '/v1/catalog/titles', { headers: { origin: WEB } });
  expect(answer.status).toBe(405);
  for (const [name, value] of Object.entries(API_SECURITY_HEADERS)) expect([name, answer.headers.get(name)]).toEqual([name, value]);
  expect(answer.headers.get('access-control-allow-origin')).toBe(WEB);
});

describe('rate limits', () => {
  const MAX = 3;
  let limitedSchema: TestSchema;
  let limited: FastifyInstance;
  let base: string;

  beforeAll(async () => {
    limitedSchema = await createTestSchema('method_not_allowed_rl');
    limited = await buildTestApp(limitedSchema.name, { rateLimit: { windowMs: 60_000, userMax: MAX, publicMax: MAX, internalMax: 50, allow: [] } });
    await limited.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(limited.server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await limited?.close();
    await limitedSchema?.drop();
  });

  it('counts a 405 in the public budget: past it, 429 rate_limited', async () => {
    const statuses: number[] = [];
    for (let i = 0; i <= MAX; i++) statuses.push((await request(base, 'DELETE', '/v1/catalog/titles')).status);
    expect(statuses).toEqual([...Array(MAX).fill(405), 429]);
    const refused = await request(base, 'DELETE', '/v1/catalog/titles');
    expect([refused.status, refused.body.error.code, refused.headers.get('retry-after')]).toEqual([429, 'rate_limited', expect.any(String)]);
  });
});
