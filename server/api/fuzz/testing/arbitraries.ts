/**
 * The fuzz suite's request generator (fast-check): for one route of the app, arbitrary path
 * parameters, query strings, bodies, headers and identities. Values lean towards what broke
 * servers before: numbers Ajv coerces to ±Infinity ("Infinity", "1e309"), -0, NaN, huge and
 * unicode strings (lone surrogates included), repeated keys (arrays), forged cursors with
 * out-of-range numbers and dates, JSON with overflowing literals, deep nesting, invalid JSON and
 * wrong content types. Nothing generated is a valid id of the catalogue (`avoid`), so a route
 * whose point is a side effect (a bookmark, a session start) can only refuse it.
 */
import fc from 'fast-check';
import type { FuzzRoute } from './routes';

export type Identity = 'none' | 'garbage' | 'real' | 'crafted' | 'scheme';

export interface FuzzRequest {
  method: string;
  /** Encoded path and query, as sent. */
  path: string;
  headers: Record<string, string>;
  body?: string;
  identity: Identity;
  /** Generated strings an error answer must not repeat. */
  inputs: string[];
}

export interface FuzzContext {
  /** Authorization header values by identity ('none' has none). */
  authorization: Record<Exclude<Identity, 'none'>, fc.Arbitrary<string>>;
  /** Order names of real cursors (forged cursors use them, to get past the name check). */
  cursorOrders: string[];
  /** Ids that exist (catalogue titles, article slugs): never generated as a path parameter. */
  avoid: ReadonlySet<string>;
  /** Query and body field names of a route, from its schema. */
  fields(route: FuzzRoute, part: 'querystring' | 'body'): string[];
  /** True when the route takes no input that could make a signed-in request invalid. */
  inputless(route: FuzzRoute): boolean;
}

const NUMBERISH = [
  'Infinity', '-Infinity', '+Infinity', '1e309', '-1e309', '1e-400', 'NaN', '-0', '+0', '0', '1', '-1', '2', '20',
  '100', '101', '1.5', '0x10', '0b1', '1e2', ' 5', '5 ', '1_000', '９', '9007199254740993', '-9223372036854775809',
  '99999999999999999999',
];
const WORDS = [
  '', ' ', 'true', 'false', 'null', 'undefined', '[]', '{}', '__proto__', 'constructor', '%', '%00', '..', '../..',
  '/', '\\', '<script>alert(1)</script>', "' OR '1'='1", '"; DROP TABLE users; --', '${jndi:ldap://x}', '{{7*7}}',
  'new', 'popular', 'title', 'random', 'webrtc', 'agora', 'ほし', '星', '🦄', '\u200b', '\ud800', '\u0000',
];
/** Unicode that trips normalisation and display: combining marks, ZWJ emoji, bidi overrides, fullwidth, kana. */
const UNICODE = ['e\u0301', '👩\u200d👩\u200d👧', '\u202e', '\ufeff', 'Ａ', '１', 'ｶﾞ', 'が', 'ヴ', '𠮷', '\u3000', '\ud83d', '\udc00', 'ß', 'İ'];
/** Literals JSON.parse turns into ±Infinity, -0 or an imprecise number. */
const JSON_NUMBERS = ['1e309', '-1e309', '1e-400', '-0', '99999999999999999999999', '0.1e999999', '-1', '1.5'];
const TIMESTAMPS = [
  '9999-99-99 99:99:99+00', '0000-01-01 00:00:00+00', '2024-02-30 00:00:00+00', '2024-01-01 00:00:00+99:99',
  '294277-01-01 00:00:00+00', '1969-12-31 23:59:59+00', '2025-01-01 00:00:00.1234567+00', '2025-01-01 00:00:00+09',
];
const EPOCH_US = ['99999999999999999999', '9223372036854775807', '9223372036854775808', '-1', '1e3', '253402300800000000', '0'];
const CONTENT_TYPES = [
  'application/json', 'application/json; charset=utf-8', 'text/plain', 'text/plain;charset=UTF-8',
  'application/x-www-form-urlencoded', 'multipart/form-data', 'multipart/form-data; boundary=x', 'application/xml',
  'application/octet-stream', 'application/json; charset=latin1', 'application/json; charset=utf-16', 'APPLICATION/JSON',
  'application/jsonx', 'image/png', ';', 'a/b/c',
];
const HEADER_NAMES = [
  'accept', 'accept-encoding', 'accept-language', 'origin', 'referer', 'x-forwarded-for', 'x-forwarded-proto',
  'x-request-id', 'if-none-match', 'if-modified-since', 'range', 'cookie', 'content-encoding', 'x-host-secret',
  'x-host-id', 'x-internal-token', 'stripe-signature', 'access-control-request-method', 'user-agent',
  'x-http-method-override',
];

