/**
 * Readers of environment variables shared by every server's one config module (the api's
 * server/api/config.ts and services/sessionConfig.ts, the host's server/host/config.ts): blank
 * means unset, and a bad number stops the start with a message naming the variable.
 */

export type Env = Record<string, string | undefined>;

/** The trimmed value, or undefined when unset or blank. */
export function envString(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

/** A comma-separated list, items trimmed, blanks dropped; undefined when unset or empty. */
export function envList(value: string | undefined): string[] | undefined {
  const items = value
    ?.split(',')
    .map((item) => item.trim())
    .filter(Boolean);
  return items && items.length > 0 ? items : undefined;
}

/** An integer in [min, max] from env[name], `fallback` when unset; throws on anything else. */
export function envInt(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = envString(env[name]);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(`${name} must be an integer between ${min} and ${max} (got "${raw}")`);
  }
  return value;
}
