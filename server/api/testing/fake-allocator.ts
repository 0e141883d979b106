/**
 * A test stand-in for the Agones allocator service's REST endpoint (`POST /gameserverallocation`,
 * proto/allocation/allocation.proto's JSON): a real HTTPS server that requires a client
 * certificate signed by its CA (the allocator's mTLS), or plain HTTP when made without
 * certificates. It records each request (body and the client certificate's CN) and answers from
 * a script: a GameServer (gameServerName, address, ports, as the allocator answers) or UnAllocated
 * (429 with the gRPC status JSON, the allocator's default). `makeTestPki` writes a CA, a server
 * certificate for 127.0.0.1 and a client certificate with openssl. Listens on 127.0.0.1 only.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { TLSSocket } from 'node:tls';

export interface TestPki {
  dir: string;
  caFile: string;
  serverCertFile: string;
  serverKeyFile: string;
  clientCertFile: string;
  clientKeyFile: string;
}

export function makeTestPki(): TestPki {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'yumecast-allocator-pki-'));
  const f = (name: string) => path.join(dir, name);
  const ssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  ssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.crt', '-days', '1', '-subj', '/CN=allocation-ca');
  const leaf = (name: string, cn: string, ext: string) => {
    writeFileSync(f(`${name}.ext`), ext);
    ssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', `/CN=${cn}`);
    ssl('x509', '-req', '-in', `${name}.csr`, '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial', '-out', `${name}.crt`, '-days', '1', '-extfile', `${name}.ext`);
  };
  leaf('server', '127.0.0.1', 'subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n');
  leaf('client', 'yumecast-api', 'extendedKeyUsage=clientAuth\n');
  return { dir, caFile: f('ca.crt'), serverCertFile: f('server.crt'), serverKeyFile: f('server.key'), clientCertFile: f('client.crt'), clientKeyFile: f('client.key') };
}

export interface AllocatorRequest {
  path: string;
  body: Record<string, unknown>;
  clientCn: string | null;
}

export type AllocatorReply = { gameServerName: string; address: string; ports: { name: string; port: number }[] } | 'unallocated';

export class FakeAllocator {
  readonly requests: AllocatorRequest[] = [];
  /** What the next requests get, in order; when empty, `fallback`. */
  readonly script: AllocatorReply[] = [];
  fallback: AllocatorReply = 'unallocated';
  url = '';
  private server: http.Server | https.Server | null = null;

  constructor(private readonly pki: TestPki | null) {}

  async listen(): Promise<this> {
    const handler = (req: http.IncomingMessage, res: http.ServerResponse) => void this.handle(req, res);
    this.server = this.pki
      ? https.createServer(
          { cert: readFileSync(this.pki.serverCertFile), key: readFileSync(this.pki.serverKeyFile), ca: readFileSync(this.pki.caFile), requestCert: true, rejectUnauthorized: true },
          handler,
        )
      : http.createServer(handler);
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `${this.pki ? 'https' : 'http'}://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.method !== 'POST' || req.url !== '/gameserverallocation') return json(404, { code: 5, message: 'Not Found' });
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
    } catch {
      return json(400, { code: 3, message: 'invalid JSON' });
    }
    const socket = req.socket as Partial<TLSSocket>;
    const cn = socket.getPeerCertificate ? socket.getPeerCertificate().subject?.CN : undefined;
    const clientCn = cn === undefined ? null : String(cn);
    this.requests.push({ path: req.url, body, clientCn });
    const reply = this.script.shift() ?? this.fallback;
    // UnAllocated: ResourceExhausted, 429 over REST (the allocator's default unallocated status)
    if (reply === 'unallocated') return json(429, { code: 8, message: 'there is no available GameServer to allocate', details: [] });
    json(200, { ...reply, nodeName: 'node-1', source: 'local', counters: { sessions: { count: '1', capacity: '2' } } });
  }

  async close(): Promise<void> {
    await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
  }
}
