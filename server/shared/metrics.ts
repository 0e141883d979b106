/**
 * Prometheus metrics of our servers (prom-client), the part the api and the game host share:
 * the process metrics (CPU, memory, event loop, GC: once per process), the HTTP request
 * histogram every Fastify app of ours records, `GET /metrics` with its access rule, and the
 * helpers for families read at scrape (scrapedGauge, scrapedCounter, setCounter, reasonLabel).
 * Each server adds its own families in its plugin (server/api/plugins/metrics.ts,
 * server/host/metrics.ts) on its own Registry, so two apps in one process (tests) never clash.
 *
 * Access: with `METRICS_TOKEN` set, only `Authorization: Bearer <token>` reads /metrics (401
 * otherwise, loopback included); without it, only a loopback peer that did not come through a
 * proxy (no X-Forwarded-For / Forwarded / X-Real-IP) reads it (403 otherwise). A stranger never
 * does. docs/operations.md lists every metric.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { envString, type Env } from './env';
import { ApiError } from './errors';
import { secretMatches } from './secret';

export { Counter, Gauge, Histogram, Registry };

/** Seconds buckets for request durations (5 ms … 10 s). */
export const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** The token that opens /metrics to anyone presenting it; undefined: loopback only. */
export function metricsToken(env: Env = process.env): string | undefined {
  return envString(env.METRICS_TOKEN);
}

let processRegistry: Registry | null = null;

/** Node's process metrics (process_*, nodejs_*), collected once per process whatever the apps. */
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/** The text exposition of the process metrics and `registry`'s. */
export async function exposition(registry: Registry): Promise<string> {
  const [proc, own] = await Promise.all([processMetrics().metrics(), registry.metrics()]);
  return `${proc.trimEnd()}\n${own}`;
}

/** A counter that mirrors a running total kept elsewhere (read at scrape): set, not incremented. */
export function setCounter<T extends string>(counter: Counter<T>, labels: Partial<Record<T, string>>, value: number): void {
  if (Object.keys(labels).length === 0) {
    counter.reset();
    if (value > 0) counter.inc(value);
    return;
  }
  counter.remove(labels);
  counter.inc(labels, value);
}

/** A label value from free text (a reason): short snake case, else `other` (bounded cardinality). */
export function reasonLabel(reason: string): string {
  return /^[a-z][a-z0-9_]{0,39}$/.test(reason) ? reason : 'other';
}

/** What a scraped family reads: one number, one per value of its label, or null to keep the last. */
type Reading = number | Record<string, number> | null;

interface ScrapedOptions {
  name: string;
  help: string;
  registers: Registry[];
  /** The one label `read` keys its record by; none when it gives a single number. */
  label?: string;
  read: () => Reading | Promise<Reading>;
}

/** Hands each number of a reading to `put` with its labels (none for a single number). */
function apply(reading: Reading, label: string | undefined, put: (labels: Record<string, string>, n: number) => void): void {
  if (typeof reading === 'number') put({}, reading);
  else if (reading && label) for (const [value, n] of Object.entries(reading)) put({ [label]: value }, n);
}

/** A gauge whose value(s) are read from elsewhere at each scrape. */
export function scrapedGauge({ name, help, registers, label, read }: ScrapedOptions): Gauge {
  return new Gauge({
    name,
    help,
    registers,
    labelNames: label ? [label] : [],
    async collect() {
      apply(await read(), label, (labels, n) => this.set(labels, n));
    },
  });
}

/** A counter mirroring running total(s) kept elsewhere, read at each scrape (setCounter). */
export function scrapedCounter({ name, help, registers, label, read }: ScrapedOptions): Counter {
  return new Counter({
    name,
    help,
    registers,
    labelNames: label ? [label] : [],
    async collect() {
      apply(await read(), label, (labels, n) => setCounter(this, labels, n));
    },
  });
}

/** True for 127.0.0.0/8, ::1 and their IPv4-mapped forms. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const a = address.toLowerCase().replace(/^::ffff:/, '');
  return a === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(a);
}

const FORWARDING_HEADERS = ['x-forwarded-for', 'forwarded', 'x-real-ip'];

/** Throws the refusal (401 with a token configured, 403 for a stranger without one) or returns. */
export function checkMetricsAccess(request: FastifyRequest, token: string | undefined): void {
  if (token) {
    const header = request.headers.authorization;
    const presented = typeof header === 'string' && /^Bearer /i.test(header) ? header.slice(7).trim() : undefined;
    if (!secretMatches(presented, token)) throw new ApiError('unauthorized');
    return;
  }
  const proxied = FORWARDING_HEADERS.some((name) => request.headers[name] !== undefined);
  if (proxied || !isLoopbackAddress(request.socket.remoteAddress)) throw new ApiError('forbidden');
}

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * Records every answer of `app` in `<prefix>_http_request_duration_seconds{method, route,
 * status_code}` (route is the pattern, e.g. `/v1/session/:sessionId/status`, or `unmatched`),
 * and serves `GET /metrics` (the access rule above; probes' log level, so scrapes do not fill the
 * log). Register on the root app (fastify-plugin's scope) before the routes.
 */
export function registerMetricsEndpoint(app: FastifyInstance, options: { prefix: string; registry: Registry; token: string | undefined }): void {
  const requests = new Histogram({
    name: `${options.prefix}_http_request_duration_seconds`,
    help: 'HTTP requests by method, route pattern and status code: how long the answer took.',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: DURATION_BUCKETS,
    registers: [options.registry],
  });
  app.addHook('onResponse', async (request, reply) => {
    requests.observe(
      {
        method: METHODS.has(request.method) ? request.method : 'OTHER',
        route: request.routeOptions.url ?? 'unmatched',
        status_code: String(reply.statusCode),
      },
      reply.elapsedTime / 1000,
    );
  });
  app.get('/metrics', { logLevel: 'warn' }, async (request, reply) => {
    checkMetricsAccess(request, options.token);
    const text = await exposition(options.registry);
    return reply.header('content-type', options.registry.contentType).header('cache-control', 'no-store').send(text);
  });
}
