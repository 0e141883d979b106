/**
 * A fetch double for the browser api clients' unit tests (lib/api/*.test.ts): installs a jest
 * mock as the global fetch before each test and gives the helpers every such test needs — a JSON
 * answer, the n-th call's url and init, and the bearer it sent. The Firebase client is mocked in
 * each test file (jest.mock is hoisted per file).
 */
export function installFetchDouble() {
  const fetchMock = jest.fn();
  beforeEach(() => {
    fetchMock.mockReset();
    (global as unknown as { fetch: typeof fetch }).fetch = fetchMock;
  });
  const answer = (status: number, body: unknown) => Promise.resolve(new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }));
  const call = (i = 0) => ({ url: String(fetchMock.mock.calls[i][0]), init: fetchMock.mock.calls[i][1] as RequestInit });
  const bearer = (i = 0) => new Headers(call(i).init.headers).get('authorization');
  return { fetchMock, answer, call, bearer };
}