/** Percent-encodes every byte but the unreserved ones (never throws: lone surrogates become U+FFFD). */
export function pct(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const char = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-._~]/.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64url');

/** A cursor as a client could forge it: a real order name or not, key parts of every kind. */
function cursorArb(orders: string[]): fc.Arbitrary<string> {
  const part = fc.oneof(
    fc.constantFrom(...JSON_NUMBERS),
    fc.constantFrom(...TIMESTAMPS, ...EPOCH_US).map((text) => JSON.stringify(text)),
    fc.uuid().map((id) => JSON.stringify(id)),
    fc.string({ maxLength: 12 }).map((text) => JSON.stringify(text)),
    fc.constantFrom('null', 'true', '[]', '{}'),
  );
  const order = fc.oneof(fc.constantFrom(...orders, 'bookmarks', 'play_histories', 'screenshots'), fc.string({ maxLength: 8 }));
  return fc.oneof(
    fc.tuple(order, fc.array(part, { maxLength: 5 })).map(([o, k]) => b64(`{"o":${JSON.stringify(o)},"k":[${k.join(',')}]}`)),
    fc.array(part, { maxLength: 3 }).map((k) => b64(`[${k.join(',')}]`)),
    fc.string({ maxLength: 40 }),
  );
}

function stringValue(orders: string[]): fc.Arbitrary<string> {
  return fc.oneof(
    { arbitrary: fc.constantFrom(...NUMBERISH, ...WORDS), weight: 5 },
    { arbitrary: fc.string({ maxLength: 30 }), weight: 2 },
    // Any code point, lone surrogates included (fast-check's own 'binary' unit takes seconds to build).
    { arbitrary: fc.string({ unit: fc.integer({ min: 0, max: 0x10ffff }).map((code) => String.fromCodePoint(code)), maxLength: 16 }), weight: 2 },
    { arbitrary: fc.array(fc.constantFrom(...UNICODE), { minLength: 1, maxLength: 6 }).map((parts) => parts.join('')), weight: 1 },
    { arbitrary: fc.uuid(), weight: 1 },
    { arbitrary: fc.double().map(String), weight: 1 },
    { arbitrary: fc.bigInt().map(String), weight: 1 },
    { arbitrary: fc.integer({ min: 200, max: 6_000 }).map((n) => 'x'.repeat(n)), weight: 1 },
    { arbitrary: cursorArb(orders), weight: 2 },
  );
}

/** The arbitraries every route shares, built once (building some costs far more than drawing from them). */
interface Shared {
  value: fc.Arbitrary<string>;
  param: fc.Arbitrary<string>;
  json: fc.Arbitrary<string>;
  headers: fc.Arbitrary<Record<string, string>>;
  identity: fc.Arbitrary<Identity>;
}

function sharedArbitraries(context: FuzzContext): Shared {
  const value = stringValue(context.cursorOrders);
  // A path parameter: anything, id-shaped strings included, never an id that exists.
  const param = fc
    .oneof(
      { arbitrary: value, weight: 4 },
      { arbitrary: fc.stringMatching(/^[a-z0-9]{1,8}(-[a-z0-9]{1,8}){0,3}$/), weight: 2 },
      { arbitrary: fc.integer({ min: 6_000, max: 15_000 }).map((n) => 'a'.repeat(n)), weight: 1 },
    )
    .filter((text) => text !== '' && !context.avoid.has(text));
  // A JSON value as text, with literals JSON.stringify cannot write (1e309).
  const json = fc.oneof(
    fc.constantFrom(...JSON_NUMBERS),
    value.map((text) => JSON.stringify(text)),
    fc.jsonValue({ maxDepth: 2 }).map((item) => JSON.stringify(item)),
  );
  const identity = fc.constantFrom<Identity>('none', 'garbage', 'real', 'real', 'crafted', 'scheme');
  return { value, param, json, headers: headersArb(), identity };
}

function queryArb(names: string[], shared: Shared): fc.Arbitrary<{ text: string; inputs: string[] }> {
  const key = fc.oneof({ arbitrary: fc.constantFrom(...names), weight: 5 }, { arbitrary: fc.string({ maxLength: 8 }), weight: 1 });
  const raw = fc.constantFrom('', '', '', '&', '&&=&', '=x', '%zz', 'a[b]=1', 'limit[]=1&limit[]=2', '%', '+', ';', 'limit');
  return fc.tuple(fc.array(fc.tuple(key, shared.value), { maxLength: 6 }), raw).map(([pairs, junk]) => {
    const parts = pairs.map(([name, value]) => `${pct(name)}=${pct(value)}`);
    if (junk) parts.push(junk);
    return { text: parts.length ? `?${parts.join('&')}` : '', inputs: pairs.flatMap(([name, value]) => [name, value]) };
  });
}

