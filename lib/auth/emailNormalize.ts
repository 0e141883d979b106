/**
 * Spec section 5: an e-mail address ending in an odd dot-at ("taro.@docomo.ne.jp") or holding a
 * double dot ("ta..ro@…") is normalised before its sign-in methods are looked up. Such
 * addresses were handed out by Japanese mobile carriers for years; they break the dot-atom rule
 * of RFC 5322, so strict validators (the Identity Toolkit lookup among them) refuse them. The
 * RFC's own way to write such a local part is a quoted string, which is what we send:
 * taro.@docomo.ne.jp → "taro."@docomo.ne.jp. Everything is also trimmed and lower-cased, the
 * way the authentication service compares addresses.
 */
export function needsEmailNormalisation(email: string): boolean {
  const at = email.lastIndexOf('@');
  if (at <= 0) return false;
  const local = email.slice(0, at);
  if (local.startsWith('"') && local.endsWith('"')) return false;
  return local.endsWith('.') || local.startsWith('.') || local.includes('..');
}

export function normalizeEmailForLookup(email: string): string {
  const v = email.trim().toLowerCase();
  if (!needsEmailNormalisation(v)) return v;
  const at = v.lastIndexOf('@');
  const local = v.slice(0, at).replace(/(["\\])/g, '\\$1');
  return `"${local}"@${v.slice(at + 1)}`;
}
