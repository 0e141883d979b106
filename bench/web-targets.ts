/**
 * The webs a web bench compares (bench/lighthouse.ts, bench/web-load.ts): `--url label=baseUrl`
 * (or a bare URL, labelled web1, web2…), loopback only, labels distinct; and the order they are
 * measured in, rotated per round and page so that on this shared, noisy machine no web always
 * goes first.
 */

export interface Target {
  label: string;
  base: string;
}

/** One `--url` value: `label=baseUrl` or a bare URL (the n-th web). */
export function parseTarget(v: string, n: number): Target {
  const eq = v.indexOf('=');
  const [label, base] = eq > 0 ? [v.slice(0, eq), v.slice(eq + 1)] : [`web${n}`, v];
  return { label, base: base.replace(/\/$/, '') };
}

/** Refuses (through `usage`) targets with the same label or off loopback. */
export function checkTargets(targets: Target[], usage: (message: string) => never): void {
  if (new Set(targets.map((t) => t.label)).size !== targets.length) usage('labels must differ');
  for (const t of targets) {
    let host: string;
    try {
      host = new URL(t.base).hostname;
    } catch {
      usage(`not a URL: ${t.base}`);
    }
    if (!['127.0.0.1', 'localhost', '[::1]'].includes(host)) usage('this benchmark only targets loopback addresses');
  }
}

/** The targets in the order of round `round`, page `page`. */
export function rotation<T>(items: T[], round: number, page: number): T[] {
  const k = (round + page) % items.length;
  return [...items.slice(k), ...items.slice(0, k)];
}
