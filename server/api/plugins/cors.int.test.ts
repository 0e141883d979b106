/**
 * CORS (plugins/cors.ts) in the real app: a preflight from the web origin gets its 204 and
 * headers; an OPTIONS that is not a preflight (no Origin, or no Access-Control-Request-Method)
 * is 400 invalid_request in the error envelope, not @fastify/cors's plain-text 400; a foreign
 * origin's preflight gets no Allow-Origin.
 */
import { isApiErrorResponse } from '../../../lib/api-types/errors';
import { appPerFile, request, TEST_WEB_ORIGIN } from '../testing/sessions';

jest.setTimeout(60_000);

const WEB = TEST_WEB_ORIGIN;
const file = appPerFile('cors', { webOrigin: true });

const options = (url: string, headers: Record<string, string>) => request(file.api.base, 'OPTIONS', url, { headers });

it('answers a preflight from the web origin with 204 and the CORS headers', async () => {
  const answer = await options('/v1/mylist/bookmarks', { origin: WEB, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' });
  expect(answer.status).toBe(204);
  expect(answer.headers.get('access-control-allow-origin')).toBe(WEB);
  expect(answer.headers.get('access-control-allow-headers')).toBe('Authorization, Content-Type');
});

it('gives a foreign origin no Allow-Origin', async () => {
  const answer = await options('/v1/catalog/titles', { origin: 'http://evil.example', 'access-control-request-method': 'GET' });
  expect(answer.headers.get('access-control-allow-origin')).toBeNull();
});

it.each([
  ['without Origin', {}],
  ['without Access-Control-Request-Method', { origin: WEB }],
  ['with only a method', { 'access-control-request-method': 'GET' }],
])('answers an OPTIONS %s with 400 invalid_request in the envelope', async (_name, headers) => {
  for (const url of ['/v1/catalog/titles', '/no/such/route']) {
    const answer = await options(url, headers);
    expect([url, answer.status]).toEqual([url, 400]);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    expect(isApiErrorResponse(answer.body)).toBe(true);
    expect(answer.body.error.code).toBe('invalid_request');
  }
});
