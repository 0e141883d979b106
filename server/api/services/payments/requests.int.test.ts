/**
 * POST /internal/v1/payment-requests, the api side of the payment-invokePaymentRequest function
 * (/work/notes/issue9-plan.md): only the internal token gets in; updateEmail registers the
 * billing e-mail with the user's processor customer; a repeated requestId of the same user
 * answers the stored result without calling the processor again; another user's requestId is a
 * 409 that reveals nothing; the purchase flow then uses that customer and keeps its e-mail.
 */
import { randomUUID } from 'node:crypto';
import { CARD_OK, INTERNAL_TOKEN, startPaymentsStack, subscribeWith, type PaymentsStack } from './testing/stack';

jest.setTimeout(60_000);

let stack: PaymentsStack;

beforeAll(async () => {
  stack = await startPaymentsStack('payreq');
});

afterAll(async () => {
  await stack?.stop();
});

const send = (body: unknown, token: string | null = INTERNAL_TOKEN) =>
  stack.call('POST', '/internal/v1/payment-requests', { body, headers: token === null ? {} : { 'x-internal-token': token } });

describe('payment requests', () => {
  it('needs the internal token and a well-formed request', async () => {
    const body = { uid: 'someone', email: 'billing@example.test', method: 'updateEmail', requestId: randomUUID() };
    expect((await send(body, null)).status).toBe(401);
    const wrong = await send(body, 'x'.repeat(INTERNAL_TOKEN.length));
    expect([wrong.status, wrong.body.error.code]).toEqual([403, 'forbidden']);
    for (const bad of [{ ...body, method: 'deleteCustomer' }, { ...body, requestId: 'not-a-uuid' }, { ...body, email: 'nope' }, { ...body, extra: 1 }]) {
      const answer = await send(bad);
      expect([answer.status, answer.body.error.code]).toEqual([400, 'invalid_request']);
    }
    expect((await stack.schema.pool.query('SELECT count(*)::int AS n FROM payment_requests')).rows[0].n).toBe(0);
  });

  it('registers the billing e-mail once per requestId, for its owner only', async () => {
    const user = await stack.users.email();
    const requestId = randomUUID();
    const first = await send({ uid: user.uid, email: 'billing@example.test', method: 'updateEmail', requestId });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ status: 'ok', result: { customerId: expect.stringMatching(/^cus_/), email: 'billing@example.test' } });
    const { customerId } = first.body.result;
    expect((await stack.sandbox.client.getCustomer(customerId)).email).toBe('billing@example.test');

    // The same requestId again, even with another address: the stored result, and the processor is not called.
    const again = await send({ uid: user.uid, email: 'changed@example.test', method: 'updateEmail', requestId: requestId.toUpperCase() });
    expect(again.body).toEqual(first.body);
    expect((await stack.sandbox.client.getCustomer(customerId)).email).toBe('billing@example.test');

    // Another user with that requestId: refused, nothing of the first revealed or changed.
    const stranger = await stack.users.email();
    const stolen = await send({ uid: stranger.uid, email: 'thief@example.test', method: 'updateEmail', requestId });
    expect([stolen.status, stolen.body.error.code]).toEqual([409, 'payment_request_conflict']);
    expect(JSON.stringify(stolen.body)).not.toContain(customerId);
    expect((await stack.schema.pool.query('SELECT count(*)::int AS n FROM payment_customers WHERE uid = $1', [stranger.uid])).rows[0].n).toBe(0);

    // A new requestId updates the address on the same customer.
    const update = await send({ uid: user.uid, email: 'new@example.test', method: 'updateEmail', requestId: randomUUID() });
    expect(update.body.result).toEqual({ customerId, email: 'new@example.test' });

    // The purchase uses that customer and keeps the billing address (not the sign-in one).
    expect((await subscribeWith(stack, user.idToken, CARD_OK)).body.result).toBe('active');
    const stored = (await stack.schema.pool.query('SELECT customer_id, email FROM payment_customers WHERE uid = $1', [user.uid])).rows[0];
    expect(stored).toEqual({ customer_id: customerId, email: 'new@example.test' });
    expect((await stack.sandbox.client.getCustomer(customerId)).email).toBe('new@example.test');
  });
});
