/**
 * Safety of the sandbox: Idempotency-Key (a repeated or concurrent create returns one
 * subscription and charges once; the same key with other parameters is refused), the secret
 * key, no card number / CVC anywhere in its database or its log after purchases (including a
 * malformed request that quotes the number), its state surviving a restart (PostgreSQL, clock
 * offset included), and its own schema that shares nothing with our api's tables.
 */
import { PaymentProcessorError } from '../processor';
import { SandboxProcessor } from './client';
import { MONTHLY, purchase, startHarness, submitCard, WEB_ORIGIN, WEBHOOK_SECRET, type Harness } from './testing/harness';

jest.setTimeout(30_000);

const CARD_NUMBERS = ['4242424242424242', '4242 4242 4242 4242', '4000002500003155', '4000000000000002', '5555555555554444'];

describe('payments sandbox: idempotency, secrets, no card data at rest, restart', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h?.stop();
  });

  async function readyCustomer(uid: string) {
    const customer = await h.client.ensureCustomer({ uid, email: `${uid}@example.com` });
    const setup = await h.client.createCardSetup({ customerId: customer.id, webOrigin: WEB_ORIGIN });
    expect((await submitCard(setup, { number: '4242 4242 4242 4242' })).status).toBe(200);
    return { customer, paymentMethodId: (await h.client.getCardSetup(setup.id)).paymentMethodId! };
  }

  it('the same Idempotency-Key returns the same subscription and charges once', async () => {
    const { customer, paymentMethodId } = await readyCustomer('double-clicker');
    const input = { customerId: customer.id, plan: MONTHLY, paymentMethodId, idempotencyKey: 'purchase-double-clicker-1', webOrigin: WEB_ORIGIN };
    const first = await h.client.createSubscription(input);
    const second = await h.client.createSubscription(input);
    expect(second.subscription.id).toBe(first.subscription.id);
    expect(second).toEqual(first);
    expect(await h.client.listSubscriptions(customer.id)).toHaveLength(1);
    expect(await h.client.listInvoices(customer.id)).toHaveLength(1);

    await expect(h.client.createSubscription({ ...input, plan: { ...MONTHLY, amountJpy: 1 } })).rejects.toMatchObject({ code: 'idempotency_conflict' });
  });

  it('two concurrent requests with one key make one subscription', async () => {
    const { customer, paymentMethodId } = await readyCustomer('fast-clicker');
    const input = { customerId: customer.id, plan: MONTHLY, paymentMethodId, idempotencyKey: 'purchase-fast-clicker-1', webOrigin: WEB_ORIGIN };
    const results = await Promise.allSettled([h.client.createSubscription(input), h.client.createSubscription(input)]);
    for (const result of results) {
      if (result.status === 'rejected') expect(result.reason).toMatchObject({ code: 'idempotency_conflict', status: 409 });
    }
    expect(results.some((result) => result.status === 'fulfilled')).toBe(true);
    expect(await h.client.listSubscriptions(customer.id)).toHaveLength(1);
    expect(await h.client.listInvoices(customer.id)).toHaveLength(1);
  });

  it('ensureCustomer finds the same customer for a uid and updates the e-mail', async () => {
    const first = await h.client.ensureCustomer({ uid: 'mail-changer', email: 'old@example.com' });
    const again = await h.client.ensureCustomer({ uid: 'mail-changer', email: 'new@example.com' });
    expect(again.id).toBe(first.id);
    expect(again.email).toBe('new@example.com');
    const byId = await h.client.ensureCustomer({ uid: 'mail-changer', email: null, customerId: first.id });
    expect(byId).toMatchObject({ id: first.id, email: 'new@example.com', uid: 'mail-changer' });
    expect(await h.client.updateCustomerEmail(first.id, 'billing@example.com')).toMatchObject({ email: 'billing@example.com' });
  });

  it('refuses a wrong secret key, unknown objects and origins that are not allowed', async () => {
    const stranger = new SandboxProcessor({ baseUrl: h.sandbox.url, secretKey: 'sk_test_wrong', webhookSecret: WEBHOOK_SECRET });
    await expect(stranger.getCustomer('cus_x')).rejects.toMatchObject({ code: 'authentication_failed', status: 401 });
    await expect(h.client.getSubscription('sub_missing')).rejects.toBeInstanceOf(PaymentProcessorError);
    await expect(h.client.getSubscription('sub_missing')).rejects.toMatchObject({ code: 'not_found' });
    const customer = await h.client.ensureCustomer({ uid: 'origin-tester', email: null });
    await expect(h.client.createCardSetup({ customerId: customer.id, webOrigin: 'https://evil.example' })).rejects.toMatchObject({ code: 'invalid_request' });
  });

  it('keeps no card number or CVC in its database or its log, even from a malformed request', async () => {
    await purchase(h, 'clean-buyer', '4242424242424242');
    await purchase(h, 'clean-3ds', '4000002500003155');
    const customer = await h.client.ensureCustomer({ uid: 'clean-declined', email: null });
    const setup = await h.client.createCardSetup({ customerId: customer.id, webOrigin: WEB_ORIGIN });
    expect((await submitCard(setup, { number: '4000000000000002', cvc: '987' })).status).toBe(402);
    // Broken JSON (parsers quote the text they fail on) and a body failing validation.
    const url = `${h.sandbox.url}/hosted/setup_intents/${setup.id}/confirm`;
    const broken = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"card":{"number":"5555555555554444","cvc":"987"' });
    expect(broken.status).toBe(400);
    expect(await broken.text()).not.toContain('5555');
    const invalid = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_secret: 'x', card: { number: '5555555555554444', exp_month: 'soon', exp_year: 2030, cvc: '987' } }),
    });
    expect(invalid.status).toBe(400);
    expect(await invalid.text()).not.toContain('5555');

    const { rows: tables } = await h.db.query<{ table_name: string }>(`SELECT table_name FROM information_schema.tables WHERE table_schema = $1`, [h.schema]);
    expect(tables.length).toBeGreaterThanOrEqual(9);
    let dump = '';
    for (const { table_name } of tables) {
      const { rows } = await h.db.query(`SELECT t::text AS row FROM ${h.schema}.${table_name} t`);
      dump += rows.map((row) => row.row).join('\n');
    }
    expect(dump).toContain('4242'); // last 4 is kept: the search would find a full number
    for (const number of CARD_NUMBERS) expect(dump).not.toContain(number);
    const { rows: columns } = await h.db.query<{ column_name: string }>(`SELECT column_name FROM information_schema.columns WHERE table_schema = $1`, [h.schema]);
    expect(columns.map((c) => c.column_name)).not.toEqual(expect.arrayContaining([expect.stringMatching(/^(number|card_number|cvc|cvv|pan)$/)]));

    const log = h.logs.join('\n');
    expect(log.length).toBeGreaterThan(1000);
    for (const number of CARD_NUMBERS) expect(log).not.toContain(number);
    expect(log).not.toMatch(/"cvc":"(?!\[redacted\])/);
    expect(log).not.toContain('"987"');
    expect(log).not.toMatch(/_secret_[0-9A-Za-z]{24}/);
    expect(log).not.toContain('sk_test_harness');
  });

  it('keeps its state across a restart (PostgreSQL), clock included', async () => {
    const { subscription } = await purchase(h, 'restart-user', '4242424242424242');
    await h.client.advanceClock(3600);
    const before = await h.client.clock();
    await h.stopSandbox();
    await h.startSandbox();
    const after = await h.client.clock();
    expect(after.offset_seconds).toBe(before.offset_seconds);
    expect(await h.client.getSubscription(subscription.id)).toMatchObject({ id: subscription.id, status: 'active' });
  });

  it('lives in its own schema and touches no other', async () => {
    const { rows } = await h.db.query<{ table_schema: string }>(
      `SELECT DISTINCT table_schema FROM information_schema.tables WHERE table_name IN ('subscriptions', 'invoices', 'sandbox_migrations') AND table_schema = $1`,
      [h.schema],
    );
    expect(rows.map((row) => row.table_schema)).toEqual([h.schema]);
    expect(h.sandbox.config.schema).toBe(h.schema);
  });
});
