/**
 * A local stand-in for api.stripe.com for the Stripe adapter's tests: an HTTP server that
 * answers recorded, Stripe-shaped JSON (fixtures.ts) per method and path, and records every
 * request the SDK sent (method, path, query, form-encoded body, headers) so tests can check the
 * exact parameters, idempotency keys and API version. Point the SDK at it with
 * `{ host: '127.0.0.1', port, protocol: 'http' }`. Unknown routes answer Stripe's 404 error.
 */
import http from 'node:http';

export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  /** The form-encoded body, flat: "items[0][price]" → "price_…". */
  form: Record<string, string>;
  headers: http.IncomingHttpHeaders;
}

export interface Answer {
  status?: number;
  body: unknown;
}

type Handler = (request: RecordedRequest) => Answer;

export class RecordedStripe {
  readonly requests: RecordedRequest[] = [];
  private routes: Array<{ method: string; path: RegExp; handler: Handler }> = [];
  private server = http.createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const url = new URL(incoming.url ?? '/', 'http://stripe.local');
      const form = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
      const request: RecordedRequest = { method: incoming.method ?? 'GET', path: url.pathname, query: url.searchParams, form, headers: incoming.headers };
      this.requests.push(request);
      // Newest route first: a test overrides the defaults by adding its own.
      const route = [...this.routes].reverse().find((candidate) => candidate.method === request.method && candidate.path.test(request.path));
      const answer: Answer = route
        ? route.handler(request)
        : { status: 404, body: { error: { type: 'invalid_request_error', code: 'resource_missing', message: `Unrecognized request URL (${request.method}: ${request.path})` } } };
      response.writeHead(answer.status ?? 200, { 'content-type': 'application/json', 'request-id': `req_${this.requests.length}` });
      response.end(JSON.stringify(answer.body));
    });
  });
  port = 0;

  on(method: string, path: string | RegExp, handler: Handler | Answer): this {
    const pattern = typeof path === 'string' ? new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) : path;
    this.routes.push({ method, path: pattern, handler: typeof handler === 'function' ? handler : () => handler });
    return this;
  }

  /** Requests to a method + path (exact), in order. */
  calls(method: string, path: string): RecordedRequest[] {
    return this.requests.filter((request) => request.method === method && request.path === path);
  }

  reset(): void {
    this.requests.length = 0;
    this.routes = [];
  }

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as { port: number }).port;
  }

  stop(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
