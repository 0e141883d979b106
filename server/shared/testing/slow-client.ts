/**
 * Raw-socket clients for the timeout tests of our servers (server/shared/http-limits.ts): one that
 * announces a body and sends one byte of it, one that sends its headers a byte at a time, one that
 * connects and sends nothing. Each reports how long the server kept the connection and what, if
 * anything, it answered before closing; `parseAnswer` reads that answer. Also `requestFrom`: a plain
 * HTTP request from a chosen loopback address (127.0.0.2, …), to be another client to the
 * per-address rate limits.
 */
import http from 'node:http';
import net from 'node:net';

export interface HeldConnection {
  /** Milliseconds from connecting until the server closed the connection, or null if it never did within `giveUpMs`. */
  closedAfterMs: number | null;
  /** Everything the server wrote before closing. */
  received: string;
}

/** Connects, runs `feed` (which writes as it likes), and waits for the server to close. */
function hold(port: number, giveUpMs: number, feed: (socket: net.Socket, closed: () => boolean) => void): Promise<HeldConnection> {
  return new Promise((resolve) => {
    const started = Date.now();
    let received = '';
    let done = false;
    const socket = net.connect(port, '127.0.0.1');
    const finish = (closedAfterMs: number | null) => {
      if (done) return;
      done = true;
      clearTimeout(giveUp);
      socket.destroy();
      resolve({ closedAfterMs, received });
    };
    const giveUp = setTimeout(() => finish(null), giveUpMs);
    // Reading keeps the socket flowing, so the server's FIN is seen as soon as it comes.
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
    socket.on('end', () => finish(Date.now() - started));
    socket.on('close', () => finish(Date.now() - started));
    socket.on('error', () => finish(Date.now() - started));
    socket.on('connect', () => feed(socket, () => done));
  });
}

/** Headers (text/plain unless `headers` say otherwise) announcing a 100-byte body, then one byte of it, then silence. */
export function slowBody(port: number, path: string, giveUpMs: number, headers: Record<string, string> = {}): Promise<HeldConnection> {
  const extra = Object.entries({ 'Content-Type': 'text/plain', ...headers })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  return hold(port, giveUpMs, (socket) => {
    socket.write(`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${extra}Content-Length: 100\r\n\r\n{`);
  });
}

/** A request's headers a byte every `everyMs` (they never end within the test). */
export function slowHeaders(port: number, everyMs: number, giveUpMs: number): Promise<HeldConnection> {
  const text = `GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n${'X-Padding: slowloris\r\n'.repeat(100)}\r\n`;
  return hold(port, giveUpMs, (socket, closed) => {
    let i = 0;
    const tick = setInterval(() => {
      if (closed() || socket.destroyed || i >= text.length) return clearInterval(tick);
      socket.write(text[i++]);
    }, everyMs);
    socket.on('close', () => clearInterval(tick));
  });
}

/** Connects and sends nothing. */
export function silent(port: number, giveUpMs: number): Promise<HeldConnection> {
  return hold(port, giveUpMs, () => undefined);
}

/** The status and JSON body of a raw HTTP answer ('' when the server closed without one). */
export function parseAnswer(raw: string): { status: number; body: unknown } | null {
  if (!raw) return null;
  const [head, ...rest] = raw.split('\r\n\r\n');
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0);
  let body: unknown = rest.join('\r\n\r\n');
  try {
    body = JSON.parse(body as string);
  } catch {
    // left as text: the assertion shows it
  }
  return { status, body };
}

export interface FromResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
}

/** One request to 127.0.0.1:`port` sent from `localAddress` (any 127.x.y.z works on Linux). */
export function requestFrom(
  localAddress: string,
  port: number,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<FromResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, method, path, localAddress, agent: false, headers: body === undefined ? headers : { 'content-length': String(Buffer.byteLength(body)), ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown = null;
          try {
            json = JSON.parse(text);
          } catch {
            json = text;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, json });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
