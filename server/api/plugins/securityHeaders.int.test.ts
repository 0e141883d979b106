/**
 * The api's security headers (plugins/securityHeaders.ts) in the real app, on every kind of
 * answer a stranger can get: a catalogue page, an unknown route's 404, a missing token's 401, a
 * malformed body's 400, a CORS preflight's 204 and an OPTIONS refused with 400.
 */
import { appPerFile, request, TEST_WEB_ORIGIN } from '../testing/sessions';
import { API_SECURITY_HEADERS } from './securityHeaders';

jest.setTimeout(60_000);

const WEB = TEST_WEB_ORIGIN;
const file = appPerFile('security_headers', { webOrigin: true });

it.each([
  ['a catalogue page', 'GET', '/v1/catalog/titles', {}, 200],
  ['an unknown route', 'GET', '/v1/no/such/route', {}, 404],
  ['a call without its token', 'GET', '/v1/mylist/bookmarks', {}, 401],
  ['a malformed body', 'POST', '/v1/mylist/bookmarks', { body: '{"gameId":', headers: { 'content-type': 'application/json', authorization: 'Bearer x' } }, 400],
  ['a preflight from the web', 'OPTIONS', '/v1/mylist/bookmarks', { headers: { origin: WEB, 'access-control-request-method': 'GET' } }, 204],
  ['an OPTIONS that is no preflight', 'OPTIONS', '/v1/catalog/titles', {}, 400],
] as const)('%s answers with every security header', async (_what, method, url, options, status) => {
  const answer = await request(file.api.base, method, url, options as Parameters<typeof request>[3]);
  expect(answer.status).toBe(status);
  for (const [name, value] of Object.entries(API_SECURITY_HEADERS)) expect([name, answer.headers.get(name)]).toEqual([name, value]);
});
