import { mailFromOobCode, mailsFromOobCodes } from './mailbox';

const SITE = 'http://localhost:3100';
const link = (mode: string, code: string, cont?: string) =>
  `http://127.0.0.1:9199/emulator/action?mode=${mode}&lang=en&oobCode=${code}&apiKey=fake-api-key${cont ? `&continueUrl=${encodeURIComponent(cont)}` : ''}`;

describe('local mailbox links', () => {
  it('sends verification, change, recovery and reset mails to /email/link-callback', () => {
    const cases: Array<[string, string]> = [
      ['VERIFY_EMAIL', 'verifyEmail'],
      ['VERIFY_AND_CHANGE_EMAIL', 'verifyAndChangeEmail'],
      ['RECOVER_EMAIL', 'recoverEmail'],
      ['PASSWORD_RESET', 'resetPassword'],
    ];
    for (const [requestType, mode] of cases) {
      const mail = mailFromOobCode({ email: 'a@example.com', newEmail: 'b@example.com', requestType, oobCode: 'CODE_1-x', oobLink: link(mode, 'CODE_1-x', `${SITE}/email/link-callback`) }, SITE, 'key');
      expect(mail?.href).toBe(`/email/link-callback?mode=${mode}&oobCode=CODE_1-x&apiKey=key&lang=ja`);
      expect(mail?.kind).toBe(mode);
    }
  });

  it('sends sign-in links to their continueUrl with mode, oobCode and apiKey', () => {
    const mail = mailFromOobCode(
      { email: 'a@example.com', requestType: 'EMAIL_SIGNIN', oobCode: 'S1', oobLink: link('signIn', 'S1', `${SITE}/purchase/link-callback?next=%2Fpurchase%2Fregister-card`) },
      SITE,
      'key',
    );
    expect(mail?.href).toBe('/purchase/link-callback?next=%2Fpurchase%2Fregister-card&mode=signIn&oobCode=S1&apiKey=key&lang=ja');
  });

  it('never links outside this site, whatever continueUrl the emulator holds', () => {
    for (const cont of ['https://evil.example/purchase/link-callback', `${SITE}/somewhere-else`, 'javascript:alert(1)']) {
      const mail = mailFromOobCode({ email: 'a@example.com', requestType: 'EMAIL_SIGNIN', oobCode: 'S2', oobLink: link('signIn', 'S2', cont) }, SITE, 'k');
      expect(mail?.href).toBe('/purchase/link-callback?mode=signIn&oobCode=S2&apiKey=k&lang=ja');
    }
    expect(mailFromOobCode({ email: 'a', requestType: 'VERIFY_EMAIL', oobCode: 'bad code"><script>', oobLink: '' }, SITE, 'k')).toBeNull();
    expect(mailFromOobCode({ email: 'a', requestType: 'SOMETHING', oobCode: 'X', oobLink: '' }, SITE, 'k')).toBeNull();
  });

  it('lists newest first and filters by address (to or new address)', () => {
    const codes = [
      { email: 'a@example.com', requestType: 'VERIFY_EMAIL', oobCode: 'A1', oobLink: '' },
      { email: 'b@example.com', requestType: 'VERIFY_EMAIL', oobCode: 'B1', oobLink: '' },
      { email: 'a@example.com', newEmail: 'c@example.com', requestType: 'VERIFY_AND_CHANGE_EMAIL', oobCode: 'A2', oobLink: '' },
      'junk',
    ];
    expect(mailsFromOobCodes(codes, SITE, 'k').map((m) => m.href.match(/oobCode=(\w+)/)![1])).toEqual(['A2', 'B1', 'A1']);
    expect(mailsFromOobCodes(codes, SITE, 'k', 'A@example.com').length).toBe(2);
    expect(mailsFromOobCodes(codes, SITE, 'k', 'c@example.com').map((m) => m.to)).toEqual(['c@example.com']);
    expect(mailsFromOobCodes(null, SITE, 'k')).toEqual([]);
  });
});
