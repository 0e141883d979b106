/*
 * The sandbox's 3-D Secure challenge page (browser side), on the processor's origin. The two
 * buttons tell the sandbox whether the cardholder passed; the result goes to the embedding (or
 * opening) page by postMessage to the one allowed origin:
 *   {source: 'yumecast-payments-sandbox', type: 'authentication_finished', paymentIntentId,
 *    status: 'succeeded' | 'requires_payment_method', error?}
 * Opened as a page with a return URL, it goes there with ?payment_intent=…&redirect_status=….
 */
(function () {
  'use strict';
  var SOURCE = 'yumecast-payments-sandbox';
  var root = document.getElementById('challenge');
  if (!root) return;
  var data = root.dataset;
  var complete = document.getElementById('challenge-complete');
  var fail = document.getElementById('challenge-fail');
  var errorBox = document.getElementById('challenge-error');
  var statusBox = document.getElementById('challenge-status');
  var target = window.opener && window.opener !== window ? window.opener : window.parent !== window ? window.parent : null;

  function post(message) {
    message.source = SOURCE;
    message.paymentIntentId = data.paymentIntent;
    if (target) target.postMessage(message, data.targetOrigin);
  }

  function finished(status, error) {
    complete.disabled = true;
    fail.disabled = true;
    statusBox.textContent = status === 'succeeded' ? '本人認証が完了しました。' : '本人認証ができませんでした。';
    if (error) errorBox.textContent = error.message;
    post({ type: 'authentication_finished', status: status, error: error || null });
    if (!target && data.returnUrl) {
      var url = new URL(data.returnUrl);
      url.searchParams.set('payment_intent', data.paymentIntent);
      url.searchParams.set('redirect_status', status === 'succeeded' ? 'succeeded' : 'failed');
      window.location.assign(url.toString());
    }
  }

  function send(result) {
    complete.disabled = true;
    fail.disabled = true;
    errorBox.textContent = '';
    statusBox.textContent = '確認しています…';
    fetch('/hosted/payment_intents/' + encodeURIComponent(data.paymentIntent) + '/authenticate', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_secret: data.clientSecret, result: result }),
    })
      .then(function (response) {
        return response.json();
      })
      .then(function (body) {
        if (body.error) {
          complete.disabled = false;
          fail.disabled = false;
          statusBox.textContent = '';
          errorBox.textContent = body.error.message;
          return;
        }
        var intent = body.payment_intent;
        finished(intent.status, intent.last_payment_error);
      })
      .catch(function () {
        complete.disabled = false;
        fail.disabled = false;
        statusBox.textContent = '';
        errorBox.textContent = '通信できませんでした。もう一度お試しください。';
      });
  }

  complete.addEventListener('click', function () {
    send('complete');
  });
  fail.addEventListener('click', function () {
    send('fail');
  });
  if (data.status !== 'requires_action') finished(data.status === 'succeeded' ? 'succeeded' : 'requires_payment_method');
})();
