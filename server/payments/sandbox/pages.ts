/**
 * HTML of the sandbox's hosted pages, served from the processor's own origin: the card form
 * (framed by our purchase page, or opened as a page) and the 3-D Secure challenge. Japanese
 * throughout. No inline script or style (the CSP allows only this origin's files in ./public);
 * the page's parameters travel in data- attributes. Card inputs carry the standard autocomplete
 * names (cc-name, cc-number, cc-exp, cc-csc) so browsers and password managers can fill them.
 */

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!);
}

function layout(title: string, body: string, script?: string): string {
  return `<!doctype html>
<html lang="ja">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="/hosted/assets/hosted.css">
</head>
<body>
${body}
${script ? `<script src="/hosted/assets/${script}" defer></script>\n` : ''}</body>
</html>
`;
}

export interface CardFormPage {
  setupIntentId: string;
  clientSecret: string;
  /** The web origin results are posted to (and the only one allowed to frame this page). */
  targetOrigin: string;
  returnUrl: string | null;
  /** Already succeeded: the page says so and reposts the result. */
  completed: boolean;
}

export function cardFormHtml(page: CardFormPage): string {
  const attrs = [
    `data-setup-intent="${escapeHtml(page.setupIntentId)}"`,
    `data-client-secret="${escapeHtml(page.clientSecret)}"`,
    `data-target-origin="${escapeHtml(page.targetOrigin)}"`,
    `data-return-url="${escapeHtml(page.returnUrl ?? '')}"`,
    `data-completed="${page.completed ? 'true' : 'false'}"`,
  ].join(' ');
  return layout(
    'カード情報の入力',
    // A <div>, not <main>: this form is framed inside the purchase page, whose own <main> is the
    // one landmark of the page (axe: landmark-no-duplicate-main, issue 12).
    `<div class="card-form">
<form id="card-form" ${attrs} novalidate autocomplete="on">
  <p class="secure">🔒 カード情報はYumecastを経由せず、決済代行会社に直接送信されます。</p>
  <div class="field">
    <label for="cc-name">カード名義（ローマ字）</label>
    <input id="cc-name" name="cc-name" autocomplete="cc-name" autocapitalize="characters" spellcheck="false" placeholder="TARO YAMADA" maxlength="60" required>
  </div>
  <div class="field">
    <label for="cc-number">カード番号</label>
    <input id="cc-number" name="cc-number" autocomplete="cc-number" inputmode="numeric" spellcheck="false" placeholder="1234 5678 9012 3456" maxlength="23" required aria-describedby="card-error">
  </div>
  <div class="row">
    <div class="field">
      <label for="cc-exp">有効期限（月 / 年）</label>
      <input id="cc-exp" name="cc-exp" autocomplete="cc-exp" inputmode="numeric" spellcheck="false" placeholder="MM / YY" maxlength="7" required aria-describedby="card-error">
    </div>
    <div class="field">
      <label for="cc-csc">セキュリティコード</label>
      <input id="cc-csc" name="cc-csc" autocomplete="cc-csc" inputmode="numeric" spellcheck="false" placeholder="123" maxlength="4" required aria-describedby="card-error">
    </div>
  </div>
  <p id="card-error" class="error" role="alert" aria-live="assertive"></p>
  <button id="card-submit" type="submit">カードを登録する</button>
  <p id="card-status" class="status" role="status" aria-live="polite"></p>
  <p class="note">テスト環境です。テスト用カード番号（例: 4242 4242 4242 4242、有効期限は未来の日付、セキュリティコードは任意の3桁）をお使いください。</p>
</form>
</div>`,
    'card-form.js',
  );
}

export interface ChallengePage {
  paymentIntentId: string;
  clientSecret: string;
  targetOrigin: string;
  returnUrl: string | null;
  amountJpy: number;
  cardLabel: string;
  /** requires_action shows the buttons; anything else reports the state. */
  status: string;
}

export function challengeHtml(page: ChallengePage): string {
  const attrs = [
    `data-payment-intent="${escapeHtml(page.paymentIntentId)}"`,
    `data-client-secret="${escapeHtml(page.clientSecret)}"`,
    `data-target-origin="${escapeHtml(page.targetOrigin)}"`,
    `data-return-url="${escapeHtml(page.returnUrl ?? '')}"`,
    `data-status="${escapeHtml(page.status)}"`,
  ].join(' ');
  const amount = `${page.amountJpy.toLocaleString('ja-JP')}円`;
  return layout(
    '本人認証（3-Dセキュア）',
    `<main class="challenge" id="challenge" ${attrs}>
  <h1>本人認証（3-Dセキュア）</h1>
  <p>カード発行会社がご本人確認をお願いしています。</p>
  <dl>
    <dt>加盟店</dt><dd>Yumecast</dd>
    <dt>金額</dt><dd>${escapeHtml(amount)}（税込）</dd>
    <dt>カード</dt><dd>${escapeHtml(page.cardLabel)}</dd>
  </dl>
  <p class="note">テスト環境です。「認証する」で認証に成功し、「認証に失敗する」で失敗します。</p>
  <div class="buttons">
    <button id="challenge-complete" type="button">認証する</button>
    <button id="challenge-fail" type="button" class="secondary">認証に失敗する</button>
  </div>
  <p id="challenge-error" class="error" role="alert" aria-live="assertive"></p>
  <p id="challenge-status" class="status" role="status" aria-live="polite"></p>
</main>`,
    'challenge.js',
  );
}

export function invalidLinkHtml(): string {
  return layout(
    'リンクが無効です',
    `<main class="challenge"><h1>このページは使用できません</h1>
<p>リンクが無効か、有効期限が切れています。購入ページに戻って、もう一度お試しください。</p></main>`,
  );
}
