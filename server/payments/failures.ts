/**
 * Why a card or a payment was refused, in Japanese for the user: one table shared by the
 * sandbox (its hosted form and API errors) and the Stripe adapter (which receives English
 * messages from Stripe and shows ours instead, chosen by Stripe's error and decline codes).
 */
import type { PaymentFailure } from './processor';

/** The Japanese message for each refusal, as the form and our pages show it. */
export const CARD_MESSAGES: Record<string, string> = {
  incorrect_number: 'カード番号が正しくありません。もう一度ご確認ください。',
  invalid_expiry: '有効期限を「月 / 年」（例: 12 / 30）の形で入力してください。',
  expired_card: 'カードの有効期限が切れています。別のカードをお使いください。',
  invalid_cvc: 'セキュリティコード（カード裏面の3桁、AMEXは表面の4桁）を入力してください。',
  incorrect_cvc: 'セキュリティコードが正しくありません。',
  card_declined: 'カードが承認されませんでした。カード会社にお問い合わせいただくか、別のカードをお使いください。',
  insufficient_funds: 'カードのご利用可能額が不足しているため、承認されませんでした。別のカードをお使いください。',
  lost_card: 'このカードはご利用いただけません。別のカードをお使いください。',
  stolen_card: 'このカードはご利用いただけません。別のカードをお使いください。',
  processing_error: 'カードの処理中にエラーが発生しました。しばらくしてからもう一度お試しください。',
  test_mode_live_card: 'このテスト環境では実際のカードは使えません。テスト用カード（4242 4242 4242 4242 など）をお使いください。',
  authentication_failed: '本人認証（3-Dセキュア）が完了しなかったため、お支払いできませんでした。',
  authentication_required: 'このお支払いには本人認証（3-Dセキュア）が必要です。',
};

/** A PaymentFailure for Stripe's (or the sandbox's) code and decline code. */
export function failure(code: string, declineCode?: string): PaymentFailure {
  const message = (declineCode && CARD_MESSAGES[declineCode]) || CARD_MESSAGES[code] || CARD_MESSAGES.card_declined;
  return declineCode ? { code, declineCode, message } : { code, message };
}

