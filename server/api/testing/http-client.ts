import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';

/**
 * Real HTTP against a listening app (not app.inject): it exercises the actual server, and
 * light-my-request cannot be loaded under Jest on Node 20 (an ESM-only dependency).
 */

export interface TestRequest {
  method: string;
  url: string;
  headers?: Record<string, string>;
  /** An object is sent as JSON; a string as is. */
  payload?: string | object;
}

export interface TestResponse {
  statusCode: number;
  headers: IncomingHttpHeaders;
  body: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json(): any;
}

export interface TestClient {
  request(request: TestRequest): Promise<TestResponse>;
}

/** Listens on an ephemeral loopback port; app.close() stops it. */
export async function listenForTest(app: FastifyInstance): Promise<TestClient> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  return { request: (request) => send(port, request) };
}

function send(port: number, { method, url, headers = {}, payload }: TestRequest): Promise<TestResponse> {
  const body = payload === undefined ? undefined : typeof payload === 'string' ? payload : JSON.stringify(payload);
  const finalHeaders: Record<string, string> = { ...headers };
  if (body !== undefined) {
    finalHeaders['content-type'] ??= 'application/json';
    finalHeaders['content-length'] = String(Buffer.byteLength(body));
  }
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = http.request({ host: '127.0.0.1', port, method, path: url, headers: finalHeaders, agent: false }, (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ statusCode: res.statusCode ?? 0, headers: res.headers, body: text, json: () => JSON.parse(text) });
      });
      res.on('error', reject);
    });
    // The server may answer (413) and close before reading the whole body: that is not a failure.
    req.on('error', (error) => {
      if (!answered) reject(error);
    });
    req.end(body);
  });
}
