/**
 * Registers the account's e-mail as the billing e-mail with the payment processor (spec section
 * 7, issue 9 §3.2): the callable function `payment-invokePaymentRequest` with
 * `{method: 'updateEmail', requestId}`. The function checks the caller (verified e-mail) and
 * asks our api, which stores the requestId: the same requestId answers the same result, so a
 * retry of one attempt never does the work twice. One requestId per attempt (BillingEmailAttempt).
 * `firebase/functions` is loaded on first use (dynamic import), so only purchase pages carry it.
 */
import { networkTimeoutMs } from '@/lib/api/client';

export const PAYMENT_REQUEST_FUNCTION = 'payment-invokePaymentRequest';

export interface BillingEmailResult {
  customerId: string;
  email: string;
}

/** A failure of the callable, with a Japanese message for the page. */
export class BillingEmailError extends Error {
  constructor(
    /** The Functions code without its prefix (unauthenticated, permission-denied, unavailable, …). */
    readonly code: string,
    readonly userMessage: string,
  ) {
    super(code);
    this.name = 'BillingEmailError';
  }
}

const MESSAGES: Record<string, string> = {
  unauthenticated: 'ログイン情報を確認できませんでした。ページを再読み込みしてから、もう一度お試しください。',
  'permission-denied': 'メールアドレスの確認が済んでいないため登録できません。確認済みのメールアドレスでログインしてください。',
  'invalid-argument': 'リクエストの内容が正しくありません。ページを再読み込みしてから、もう一度お試しください。',
  'already-exists': 'このリクエストはすでに使われています。ページを再読み込みしてから、もう一度お試しください。',
  aborted: 'お手続きを処理しています。しばらくしてからもう一度お試しください。',
  'deadline-exceeded': 'サーバーからの応答がありません。通信環境を確認して、もう一度お試しください。',
  unavailable: '現在お支払い用メールアドレスを登録できません。しばらくしてからもう一度お試しください。',
  'resource-exhausted': 'リクエストが多すぎます。しばらくしてからもう一度お試しください。',
  network: '通信に失敗しました。ネットワーク接続を確認して、もう一度お試しください。',
  bad_response: 'サーバーから予期しない応答がありました。もう一度お試しください。',
};
const FALLBACK = 'お支払い用メールアドレスを登録できませんでした。しばらくしてからもう一度お試しください。';

export function billingEmailMessage(code: string): string {
  return MESSAGES[code] ?? FALLBACK;
}

/** The Functions SDK's error code ("functions/unavailable") as our short code. */
export function callableCode(e: unknown): string {
  const code = typeof e === 'object' && e !== null && typeof (e as { code?: unknown }).code === 'string' ? (e as { code: string }).code : '';
  if (!code) return e instanceof TypeError ? 'network' : 'unknown';
  return code.replace(/^functions\//, '');
}

/** The function's own message when it wrote one in Japanese (its HttpsErrors do; the SDK's own are English). */
function japaneseMessageOf(e: unknown): string | null {
  const message = e instanceof Error ? e.message : '';
  return /[\u3040-\u30ff\u4e00-\u9fff]/.test(message) ? message : null;
}

function isResult(v: unknown): v is BillingEmailResult {
  return !!v && typeof v === 'object' && typeof (v as BillingEmailResult).customerId === 'string' && typeof (v as BillingEmailResult).email === 'string';
}

/**
 * Calls the function with this requestId; throws BillingEmailError. The function reads
 * `email_verified` from the ID token, so a refusal as unverified is retried once (same requestId)
 * after a forced token refresh: the address may have been confirmed after the token was minted.
 */
export async function invokeUpdateEmail(requestId: string): Promise<BillingEmailResult> {
  let data: unknown;
  try {
    const [{ httpsCallable }, { firebaseFunctions }, { firebaseAuth }] = await Promise.all([
      import('firebase/functions'),
      import('@/lib/firebase/functions'),
      import('@/lib/firebase/client'),
    ]);
    const call = httpsCallable<{ method: 'updateEmail'; requestId: string }, unknown>(firebaseFunctions(), PAYMENT_REQUEST_FUNCTION, {
      timeout: networkTimeoutMs(),
    });
    try {
      data = (await call({ method: 'updateEmail', requestId })).data;
    } catch (e) {
      const user = firebaseAuth().currentUser;
      if (callableCode(e) !== 'permission-denied' || !user || user.isAnonymous) throw e;
      await user.getIdToken(true);
      data = (await call({ method: 'updateEmail', requestId })).data;
    }
  } catch (e) {
    const code = callableCode(e);
    throw new BillingEmailError(code, japaneseMessageOf(e) ?? billingEmailMessage(code));
  }
  if (!isResult(data)) throw new BillingEmailError('bad_response', billingEmailMessage('bad_response'));
  return data;
}

/** A new request id (a v4 UUID). */
export function newRequestId(): string {
  return crypto.randomUUID();
}

/**
 * One attempt to register the billing e-mail: its requestId is made once and reused when the
 * same attempt is retried (a timeout may have hidden a success), and calls made while one is
 * running share it (a double click sends one request).
 */
export class BillingEmailAttempt {
  readonly requestId: string;
  private running: Promise<BillingEmailResult> | null = null;

  constructor(
    requestId: string = newRequestId(),
    private readonly invoke: (requestId: string) => Promise<BillingEmailResult> = invokeUpdateEmail,
  ) {
    this.requestId = requestId;
  }

  run(): Promise<BillingEmailResult> {
    if (!this.running) {
      this.running = this.invoke(this.requestId).finally(() => {
        this.running = null;
      });
    }
    return this.running;
  }
}
