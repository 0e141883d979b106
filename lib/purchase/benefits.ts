/**
 * What /upgrade promises, and only what the server enforces (issue 9 §1; docs/purchase.md
 * "Benefits"): premium titles start only for an active subscriber (GET /v1/game/:id/start answers
 * `subscription_required` otherwise, from our database). Add a line here only when the api
 * enforces it; the high video quality and the screenshot allowance are not promised until then.
 */
export const PLAN_BENEFITS: readonly string[] = [
  'プレミアム作品（作品ページに「プレミアム」と表示）がすべて遊び放題',
  '登録後すぐにご利用いただけます',
  'いつでも解約できます（お支払い済みの期間の終わりまでご利用いただけます）',
];
