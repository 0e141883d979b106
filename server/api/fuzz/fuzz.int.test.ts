/**
 * "No 5xx from any input" (issue 10), as a property: every route the api serves (read from the
 * app itself, so new routes are fuzzed too) answers arbitrary path parameters, query strings,
 * bodies, headers and identities (no token, a garbage or crafted one, a real emulator user's)
 * with a status under 500; every error is the documented envelope with its code's status, a
 * Japanese message and none of the input; and nothing in the database changed. Then the
 * requests an HTTP client would not send (bad URLs, malformed request lines, oversized headers,
 * OPTIONS that are not preflights), raw over a socket, get the same envelope.
 *
 * Sized for about a minute on two cores; FUZZ_RUNS and FUZZ_SEED widen or replay a run (the
 * seed and the failing request are printed on failure: FUZZ_SEED=<seed> reproduces it), and
 * FUZZ_LOG=<file> lists every request sent with its status.
 */
import { appendFileSync } from 'node:fs';
import fc from 'fast-check';
import { requestArbitraries, type FuzzRequest } from './testing/arbitraries';
import { contractViolation, fingerprint, send, sendRaw } from './testing/harness';
import { startFuzzWorld, type FuzzWorld } from './testing/setup';

jest.setTimeout(150_000);

const SEED = Number(process.env.FUZZ_SEED) || 20_251_123;
const RUNS = Number(process.env.FUZZ_RUNS) || 500;
/** FUZZ_LOG=<file>: one line per request (status, identity, method, path), to see what a run covered. */
const LOG = process.env.FUZZ_LOG;

let world: FuzzWorld;
let before: Record<string, string>;

beforeAll(async () => {
  world = await startFuzzWorld();
  before = await fingerprint(world.schema.pool, world.schema.name);
});

afterAll(async () => {
  await world?.close();
});

function describeRequest(request: FuzzRequest): string {
  return [
    `${request.method} ${request.path.slice(0, 300)} as ${request.identity}`,
    `headers ${JSON.stringify(request.headers).slice(0, 300)}`,
    request.body === undefined ? 'no body' : `body ${JSON.stringify(request.body.slice(0, 200))} (${request.body.length} chars)`,
  ].join('\n');
}

async function check(request: FuzzRequest): Promise<void> {
  const answer = await send(world.port, request);
  if (LOG) appendFileSync(LOG, `${answer.status} ${request.identity} ${request.method} ${request.path.slice(0, 160)}\n`);
  const problem = contractViolation(request.method, answer, request.inputs, world.declared);
  if (problem) throw new Error(`${problem}\n${describeRequest(request)}\nanswer ${answer.status} ${answer.body.slice(0, 300)}`);
}

const params = (runs: number) => ({
  seed: SEED,
  numRuns: runs,
  // Each run is a request: report the first failure as found instead of shrinking for minutes.
  endOnFailure: true,
});

it('knows every route of the app, the internal ones included', () => {
  const urls = new Set(world.routes.map((route) => `${route.method} ${route.url}`));
  for (const expected of ['GET /v1/catalog/titles', 'GET /v1/mylist/bookmarks', 'PUT /v1/mylist/bookmarks/:gameId', 'POST /collect', 'POST /internal/hosts/register']) {
    expect(urls).toContain(expected);
  }
  expect(world.routes.length).toBeGreaterThan(30);
  expect(world.context.cursorOrders.length).toBeGreaterThanOrEqual(4);
});

it('answers any request to any route under 500, errors in the envelope', async () => {
  const requestTo = requestArbitraries(world.context);
  const anyRequest = fc.oneof(...world.routes.map(requestTo));
  await fc.assert(fc.asyncProperty(anyRequest, check), params(RUNS));
});

it('bounds every number and checks every cursor of the paginated lists, signed in', async () => {
  const lists = world.routes.filter((route) => route.method === 'GET' && world.schemas.fields(route, 'querystring').includes('limit'));
  expect(lists.length).toBeGreaterThanOrEqual(5);
  const requestTo = requestArbitraries(world.context);
  const listRequest = fc
    .oneof(...lists.map(requestTo))
    .map((request): FuzzRequest => ({ ...request, identity: 'real', headers: { ...request.headers, authorization: `Bearer ${world.user.idToken}` } }));
  await fc.assert(fc.asyncProperty(listRequest, check), params(Math.ceil(RUNS / 4)));
});

describe('requests refused before any route', () => {
  const marker = 'fuzzmarker0123';
  const cases: [string, string][] = [
    ['a path that does not decode', `GET /v1/catalog/titles/${marker}%E0%A4%A HTTP/1.1\r\nHost: x\r\n\r\n`],
    ['a bad percent escape', `GET /${marker}/%zz HTTP/1.1\r\nHost: x\r\n\r\n`],
    ['a malformed request line', `GARBAGE ${marker}\r\n\r\n`],
    ['a control character in the path', `GET /${marker}\x01 HTTP/1.1\r\nHost: x\r\n\r\n`],
    ['an unknown HTTP version', `GET /${marker} HTTP/9.9\r\nHost: x\r\n\r\n`],
    ['headers over 16 kB', `GET /v1/catalog/titles HTTP/1.1\r\nHost: x\r\nX-${marker}: ${'a'.repeat(20_000)}\r\n\r\n`],
    ['a URL over 16 kB', `GET /v1/catalog/titles/${marker}${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`],
    ['a path parameter of 10 kB', `GET /v1/catalog/titles/${marker}${'a'.repeat(10_000)} HTTP/1.1\r\nHost: x\r\n\r\n`],
    ['OPTIONS without Origin', `OPTIONS /v1/catalog/titles HTTP/1.1\r\nHost: x\r\n\r\n`],
    ['OPTIONS without a method to ask for', `OPTIONS /v1/catalog/titles HTTP/1.1\r\nHost: x\r\nOrigin: http://127.0.0.1:3000\r\n\r\n`],
    ['Content-Length and Transfer-Encoding together', `POST /collect HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`],
    ['a broken chunk', `POST /collect HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n${marker}\r\n0\r\n\r\n`],
    ['a body shorter than its Content-Length', `POST /collect HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{`],
  ];

  it.each(cases)('answers %s with the envelope, never echoing the request', async (_name, bytes) => {
    const answer = await sendRaw(world.port, bytes);
    expect(contractViolation('GET', answer, [marker], world.declared)).toBeNull();
    expect(answer.status).toBeGreaterThanOrEqual(400);
  });
});

it('changed nothing in the database', async () => {
  expect(await fingerprint(world.schema.pool, world.schema.name)).toEqual(before);
});
