/**
 * payment-invokePaymentRequest through the Functions emulator of the running stack, called over
 * HTTP exactly as the web SDK's httpsCallable does (helpers.ts), with real Auth emulator tokens:
 * who may call it, what it accepts, and the round trip to the stack's api (POST
 * /internal/v1/payment-requests with the stack's internal token): the result, the record in
 * PostgreSQL, idempotency by requestId and another user's requestId refused.
 * The exact request the function sends and its error mapping are in forward.int.test.ts.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { MESSAGES } from '../../../functions/src/messages';
import { TEST_DATABASE_URL } from '../../../server/api/testing/services';
import { anonymousUser, callCallable, deleteUsers, emailUser, type TestUser } from './helpers';

jest.setTimeout(60_000);

const NAME = 'payment-invokePaymentRequest';
const users: TestUser[] = [];
const track = async (user: Promise<TestUser>) => {
  const u = await user;
  users.push(u);
  return u;
};

afterAll(async () => {
  await deleteUsers(users);
});

describe('payment-invokePaymentRequest: who may call it', () => {
  it('refuses a caller without an ID token: unauthenticated, in Japanese', async () => {
    const answer = await callCallable(NAME, { method: 'updateEmail', requestId: randomUUID() });
    expect(answer.httpStatus).toBe(401);
    expect(answer.error).toMatchObject({ status: 'UNAUTHENTICATED', message: MESSAGES.unauthenticated });
    expect(answer.result).toBeUndefined();
  });

  it('refuses a bearer value that is not an ID token: unauthenticated', async () => {
    const answer = await callCallable(NAME, { method: 'updateEmail', requestId: randomUUID() }, 'not-a-token');
    expect(answer.httpStatus).toBe(401);
    expect(answer.error?.status).toBe('UNAUTHENTICATED');
  });

  it('refuses an anonymous user (a visitor): permission-denied', async () => {
    const visitor = await track(anonymousUser());
    const answer = await callCallable(NAME, { method: 'updateEmail', requestId: randomUUID() }, visitor.idToken);
    expect(answer.httpStatus).toBe(403);
    expect(answer.error).toMatchObject({ status: 'PERMISSION_DENIED', message: MESSAGES.anonymous, details: { reason: 'anonymous' } });
  });

  it('refuses a user whose e-mail address is not verified: permission-denied', async () => {
    const user = await track(emailUser(false));
    const answer = await callCallable(NAME, { method: 'updateEmail', requestId: randomUUID() }, user.idToken);
    expect(answer.httpStatus).toBe(403);
    expect(answer.error).toMatchObject({ status: 'PERMISSION_DENIED', message: MESSAGES.emailUnverified, details: { reason: 'email_unverified' } });
  });

  it('checks the caller before the payload (a visitor learns nothing about the payload rules)', async () => {
    const visitor = await track(anonymousUser());
    const answer = await callCallable(NAME, { method: 'nope', requestId: 'nope' }, visitor.idToken);
    expect(answer.error?.status).toBe('PERMISSION_DENIED');
  });
});

describe('payment-invokePaymentRequest: what it accepts', () => {
  let user: TestUser;
  beforeAll(async () => {
    user = await track(emailUser(true));
  });

  it.each([
    ['another method', { method: 'deleteCustomer', requestId: randomUUID() }, 'method'],
    ['no method', { requestId: randomUUID() }, 'method'],
    ['a requestId that is not a UUID', { method: 'updateEmail', requestId: 'req-1' }, 'requestId'],
    ['a UUID with extra characters', { method: 'updateEmail', requestId: `${randomUUID()}x` }, 'requestId'],
    ['a numeric requestId', { method: 'updateEmail', requestId: 12345 }, 'requestId'],
    ['no requestId', { method: 'updateEmail' }, 'requestId'],
    ['no data at all', null, 'data'],
    ['a list instead of an object', [{ method: 'updateEmail', requestId: randomUUID() }], 'data'],
  ])('refuses %s: invalid-argument', async (_label, data, field) => {
    const answer = await callCallable(NAME, data, user.idToken);
    expect(answer.httpStatus).toBe(400);
    expect(answer.error).toMatchObject({ status: 'INVALID_ARGUMENT', details: { field } });
    expect(answer.error?.message).toMatch(/リクエストの内容が正しくありません/);
  });
});

describe('payment-invokePaymentRequest → the api (round trip)', () => {
  let db: pg.Pool;
  beforeAll(() => {
    db = new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 2 });
  });
  afterAll(async () => {
    await db.end();
  });

  it("registers the verified e-mail with the user's processor customer, once per requestId", async () => {
    const user = await track(emailUser(true));
    const requestId = randomUUID();

    const first = await callCallable(NAME, { method: 'updateEmail', requestId }, user.idToken);
    expect(first.error).toBeUndefined();
    expect(first.httpStatus).toBe(200);
    const result = first.result as { customerId: string; email: string };
    expect(result).toEqual({ customerId: expect.any(String), email: user.email });
    expect(result.customerId).not.toBe('');

    // The api recorded what the function forwarded: this uid, this method, this requestId.
    const rows = await db.query('SELECT uid, method, result FROM payment_requests WHERE request_id = $1', [requestId]);
    expect(rows.rows).toEqual([{ uid: user.uid, method: 'updateEmail', result }]);
    const customer = await db.query('SELECT customer_id, email FROM payment_customers WHERE uid = $1', [user.uid]);
    expect(customer.rows).toEqual([{ customer_id: result.customerId, email: user.email }]);

    // A repeat (a retry, a double click; any case of the UUID) answers the same, records nothing new.
    const again = await callCallable(NAME, { method: 'updateEmail', requestId: requestId.toUpperCase() }, user.idToken);
    expect(again.result).toEqual(result);
    const count = await db.query('SELECT count(*)::int AS n FROM payment_requests WHERE uid = $1', [user.uid]);
    expect(count.rows[0].n).toBe(1);

    // A new request of the same user keeps the same customer.
    const next = await callCallable(NAME, { method: 'updateEmail', requestId: randomUUID() }, user.idToken);
    expect(next.result).toEqual(result);
  });

  it("refuses another user's requestId: already-exists, and reveals nothing of the first", async () => {
    const owner = await track(emailUser(true));
    const other = await track(emailUser(true));
    const requestId = randomUUID();
    const first = await callCallable(NAME, { method: 'updateEmail', requestId }, owner.idToken);
    expect(first.httpStatus).toBe(200);

    const stolen = await callCallable(NAME, { method: 'updateEmail', requestId }, other.idToken);
    expect(stolen.httpStatus).toBe(409);
    expect(stolen.error).toMatchObject({ status: 'ALREADY_EXISTS', details: { code: 'payment_request_conflict' } });
    expect(JSON.stringify(stolen)).not.toContain(owner.email as string);
    expect(JSON.stringify(stolen)).not.toContain((first.result as { customerId: string }).customerId);
  });
});
