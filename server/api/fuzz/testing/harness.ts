/**
 * The fuzz suite's plumbing: send a generated request over real HTTP (node:http: any method,
 * headers and body, a GET with a body included) or raw bytes over a socket (what an HTTP client
 * refuses to send); judge an answer against the documented contract (never 5xx; every 4xx in
 * the error envelope with the status of its code, a Japanese message, no echo of the input);
 * and fingerprint every table of the test schema, to prove that nothing changed.
 */
import http, { type IncomingHttpHeaders } from 'node:http';
import net from 'node:net';
import pg from 'pg';
import { isApiErrorResponse } from '../../../../lib/api-types/errors';
import { ERROR_HTTP_STATUS } from '../../errors';

export interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Sendable {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

const TIMEOUT_MS = 15_000;

/** One request on a fresh connection. An answer that came before the server closed counts. */
export function send(port: number, request: Sendable): Promise<RawAnswer> {
  const headers: Record<string, string> = { ...request.headers };
  if (request.body !== undefined) headers['content-length'] = String(Buffer.byteLength(request.body));
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = http.request(
      { host: '127.0.0.1', port, method: request.method, path: request.path, headers, agent: false, timeout: TIMEOUT_MS },
      (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${TIMEOUT_MS} ms`)));
    req.on('error', (error) => {
      if (!answered) reject(error);
    });
    req.end(request.body);
  });
}

/** Raw bytes on a socket; the status line, headers and body of whatever comes back. */
export function sendRaw(port: number, bytes: string | Buffer): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const finish = () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head, ...rest] = text.split('\r\n\r\n');
      const [statusLine, ...lines] = head.split('\r\n');
      const headers: IncomingHttpHeaders = {};
      for (const line of lines) {
        const at = line.indexOf(':');
        if (at > 0) headers[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim();
      }
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0);
      if (!status) reject(new Error(`no HTTP answer: ${JSON.stringify(text.slice(0, 200))}`));
      else resolve({ status, headers, body: rest.join('\r\n\r\n') });
    };
    socket.setTimeout(TIMEOUT_MS, () => socket.destroy());
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    // The server may close while we still write (it refused early): what it said still counts.
    socket.on('error', () => {});
    socket.on('close', finish);
    socket.on('connect', () => {
      socket.write(bytes);
      // Ask for the connection to end after this request.
      socket.end();
    });
  });
}

/** Japanese text (kana or kanji): the envelope's message is for users. */
const JAPANESE = /[\u3040-\u30ff\u4e00-\u9fff]/;

/**
 * What is wrong with `answer` under the contract, or null. `inputs` are strings the request
 * carried; an error answer must not repeat any of them (those in `allowed`, the names our
 * schemas declare, may appear in a message naming a field).
 */
export function contractViolation(method: string, answer: RawAnswer, inputs: readonly string[], allowed: ReadonlySet<string>): string | null {
  if (answer.status >= 500) return `server error ${answer.status}`;
  if (answer.status < 400 || method === 'HEAD') return null;
  let body: unknown;
  try {
    body = JSON.parse(answer.body);
  } catch {
    return `error answer ${answer.status} is not JSON: ${JSON.stringify(answer.body.slice(0, 200))}`;
  }
  if (!isApiErrorResponse(body)) return `error answer ${answer.status} is not the envelope: ${answer.body.slice(0, 200)}`;
  const { code, message } = body.error;
  if (ERROR_HTTP_STATUS[code] !== answer.status) return `code ${code} answered with ${answer.status}, documented ${ERROR_HTTP_STATUS[code]}`;
  if (!JAPANESE.test(message)) return `message of ${code} is not for users: ${message}`;
  if (!/json/.test(String(answer.headers['content-type']))) return `error answer typed ${answer.headers['content-type']}`;
  for (const input of inputs) {
    if (input.length < 8 || allowed.has(input)) continue;
    const escaped = JSON.stringify(input).slice(1, -1);
    if (answer.body.includes(input) || answer.body.includes(escaped)) return `error answer repeats the input ${JSON.stringify(input.slice(0, 80))}`;
  }
  return null;
}

/**
 * A fingerprint of every table of the schema: row count and a hash of the rows (without
 * users.last_seen_at, which every signed-in call stamps). Equal fingerprints: nothing changed.
 */
export async function fingerprint(pool: pg.Pool, schema: string): Promise<Record<string, string>> {
  const { rows: tables } = await pool.query<{ name: string }>(
    `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = $1 AND table_type = 'BASE TABLE' ORDER BY 1`,
    [schema],
  );
  const print: Record<string, string> = {};
  for (const { name } of tables) {
    const { rows } = await pool.query<{ n: number; h: string }>(
      `SELECT count(*)::int AS n, md5(coalesce(string_agg(x::text, ',' ORDER BY x::text), '')) AS h
         FROM (SELECT to_jsonb(t) - 'last_seen_at' AS x FROM ${pg.escapeIdentifier(schema)}.${pg.escapeIdentifier(name)} t) s`,
    );
    print[name] = `${rows[0].n} rows, ${rows[0].h}`;
  }
  return print;
}
