/**
 * The hosted pages in a real browser (Debian Chromium via playwright-core): a stand-in for our
 * purchase page on its own origin frames the sandbox's card form (another origin), the user
 * types a card, and the page learns the result only through postMessage from the sandbox's
 * origin. Checks the in-form Japanese errors (Luhn as typed, a declined card from the server),
 * the success message with brand and last 4, and the 3-D Secure page framed the same way.
 */
import http from 'node:http';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM_PATH } from '../../shared/chromium';
import { purchase, startHarness, waitFor, type Harness } from './testing/harness';

jest.setTimeout(60_000);

/** Our "purchase page": frames ?src= and keeps every message from ?origin= in window.messages. */
const PARENT_PAGE = `<!doctype html><html lang="ja"><body>
<iframe id="processor" title="カード情報" style="width:480px;height:560px;border:0"></iframe>
<script>
  const params = new URLSearchParams(location.search);
  window.messages = [];
  window.addEventListener('message', (event) => {
    if (event.origin !== params.get('origin')) return;
    if (event.data && event.data.source === 'yumecast-payments-sandbox') window.messages.push(event.data);
  });
  document.getElementById('processor').src = params.get('src');
</script></body></html>`;

describe('payments sandbox: hosted pages in a browser', () => {
  let h: Harness;
  let web: http.Server;
  let webOrigin: string;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    web = http.createServer((_request, response) => response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PARENT_PAGE));
    await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
    webOrigin = `http://127.0.0.1:${(web.address() as { port: number }).port}`;
    h = await startHarness({ allowedOrigins: [webOrigin] });
    browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    page = await browser.newPage({ locale: 'ja-JP' });
  });

  afterAll(async () => {
    await browser?.close();
    await h?.stop();
    web?.closeAllConnections();
    await new Promise((resolve) => web?.close(resolve));
  });

  async function openForm(uid: string) {
    const customer = await h.client.ensureCustomer({ uid, email: null });
    const setup = await h.client.createCardSetup({ customerId: customer.id, webOrigin });
    if (setup.mount.kind !== 'sandbox_iframe') throw new Error('expected the sandbox form');
    await page.goto(`${webOrigin}/purchase?src=${encodeURIComponent(setup.mount.url)}&origin=${encodeURIComponent(setup.mount.origin)}`);
    const frame = page.frameLocator('#processor');
    await frame.locator('#cc-number').waitFor();
    return { setup, frame };
  }

  const messages = () => page.evaluate(() => (window as unknown as { messages: Array<Record<string, unknown>> }).messages);

  it('saves 4242 typed into the framed form and tells the page by postMessage', async () => {
    const { setup, frame } = await openForm('browser-buyer');
    await waitFor(async () => (await messages()).some((m) => m.type === 'ready'), 5_000, 'ready message');

    await frame.getByLabel('カード名義（ローマ字）').fill('TARO YAMADA');
    await frame.getByLabel('カード番号').fill('4242424242424241');
    await frame.getByLabel('有効期限（月 / 年）').fill('1230');
    await frame.getByLabel('セキュリティコード').fill('123');
    await frame.getByRole('button', { name: 'カードを登録する' }).click();
    await expect(frame.locator('#card-error').textContent()).resolves.toContain('カード番号が正しくありません');

    await frame.getByLabel('カード番号').fill('4242424242424242');
    expect(await frame.getByLabel('カード番号').inputValue()).toBe('4242 4242 4242 4242');
    await frame.getByRole('button', { name: 'カードを登録する' }).click();
    const done = await waitFor(async () => (await messages()).find((m) => m.type === 'card_setup_succeeded'), 10_000, 'success message');
    expect(done).toMatchObject({ setupIntentId: setup.id, paymentMethod: { id: expect.stringMatching(/^pm_/), brand: 'visa', last4: '4242', expMonth: 12, expYear: 2030 } });
    await expect(frame.locator('#card-status').textContent()).resolves.toContain('VISA •••• 4242');
    expect(await frame.getByLabel('カード番号').inputValue()).toBe('');
    expect((await h.client.getCardSetup(setup.id)).status).toBe('succeeded');
  });

  it('shows the declined card’s Japanese message in the form and posts the failure', async () => {
    const { frame } = await openForm('browser-declined');
    await frame.getByLabel('カード名義（ローマ字）').fill('HANAKO SATO');
    await frame.getByLabel('カード番号').fill('4000 0000 0000 0002');
    await frame.getByLabel('有効期限（月 / 年）').fill('12 / 31');
    await frame.getByLabel('セキュリティコード').fill('456');
    await frame.getByRole('button', { name: 'カードを登録する' }).click();
    const failed = await waitFor(async () => (await messages()).find((m) => m.type === 'card_setup_failed'), 10_000, 'failure message');
    expect(failed).toMatchObject({ error: { code: 'card_declined' } });
    await expect(frame.locator('#card-error').textContent()).resolves.toContain('カードが承認されませんでした');
  });

  it('refuses to be framed by any other origin (CSP frame-ancestors)', async () => {
    const customer = await h.client.ensureCustomer({ uid: 'browser-framed-elsewhere', email: null });
    const setup = await h.client.createCardSetup({ customerId: customer.id, webOrigin });
    if (setup.mount.kind !== 'sandbox_iframe') throw new Error('expected the sandbox form');
    // Same server, other origin: "localhost" is not "127.0.0.1".
    const elsewhere = webOrigin.replace('127.0.0.1', 'localhost');
    await page.goto(`${elsewhere}/purchase?src=${encodeURIComponent(setup.mount.url)}&origin=${encodeURIComponent(setup.mount.origin)}`);
    await page.waitForTimeout(1_500);
    const child = page.frames().find((frame) => frame !== page.mainFrame());
    expect(await child?.locator('#cc-number').count().catch(() => 0)).toBe(0);
    expect(await messages()).toEqual([]);
  });

  it('frames the 3-D Secure page; "認証する" activates the subscription and posts the result', async () => {
    const start = await purchase(h, 'browser-3ds', '4000002500003155', undefined, webOrigin);
    if (start.action?.kind !== 'sandbox_challenge') throw new Error('expected a challenge');
    await page.goto(`${webOrigin}/purchase?src=${encodeURIComponent(start.action.url)}&origin=${encodeURIComponent(start.action.origin)}`);
    const frame = page.frameLocator('#processor');
    await expect(frame.getByRole('heading').textContent()).resolves.toBe('本人認証（3-Dセキュア）');
    await frame.getByRole('button', { name: '認証する' }).click();
    const finished = await waitFor(async () => (await messages()).find((m) => m.type === 'authentication_finished'), 10_000, 'challenge result');
    expect(finished).toMatchObject({ status: 'succeeded', paymentIntentId: start.action.paymentId });
    expect((await h.client.getSubscription(start.subscription.id)).status).toBe('active');
  });
});
