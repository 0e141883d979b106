/**
 * A payments stack for integration tests: a real payments sandbox (own schema, loopback port,
 * fast webhook retries, via the sandbox's own test harness) whose webhooks go to a real api
 * (own schema, the Auth emulator) listening on a port chosen first. Helpers drive the card form
 * and the 3-D Secure page over HTTP exactly as their scripts do, and read the claim from Firebase.
 */
import { randomUUID } from 'node:crypto';
import net from 'node:net';
import type { CardSetupSession } from '../../../../payments';
import { answerChallenge, startHarness, submitCard, WEB_ORIGIN, SECRET_KEY, WEBHOOK_SECRET, type Harness } from '../../../../payments/sandbox/testing/harness';
import { PAYMENT_CLAIM } from '../../../auth/payment-claim';
import { request, startSessionApp, TestUsers, type Answer, type SessionTestApp } from '../../../testing/sessions';
import { createTestSchema, type TestSchema } from '../../../testing/test-app';

export { answerChallenge, WEB_ORIGIN, WEBHOOK_SECRET };
export const INTERNAL_TOKEN = 'test-internal-token-for-payments-0123456789';
export const DAY = 86_400;
export const CARD_OK = '4242424242424242';
export const CARD_DECLINED_AT_SAVE = '4000000000000002';
export const CARD_DECLINED_AT_CHARGE = '4000000000000341';
export const CARD_3DS = '4000002500003155';

export interface PaymentsStack {
  api: SessionTestApp;
  sandbox: Harness;
  schema: TestSchema;
  users: TestUsers;
  call(method: string, url: string, options?: { token?: string; body?: unknown; headers?: Record<string, string> }): Promise<Answer>;
  /** The user's custom claim as Firebase holds it (null when absent). */
  claim(uid: string): Promise<number | null>;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export async function startPaymentsStack(prefix: string): Promise<PaymentsStack> {
  const schema = await createTestSchema(prefix);
  const apiPort = await freePort();
  const sandbox = await startHarness({
    webhookUrl: `http://127.0.0.1:${apiPort}/v1/payments/webhook`,
    webhookMaxAttempts: 8,
    retryScheduleSeconds: [1 * DAY, 3 * DAY, 5 * DAY],
    logLevel: 'warn',
  });
  const api = await startSessionApp(
    schema.name,
    {},
    {
      port: apiPort,
      config: {
        dbPoolMax: 6,
        webOrigins: [WEB_ORIGIN],
        payments: {
          processorEnv: {
            PAYMENTS_PROCESSOR: 'sandbox',
            PAYMENTS_SANDBOX_URL: sandbox.sandbox.url,
            PAYMENTS_SANDBOX_SECRET_KEY: SECRET_KEY,
            PAYMENTS_WEBHOOK_SECRET: WEBHOOK_SECRET,
          },
          webOrigin: WEB_ORIGIN,
          graceSeconds: 7 * DAY,
          internalToken: INTERNAL_TOKEN,
        },
      },
    },
  );
  const users = new TestUsers();
  return {
    api,
    sandbox,
    schema,
    users,
    call: (method, url, options = {}) => request(api.base, method, url, { ...options, headers: { origin: WEB_ORIGIN, ...options.headers } }),
    claim: async (uid) => {
      const value = (await api.app.firebaseAuth.getUser(uid)).customClaims?.[PAYMENT_CLAIM];
      return typeof value === 'number' ? value : null;
    },
    stop: async () => {
      await api.close();
      await sandbox.stop();
      await users.cleanup();
      await schema.drop();
    },
  };
}

/** POST /v1/purchase/card-setup, then the card typed into the sandbox's form; answers the setup id. */
export async function saveCard(stack: PaymentsStack, token: string, cardNumber: string): Promise<{ setupId: string; formStatus: number }> {
  const answer = await stack.call('POST', '/v1/purchase/card-setup', { token });
  if (answer.status !== 200) throw new Error(`card-setup answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  const { setup_id: setupId, mount } = answer.body;
  const setup: CardSetupSession = {
    id: setupId,
    customerId: '',
    status: 'requires_payment_method',
    paymentMethodId: null,
    lastError: null,
    mount,
    created: 0,
  };
  const form = await submitCard(setup, { number: cardNumber });
  return { setupId, formStatus: form.status };
}

/** Card form + subscribe with a new idempotency key. */
export async function subscribeWith(stack: PaymentsStack, token: string, cardNumber: string, idempotencyKey = randomUUID()): Promise<Answer> {
  const { setupId } = await saveCard(stack, token, cardNumber);
  return stack.call('POST', '/v1/purchase/subscribe', { token, body: { planId: 'standard', setupId, idempotencyKey } });
}

/** Moves the sandbox clock to `seconds` past `periodEnd` (unix seconds on its clock). */
export async function passPeriodEnd(stack: PaymentsStack, periodEnd: number, seconds = 60): Promise<void> {
  const { now } = await stack.sandbox.client.clock();
  await stack.sandbox.client.advanceClock(periodEnd - now + seconds);
}

/** Our row of a subscription, straight from the table. */
export async function subscriptionRow(stack: PaymentsStack, id: string): Promise<Record<string, unknown> | undefined> {
  return (await stack.schema.pool.query('SELECT * FROM subscriptions WHERE id = $1', [id])).rows[0];
}
