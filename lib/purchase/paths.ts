/**
 * The purchase flow's addresses, one place: the pages link to each other through these, and
 * carry the chosen plan along as `?plan=<id>` (the plan itself, its price included, always comes
 * from the api).
 */
export const UPGRADE_PATH = '/upgrade';
export const SIGNUP_PURCHASE_PATH = '/signup/purchase';
export const REGISTER_EMAIL_PATH = '/purchase/register-email';
export const REGISTER_CARD_PATH = '/purchase/register-card';
export const SETTINGS_PURCHASE_PATH = '/settings/purchase';
export const TOKUSHOHO_PATH = '/tokushoho';

const PLAN_ID = /^[a-z0-9][a-z0-9_-]{0,63}$/;

/** A plan id from the address bar, or null when it is not one. */
export function planIdFrom(value: unknown): string | null {
  const v = Array.isArray(value) ? value[0] : value;
  return typeof v === 'string' && PLAN_ID.test(v) ? v : null;
}

/** `path` with `?plan=<id>` when a plan was chosen. */
export function withPlan(path: string, planId: string | null | undefined): string {
  return planId ? `${path}?plan=${encodeURIComponent(planId)}` : path;
}
