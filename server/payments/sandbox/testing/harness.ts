/**
 * Test harness for the payments sandbox: starts a sandbox on a free port with its own throwaway
 * schema (dropped at the end), fast webhook retries, its log captured in memory (tests search it
 * for card numbers), a local webhook receiver whose answers a test can script, and a
 * SandboxProcessor client. Helpers drive the hosted pages over HTTP exactly as their scripts do.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { Writable } from 'node:stream';
import pg from 'pg';
import type { CardSetupSession, PlanPrice, SubscriptionStart } from '../../processor';
import { SandboxProcessor } from '../client';
import { startSandbox, type RunningSandbox, type StartSandboxOptions } from '../server';
import type { WireError, WirePaymentMethod, WireSetupIntent } from '../wire';

export const TEST_DATABASE_URL = process.env.DATABASE_URL?.trim() || 'postgres://postgres:postgres@127.0.0.1:54329/yumecast_test';
export const WEB_ORIGIN = 'http://127.0.0.1:3999';
export const SECRET_KEY = 'sk_test_harness';
export const WEBHOOK_SECRET = 'whsec_harness';
export const MONTHLY: PlanPrice = { planId: 'standard', name: 'スタンダードプラン', amountJpy: 980, interval: 'month', intervalCount: 1 };

export interface ReceivedWebhook {
  rawBody: string;
  signature: string | undefined;
  status: number;
}

/** A local endpoint that records every webhook POST; `respond` decides each answer's status. */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  respond: (request: { rawBody: string; index: number }) => number = () => 200;
  private server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const rawBody = Buffer.concat(chunks).toString('utf8');
      const status = this.respond({ rawBody, index: this.received.length });
      this.received.push({ rawBody, signature: request.headers['stripe-signature'] as string | undefined, status });
      response.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'ok' : 'fail');
    });
  });
  url = '';

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    const address = this.server.address() as { port: number };
    this.url = `http://127.0.0.1:${address.port}/webhooks/payments`;
  }

  stop(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  /** Parsed bodies of the accepted (2xx) deliveries. */
  accepted(): Array<{ id: string; type: string; data: { object: Record<string, unknown> } }> {
    return this.received.filter((hook) => hook.status < 300).map((hook) => JSON.parse(hook.rawBody));
  }
}

export async function waitFor<T>(check: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 10_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export interface Harness {
  sandbox: RunningSandbox;
  client: SandboxProcessor;
  receiver: WebhookReceiver;
  schema: string;
  /** Everything the sandbox logged (JSON lines). */
  logs: string[];
  /** A pool on the sandbox's schema, for looking at its tables. */
  db: pg.Pool;
  /** Stops the sandbox only (the schema stays: restart tests start a new one on it). */
  stopSandbox(): Promise<void>;
  startSandbox(): Promise<RunningSandbox>;
  stop(): Promise<void>;
}

export async function startHarness(options: StartSandboxOptions = {}): Promise<Harness> {
  const schema = `payments_sandbox_t_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const receiver = new WebhookReceiver();
  await receiver.start();
  const logs: string[] = [];
  const logStream = new Writable({
    write(chunk, _encoding, done) {
      logs.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  const start = () =>
    startSandbox({
      port: 0,
      databaseUrl: TEST_DATABASE_URL,
      schema,
      secretKey: SECRET_KEY,
      webhookSecret: WEBHOOK_SECRET,
      webhookUrl: receiver.url,
      allowedOrigins: [WEB_ORIGIN],
      tickMs: 0,
      webhookRetryBaseMs: 50,
      webhookMaxAttempts: 5,
      logLevel: 'trace',
      logStream,
      ...options,
    });
  const harness: Harness = {
    sandbox: await start(),
    client: undefined as unknown as SandboxProcessor,
    receiver,
    schema,
    logs,
    db: new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 2, options: `-c search_path=${schema}` }),
    stopSandbox: () => harness.sandbox.stop(),
    startSandbox: async () => {
      harness.sandbox = await start();
      harness.client = new SandboxProcessor({ baseUrl: harness.sandbox.url, secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET });
      return harness.sandbox;
    },
    stop: async () => {
      await harness.sandbox.stop();
      await receiver.stop();
      await harness.db.query(`DROP SCHEMA IF EXISTS ${pg.escapeIdentifier(schema)} CASCADE`);
      await harness.db.end();
    },
  };
  harness.client = new SandboxProcessor({ baseUrl: harness.sandbox.url, secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET });
  return harness;
}

/** What the hosted pages' endpoints answer (a card error, or the object they changed). */
export interface HostedAnswer {
  status: number;
  body: {
    error?: WireError;
    setup_intent?: WireSetupIntent;
    payment_method?: WirePaymentMethod;
    payment_intent?: { id: string; status: string; last_payment_error: WireError | null };
  };
}

/** The client secret inside a sandbox card form or challenge URL. */
export function clientSecretOf(url: string): string {
  return new URL(url).searchParams.get('client_secret') ?? '';
}

/** What the card form's script sends (same origin as the form: the sandbox). */
export async function submitCard(
  setup: CardSetupSession,
  card: { number: string; exp?: [number, number]; cvc?: string },
): Promise<HostedAnswer> {
  if (setup.mount.kind !== 'sandbox_iframe') throw new Error('not a sandbox setup');
  const [expMonth, expYear] = card.exp ?? [12, new Date().getUTCFullYear() + 3];
  const response = await fetch(`${setup.mount.origin}/hosted/setup_intents/${setup.id}/confirm`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_secret: clientSecretOf(setup.mount.url), card: { number: card.number, exp_month: expMonth, exp_year: expYear, cvc: card.cvc ?? '123' } }),
  });
  return { status: response.status, body: await response.json() };
}

/** What the 3-D Secure page's buttons send. */
export async function answerChallenge(url: string, result: 'complete' | 'fail'): Promise<HostedAnswer> {
  const paymentId = /pi_[0-9A-Za-z]{24}/.exec(clientSecretOf(url))?.[0];
  const response = await fetch(`${new URL(url).origin}/hosted/payment_intents/${paymentId}/authenticate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_secret: clientSecretOf(url), result }),
  });
  return { status: response.status, body: await response.json() };
}

/** A user from sign-up to a started subscription with `cardNumber`, as the api would drive it. */
export async function purchase(
  h: Harness,
  uid: string,
  cardNumber: string,
  idempotencyKey = `sub:${uid}:${Date.now()}`,
  webOrigin = WEB_ORIGIN,
): Promise<SubscriptionStart & { paymentMethodId: string }> {
  const customer = await h.client.ensureCustomer({ uid, email: `${uid}@example.com` });
  const setup = await h.client.createCardSetup({ customerId: customer.id, webOrigin });
  const submitted = await submitCard(setup, { number: cardNumber });
  if (submitted.status !== 200) throw new Error(`card refused: ${JSON.stringify(submitted.body)}`);
  const paymentMethodId = (await h.client.getCardSetup(setup.id)).paymentMethodId!;
  const start = await h.client.createSubscription({ customerId: customer.id, plan: MONTHLY, paymentMethodId, idempotencyKey, webOrigin, metadata: { uid } });
  return { ...start, paymentMethodId };
}