interface Body {
  text?: string;
  type?: string;
}

function bodyArb(names: string[], shared: Shared): fc.Arbitrary<Body> {
  const object = fc
    .array(fc.tuple(fc.oneof(fc.constantFrom(...names), fc.string({ maxLength: 8 })), shared.json), { maxLength: 6 })
    .map((entries) => `{${entries.map(([name, value]) => `${JSON.stringify(name)}:${value}`).join(',')}}`);
  const text = fc.oneof(
    { arbitrary: object, weight: 5 },
    { arbitrary: fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value)), weight: 2 },
    { arbitrary: fc.integer({ min: 50, max: 30_000 }).map((n) => '['.repeat(n) + ']'.repeat(n)), weight: 1 },
    { arbitrary: fc.integer({ min: 50, max: 10_000 }).map((n) => '{"a":'.repeat(n) + '1' + '}'.repeat(n)), weight: 1 },
    { arbitrary: fc.integer({ min: 60_000, max: 150_000 }).map((n) => JSON.stringify({ x: 'a'.repeat(n) })), weight: 1 },
    {
      arbitrary: fc.constantFrom('{', '{"a":', 'nul', '[1,]', '{"a":1}{"b":2}', '\u0000', '\ufeff{}', '{"__proto__":{"polluted":1}}', '{"constructor":{"prototype":{"polluted":1}}}'),
      weight: 2,
    },
  );
  const type = fc.oneof({ arbitrary: fc.constant('application/json'), weight: 4 }, { arbitrary: fc.constantFrom(...CONTENT_TYPES), weight: 2 });
  return fc.oneof({ arbitrary: fc.constant<Body>({}), weight: 1 }, { arbitrary: fc.record({ text, type }), weight: 4 });
}

function headersArb(): fc.Arbitrary<Record<string, string>> {
  // What Node's client lets through in a header value (visible ASCII, space, tab).
  const ascii = (text: string) => /^[\t\x20-\x7e]*$/.test(text);
  const value = fc.oneof(
    fc.constantFrom(...[...NUMBERISH, 'GET', 'DELETE', 'null', '*', 'bytes=0-', 'bytes=9999999999999999999-', 'gzip', 'a=b; c', 'http://evil.example'].filter(ascii)),
    fc.string({ maxLength: 60 }),
    fc.integer({ min: 100, max: 2_000 }).map((n) => 'h'.repeat(n)),
  );
  return fc.dictionary(fc.constantFrom(...HEADER_NAMES), value, { maxKeys: 4 });
}

/**
 * The request generator of each route, sharing the expensive pieces. A signed-in request to a
 * route with no input to get wrong (a POST without params or body schema) is sent signed out.
 */
export function requestArbitraries(context: FuzzContext): (route: FuzzRoute) => fc.Arbitrary<FuzzRequest> {
  const shared = sharedArbitraries(context);
  return (route) => {
    const segments =
      route.url === '*'
        ? fc.array(shared.value, { maxLength: 3 })
        : fc.array(shared.param, { minLength: route.params.length, maxLength: route.params.length });
    const writes = !['GET', 'HEAD', 'OPTIONS'].includes(route.method);
    const query = queryArb([...new Set([...context.fields(route, 'querystring'), 'limit', 'cursor'])], shared);
    const body = writes ? bodyArb([...context.fields(route, 'body'), 'stats', 'sessionId', 'gameId', 'id'], shared) : fc.constant<Body>({});
    return fc.tuple(segments, query, body, shared.headers, shared.identity).chain(([values, q, b, headers, who]) => {
      const sentAs: Identity = who === 'real' && writes && context.inputless(route) ? 'none' : who;
      const auth = sentAs === 'none' ? fc.constant(undefined) : context.authorization[sentAs];
      return auth.map((authorization): FuzzRequest => {
        let url = route.url;
        if (url === '*') url = `/${values.map(pct).join('/')}`;
        else route.params.forEach((name, i) => (url = url.replace(`:${name}`, pct(values[i]))));
        const all: Record<string, string> = { ...headers };
        if (authorization !== undefined) all.authorization = authorization;
        if (b.type !== undefined) all['content-type'] = b.type;
        return { method: route.method, path: url + q.text, headers: all, body: b.text, identity: sentAs, inputs: [...values, ...q.inputs] };
      });
    });
  };
}
