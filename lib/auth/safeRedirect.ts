/**
 * Where a callback may send the browser next. Only same-origin relative paths are followed;
 * anything else (another host, a protocol-relative "//host", "/\\host", javascript:, data:, an
 * absolute URL of another origin) is refused and the caller falls back to its default.
 * An absolute URL of our own origin is accepted and turned into its path.
 */
const DUMMY_ORIGIN = 'https://yumecast.invalid';

export function safeRedirectPath(value: unknown, origin?: string): string | null {
  if (typeof value !== 'string') return null;
  const raw = value.trim();
  if (!raw || raw.length > 2048) return null;
  // Control characters and backslashes are how browsers get tricked into other hosts.
  if (/[\u0000-\u001f\u007f\\]/.test(raw)) return null;
  const base = origin ?? (typeof window !== 'undefined' ? window.location.origin : DUMMY_ORIGIN);
  let url: URL;
  try {
    url = new URL(raw, base);
  } catch {
    return null;
  }
  if (url.origin !== base) return null;
  if (!raw.startsWith('/') && !raw.startsWith(base)) return null;
  if (raw.startsWith('//')) return null;
  const path = `${url.pathname}${url.search}${url.hash}`;
  return path.startsWith('/') && !path.startsWith('//') ? path : null;
}

/** The first query value of a Next.js router query entry. */
export function firstQueryValue(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}
