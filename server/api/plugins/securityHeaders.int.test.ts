/**
 * The api's security headers (plugins/securityHeaders.ts) in the real app, on every kind of
 * answer a stranger can get: a catalogue page, an unknown route's 404, a missing token's 401, a
 * malformed body's 400, a CORS preflight's 204 and an OPTIONS refused with 400.
 */
import { request, startSessionApp, type SessionTestApp } from '../testing/sessions';
import { createTestSchema, type TestSchema } from '../testing/test-app';
import { API_SECURITY_HEADERS } from './securityHeaders';

jest.setTimeout(60_000);

const WEB = 'http://127.0.0.1:3000';

let schema: TestSchema;
let api: SessionTestApp;

beforeAll(async () => {
  schema = await createTestSchema('security_headers');
  api = await startSessionApp(schema.name, {}, { config: { webOrigins: [WEB] } });
});

afterAll(async () => {
  await api?.close();
  await schema?.drop();
});

it.each([
  ['a catalogue page', 'GET', '/v1/catalog/titles', {}, 200],
  ['an unknown route', 'GET', '/v1/no/such/route', {}, 404],
  ['a call without its token', 'GET', '/v1/mylist/bookmarks', {}, 401],
  ['a malformed body', 'POST', '/v1/mylist/bookmarks', { body: '{"gameId":', headers: { 'content-type': 'application/json', authorization: 'Bearer x' } }, 400],
  ['a preflight from the web', 'OPTIONS', '/v1/mylist/bookmarks', { headers: { origin: WEB, 'access-control-request-method': 'GET' } }, 204],
  ['an OPTIONS that is no preflight', 'OPTIONS', '/v1/catalog/titles', {}, 400],
] as const)('%s answers with every security header', async (_what, method, url, options, status) => {
  const answer = await request(api.base, method, url, options as Parameters<typeof request>[3]);
  expect(answer.status).toBe(status);
  for (const [name, value] of Object.entries(API_SECURITY_HEADERS)) expect([name, answer.headers.get(name)]).toEqual([name, value]);
});
