/**
 * A game host for integration tests: a tiny real HTTP server that speaks the host contract of
 * docs/sessions.md section 4 (register, heartbeat, POST/DELETE /sessions, reports; headers and
 * the start body from server/shared/host-contract.ts). It is a test peer of the api, not a
 * stand-in for server/host: it starts no runtime, it only answers and reports like one.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { deflateSync } from 'node:zlib';
import { HOST_ID_HEADER, HOST_SECRET_HEADER, type StartSessionBody } from '../../shared/host-contract';

/** A start as the api sends it: every field of the contract's body is present. */
export type StartBody = Required<StartSessionBody>;

export interface FakeHostOptions {
  id: string;
  capacity: number;
  secret: string;
  /** Base URL of the api (changeable: `host.apiBase = …`). */
  apiBase: string;
  /** Report starting → ready by itself after a start (default true). */
  autoReady?: boolean;
}

export interface HostResponse {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

export class FakeHost {
  readonly id: string;
  capacity: number;
  apiBase: string;
  autoReady: boolean;
  /** Status answered to POST /sessions (202 = accepted). */
  startStatus = 202;
  readonly started = new Map<string, StartBody>();
  readonly stopped: { sessionId: string; reason: string }[] = [];
  readonly running = new Set<string>();
  /** Secrets the api sent, per request (to check it always authenticates). */
  readonly secretsSeen: string[] = [];
  private readonly secret: string;
  private server: http.Server | null = null;
  private beat: NodeJS.Timeout | null = null;
  url = '';

  constructor(options: FakeHostOptions) {
    this.id = options.id;
    this.capacity = options.capacity;
    this.secret = options.secret;
    this.apiBase = options.apiBase;
    this.autoReady = options.autoReady ?? true;
  }

  async listen(): Promise<this> {
    this.server = http.createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const secret = String(req.headers[HOST_SECRET_HEADER] ?? '');
    this.secretsSeen.push(secret);
    const reply = (status: number, body: object = { status: status < 300 ? 'ok' : 'error' }) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (secret !== this.secret) return reply(401);
    const url = new URL(req.url ?? '/', 'http://host');
    if (req.method === 'POST' && url.pathname === '/sessions') {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as StartBody;
      if (this.startStatus >= 300) return reply(this.startStatus);
      const again = this.started.has(body.sessionId);
      this.started.set(body.sessionId, body);
      this.running.add(body.sessionId);
      reply(202);
      if (this.autoReady && !again) {
        setImmediate(() => {
          void (async () => {
            await this.report(body.sessionId, 'starting');
            await this.report(body.sessionId, 'ready');
          })().catch(() => {});
        });
      }
      return;
    }
    const match = /^\/sessions\/([^/]+)$/.exec(url.pathname);
    if (req.method === 'DELETE' && match) {
      const sessionId = decodeURIComponent(match[1]);
      const known = this.running.delete(sessionId);
      this.stopped.push({ sessionId, reason: url.searchParams.get('reason') ?? '' });
      return reply(known ? 200 : 404);
    }
    reply(404);
  }

  /** A request to the api with the host's headers. */
  async call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<HostResponse> {
    const isBuffer = Buffer.isBuffer(body);
    const response = await fetch(`${this.apiBase}${path}`, {
      method,
      headers: {
        [HOST_SECRET_HEADER]: this.secret,
        [HOST_ID_HEADER]: this.id,
        ...(body !== undefined ? { 'content-type': isBuffer ? 'image/png' : 'application/json' } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : isBuffer ? new Uint8Array(body) : JSON.stringify(body),
    });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON
    }
    return { status: response.status, body: parsed };
  }

  register(): Promise<HostResponse> {
    return this.call('POST', '/internal/hosts/register', { hostId: this.id, url: this.url, capacity: this.capacity, warm: 1 });
  }

  heartbeat(extra: { sessionIds?: string[] } = {}): Promise<HostResponse> {
    return this.call('POST', `/internal/hosts/${this.id}/heartbeat`, { activeSessions: this.running.size, warm: 1, ...extra });
  }

  /** Heartbeats every `ms` until stopHeartbeats (errors ignored: the api may be restarting). */
  startHeartbeats(ms: number): void {
    this.stopHeartbeats();
    this.beat = setInterval(() => void this.heartbeat().catch(() => {}), ms);
  }

  stopHeartbeats(): void {
    if (this.beat) clearInterval(this.beat);
    this.beat = null;
  }

  report(sessionId: string, state: string, reason?: string): Promise<HostResponse> {
    return this.call('POST', `/internal/sessions/${sessionId}/state`, reason ? { state, reason } : { state });
  }

  async close(): Promise<void> {
    this.stopHeartbeats();
    if (this.server) {
      this.server.closeAllConnections();
      await new Promise<void>((resolve) => this.server!.close(() => resolve()));
      this.server = null;
    }
  }
}

/** A valid PNG of `width` x `height` (grey pixels), for screenshot uploads. */
export function makePng(width: number, height: number): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc32 = (buffer: Buffer) => {
    let c = 0xffffffff;
    for (const byte of buffer) c = crcTable[(c ^ byte) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(typed));
    return Buffer.concat([length, typed, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // greyscale
  const rows = Buffer.alloc((width + 1) * height, 0x80);
  for (let y = 0; y < height; y++) rows[y * (width + 1)] = 0; // filter: none
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
