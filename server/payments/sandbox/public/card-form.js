/*
 * The sandbox's hosted card form (browser side), served from the processor's origin. It checks
 * the card as the user types (Luhn, expiry, CVC: Japanese messages), sends it to the sandbox on
 * this same origin (never to Yumecast), and tells the page that embeds it the result by
 * postMessage to the one allowed origin the setup was created for:
 *   {source: 'yumecast-payments-sandbox', type: 'ready' | 'resize' | 'card_setup_succeeded' |
 *    'card_setup_failed', setupIntentId, paymentMethod?: {id, brand, last4, expMonth, expYear},
 *    error?: {code, message}, height?}
 * Opened as a page (not framed) with a return URL, it goes there after success instead.
 * Plain ES2017, no build step: the file is served as is.
 */
(function () {
  'use strict';
  var SOURCE = 'yumecast-payments-sandbox';
  var form = document.getElementById('card-form');
  if (!form) return;
  var data = form.dataset;
  var number = document.getElementById('cc-number');
  var exp = document.getElementById('cc-exp');
  var csc = document.getElementById('cc-csc');
  var name = document.getElementById('cc-name');
  var button = document.getElementById('card-submit');
  var errorBox = document.getElementById('card-error');
  var statusBox = document.getElementById('card-status');
  var framed = window.parent !== window;

  var MESSAGES = {
    name: 'カード名義を入力してください。',
    incorrect_number: 'カード番号が正しくありません。もう一度ご確認ください。',
    invalid_expiry: '有効期限を「月 / 年」（例: 12 / 30）の形で入力してください。',
    expired_card: 'カードの有効期限が切れています。別のカードをお使いください。',
    invalid_cvc: 'セキュリティコード（カード裏面の3桁、AMEXは表面の4桁）を入力してください。',
    network: '通信できませんでした。接続を確認して、もう一度お試しください。',
    unknown: 'カードを登録できませんでした。もう一度お試しください。',
  };

  function post(message) {
    message.source = SOURCE;
    message.setupIntentId = data.setupIntent;
    if (framed) window.parent.postMessage(message, data.targetOrigin);
  }
  var lastHeight = 0;
  function resize() {
    var height = document.documentElement.scrollHeight;
    if (height === lastHeight) return;
    lastHeight = height;
    post({ type: 'resize', height: height });
  }
  function digits(value) {
    return value.replace(/\D/g, '');
  }
  function luhn(value) {
    if (!/^\d{12,19}$/.test(value)) return false;
    var sum = 0;
    for (var i = 0; i < value.length; i++) {
      var d = value.charCodeAt(value.length - 1 - i) - 48;
      if (i % 2 === 1) {
        d *= 2;
        if (d > 9) d -= 9;
      }
      sum += d;
    }
    return sum % 10 === 0;
  }
  function parseExpiry(value) {
    var m = /^\s*(\d{1,2})\s*\/?\s*(\d{2}|\d{4})\s*$/.exec(value);
    if (!m) return null;
    var month = Number(m[1]);
    var year = Number(m[2]);
    if (year < 100) year += 2000;
    if (month < 1 || month > 12) return null;
    return { month: month, year: year };
  }
  function showError(text, field) {
    errorBox.textContent = text || '';
    [number, exp, csc, name].forEach(function (input) {
      input.setAttribute('aria-invalid', input === field ? 'true' : 'false');
    });
    if (field) field.focus();
    resize();
  }

  number.addEventListener('input', function () {
    var d = digits(number.value).slice(0, 19);
    var amex = /^3[47]/.test(d);
    var groups = amex ? [d.slice(0, 4), d.slice(4, 10), d.slice(10, 15)] : d.match(/.{1,4}/g) || [];
    number.value = groups.filter(Boolean).join(' ');
    csc.maxLength = amex ? 4 : 3;
  });
  exp.addEventListener('input', function (event) {
    var d = digits(exp.value).slice(0, 4);
    if (event.inputType && event.inputType.indexOf('delete') === 0) return;
    exp.value = d.length > 2 ? d.slice(0, 2) + ' / ' + d.slice(2) : d.length === 2 ? d + ' / ' : d;
  });

  function finish(paymentMethod) {
    form.classList.add('done');
    [number, exp, csc, name].forEach(function (input) {
      input.value = '';
      input.disabled = true;
    });
    button.disabled = true;
    statusBox.textContent = paymentMethod
      ? 'カード（' + paymentMethod.brand.toUpperCase() + ' •••• ' + paymentMethod.last4 + '）を登録しました。'
      : 'カードは登録済みです。';
    post({ type: 'card_setup_succeeded', paymentMethod: paymentMethod || null });
    if (!framed && data.returnUrl) {
      var url = new URL(data.returnUrl);
      url.searchParams.set('setup_intent', data.setupIntent);
      url.searchParams.set('redirect_status', 'succeeded');
      window.location.assign(url.toString());
    }
    resize();
  }

  form.addEventListener('submit', function (event) {
    event.preventDefault();
    if (button.disabled) return;
    var cardNumber = digits(number.value);
    var expiry = parseExpiry(exp.value);
    var cvc = digits(csc.value);
    if (!name.value.trim()) return showError(MESSAGES.name, name);
    if (!luhn(cardNumber)) return showError(MESSAGES.incorrect_number, number);
    if (!expiry) return showError(MESSAGES.invalid_expiry, exp);
    var now = new Date();
    if (expiry.year < now.getFullYear() || (expiry.year === now.getFullYear() && expiry.month < now.getMonth() + 1)) {
      return showError(MESSAGES.expired_card, exp);
    }
    if (cvc.length !== (/^3[47]/.test(cardNumber) ? 4 : 3)) return showError(MESSAGES.invalid_cvc, csc);
    showError('');
    button.disabled = true;
    button.setAttribute('aria-busy', 'true');
    statusBox.textContent = 'カードを確認しています…';
    fetch('/hosted/setup_intents/' + encodeURIComponent(data.setupIntent) + '/confirm', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_secret: data.clientSecret,
        card: { number: cardNumber, exp_month: expiry.month, exp_year: expiry.year, cvc: cvc },
      }),
    })
      .then(function (response) {
        return response.json().then(function (body) {
          return { ok: response.ok, body: body };
        });
      })
      .then(function (result) {
        button.disabled = false;
        button.removeAttribute('aria-busy');
        statusBox.textContent = '';
        if (result.ok) {
          var card = result.body.payment_method.card;
          return finish({
            id: result.body.payment_method.id,
            brand: card.brand,
            last4: card.last4,
            expMonth: card.exp_month,
            expYear: card.exp_year,
          });
        }
        var error = (result.body && result.body.error) || {};
        var field = error.code === 'incorrect_number' ? number : /expir/.test(error.code || '') ? exp : /cvc/.test(error.code || '') ? csc : number;
        showError(error.message || MESSAGES.unknown, field);
        post({ type: 'card_setup_failed', error: { code: error.code || 'unknown', message: error.message || MESSAGES.unknown } });
      })
      .catch(function () {
        button.disabled = false;
        button.removeAttribute('aria-busy');
        statusBox.textContent = '';
        showError(MESSAGES.network, null);
      });
  });

  if (data.completed === 'true') finish(null);
  post({ type: 'ready' });
  resize();
  if (window.ResizeObserver) new ResizeObserver(resize).observe(document.body);
})();
