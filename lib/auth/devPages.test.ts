/**
 * The local-only pages (mailbox, X consent form) answer 404 outside local mode, i.e. in
 * production builds where the Auth emulator is not configured.
 */
import type { GetServerSidePropsContext } from 'next';

let mockLocal = false;
jest.mock('@/lib/config', () => {
  const actual = jest.requireActual('@/lib/config');
  return {
    ...actual,
    get isLocalMode() {
      return mockLocal;
    },
  };
});
jest.mock('@/lib/firebase/client', () => ({ firebaseAuth: () => ({}) }));
jest.mock('firebase/auth', () => ({}));

const ctx = { query: {} } as unknown as GetServerSidePropsContext;

describe('local-only pages', () => {
  it('answer 404 in production builds', async () => {
    mockLocal = false;
    const mailbox = await import('@/pages/dev/mailbox');
    const consent = await import('@/pages/dev/x-consent');
    expect(await mailbox.getServerSideProps(ctx)).toEqual({ notFound: true });
    expect(await consent.getServerSideProps(ctx)).toEqual({ notFound: true });
  });

  it('render in local mode; the mailbox reports an unreachable emulator in Japanese', async () => {
    mockLocal = true;
    const realFetch = global.fetch;
    global.fetch = jest.fn(async () => {
      throw new Error('ECONNREFUSED');
    }) as unknown as typeof fetch;
    const log = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const mailbox = await import('@/pages/dev/mailbox');
    const consent = await import('@/pages/dev/x-consent');
    expect(await consent.getServerSideProps(ctx)).toEqual({ props: {} });
    const r = (await mailbox.getServerSideProps({ query: { email: 'a@example.com' } } as unknown as GetServerSidePropsContext)) as { props: { error: string; mails: unknown[]; email: string } };
    expect(r.props.mails).toEqual([]);
    expect(r.props.email).toBe('a@example.com');
    expect(r.props.error).toMatch(/エミュレーター/);
    global.fetch = realFetch;
    log.mockRestore();
  });
});
