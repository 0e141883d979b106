/**
 * Who is a verified caller (docs/api.md "Verified callers"), with real tokens from the Auth
 * emulator: an e-mail + password account whose address was never confirmed is refused everything
 * that needs a verified user (starting a title, my list, purchases) exactly like a visitor, and
 * may play the one open demo like one; members who signed in by e-mail + password (confirmed),
 * by an e-mail link, or with X (twitter.com: no verified address, often none at all) pass.
 */
import { OPEN_PLAY_GAME_ID } from '../../../lib/api-types/openDemo';
import type { EmulatorUser } from '../testing/emulator-users';
import { appPerFile, request, TestUsers } from '../testing/sessions';

jest.setTimeout(60_000);

const GAME = 'hoshifuru-toshokan';

const users = new TestUsers();
const file = appPerFile('verified', { users });
const call = (method: string, url: string, token: string, body?: unknown) => request(file.api.base, method, url, { token, body });

/** The payload of a JWT (the emulator's tokens are unsigned; only their claims matter here). */
function claimsOf(user: EmulatorUser): { email_verified?: boolean; email?: string; firebase: { sign_in_provider: string } } {
  return JSON.parse(Buffer.from(user.idToken.split('.')[1], 'base64url').toString('utf8'));
}

/** Every call that needs a verified user (a body where the route takes one). */
const VERIFIED_ONLY: Array<[method: string, url: string, body?: unknown]> = [
  ['GET', `/v1/game/${GAME}/start`],
  ['GET', '/v1/mylist/bookmarks'],
  ['GET', `/v1/mylist/bookmarks/${GAME}`],
  ['PUT', `/v1/mylist/bookmarks/${GAME}`],
  ['DELETE', `/v1/mylist/bookmarks/${GAME}`],
  ['GET', '/v1/mylist/history'],
  ['POST', '/v1/purchase/card-setup'],
  // An empty body: a verified caller gets 400 invalid_request from the schema, after the check.
  ['POST', '/v1/purchase/subscribe', {}],
  ['POST', '/v1/purchase/confirm', {}],
  ['POST', '/v1/purchase/cancel'],
  ['POST', '/v1/purchase/resume'],
  ['POST', '/v1/purchase/card', {}],
  ['GET', '/v1/purchase/summary'],
];


async function closeLive(token: string): Promise<void> {
  const live = (await call('GET', '/v1/session/all', token)).body.game_sessions as Array<{ id: string }>;
  for (const session of live) await call('GET', `/v1/session/${session.id}/force_close`, token);
}

describe('an e-mail + password account whose address is not verified', () => {
  it('is refused like a visitor: 403 verified_required, a Japanese message, nothing queued or stored', async () => {
    const unverified = await users.unverifiedEmail();
    expect(claimsOf(unverified)).toMatchObject({ email_verified: false, firebase: { sign_in_provider: 'password' } });
    for (const [method, url, body] of VERIFIED_ONLY) {
      const answer = await call(method, url, unverified.idToken, body);
      expect([method, url, answer.status, answer.body.error?.code]).toEqual([method, url, 403, 'verified_required']);
      expect(answer.body).toEqual({ status: 'error', error: { code: 'verified_required', message: expect.stringMatching(/メールアドレス/) } });
    }
    const sessions = await file.schema.pool.query('SELECT count(*)::int AS n FROM sessions WHERE uid = $1', [unverified.uid]);
    const bookmarks = await file.schema.pool.query('SELECT count(*)::int AS n FROM bookmarks WHERE uid = $1', [unverified.uid]);
    expect([sessions.rows[0].n, bookmarks.rows[0].n]).toEqual([0, 0]);
  });

  it('may still play the open demo, as a visitor may', async () => {
    const unverified = await users.unverifiedEmail();
    const open = await call('GET', `/v1/game/${OPEN_PLAY_GAME_ID}/start`, unverified.idToken);
    expect(open.status).toBe(200);
    expect(open.body.game_session_id).toEqual(expect.any(String));
    await closeLive(unverified.idToken);
  });

  it('is let in once the address is verified and a new token says so', async () => {
    const member = await users.email();
    expect(claimsOf(member)).toMatchObject({ email_verified: true, firebase: { sign_in_provider: 'password' } });
    expect((await call('GET', '/v1/mylist/bookmarks', member.idToken)).status).toBe(200);
  });
});

describe('members with no verified address, or who never typed a password, pass', () => {
  const members: Array<[kind: string, signIn: () => Promise<EmulatorUser>, provider: string]> = [
    ['X with an e-mail it did not verify', () => users.twitter({ email: `x-${Date.now()}@example.test` }), 'twitter.com'],
    ['X without any e-mail', () => users.twitter(), 'twitter.com'],
    ['an e-mail link', () => users.emailLink(), 'password'],
  ];

  it.each(members)('%s: starts a title, uses my list, reaches the purchase forms', async (_kind, signIn, provider) => {
    const member = await signIn();
    const claims = claimsOf(member);
    expect(claims.firebase.sign_in_provider).toBe(provider);
    if (provider === 'twitter.com') expect(claims.email_verified).not.toBe(true);
    else expect(claims.email_verified).toBe(true);

    const started = await call('GET', `/v1/game/${GAME}/start`, member.idToken);
    expect([started.status, started.body.status]).toEqual([200, 'ok']);
    await closeLive(member.idToken);
    expect((await call('PUT', `/v1/mylist/bookmarks/${GAME}`, member.idToken)).body).toEqual({ status: 'ok', game_id: GAME, bookmarked: true });
    expect((await call('GET', '/v1/mylist/history', member.idToken)).status).toBe(200);
    const purchase = await call('POST', '/v1/purchase/subscribe', member.idToken, {});
    expect([purchase.status, purchase.body.error.code]).toEqual([400, 'invalid_request']);
  });
});
