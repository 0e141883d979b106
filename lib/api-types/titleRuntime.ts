/**
 * Which runtime plays a title (issue 15), decided in ONE place for everything that walks games/:
 * the catalogue's seed, the VN runtime's build (runtime/build.ts), the host's prewarm plan, the
 * catalogue and art scripts, and the tests that play "every title".
 *
 * A title's games/<id>/meta.json says so with `"runtime": {"kind": ...}`: no "runtime" (every
 * title before issue 15) is the web VN engine (runtime/, a story.ink played in the host's
 * Chromium); `renpy` is an unchanged Ren'Py game run natively by the host (server/host/native/,
 * docs/renpy.md), which has no story.ink, no game.json and nothing the web engine could load.
 *
 * Plain TypeScript with no imports: the api, the host, runtime/build.ts (which may import only
 * lib/api-types/** from lib/) and the browser can all use it.
 */

/** The runtime kinds a meta.json may name. */
export const RUNTIME_KINDS = ['web', 'renpy'] as const;
export type RuntimeKind = (typeof RUNTIME_KINDS)[number];

/** The kind of a title without a "runtime" field. */
export const WEB_RUNTIME: RuntimeKind = 'web';

/** A meta.json's "runtime" field (`kind` web has no other field). */
export interface TitleRuntime {
  kind: RuntimeKind;
  /** renpy: the game's base directory on the host (e.g. /usr/share/games/renpy/the_question). */
  baseDir?: string;
  /** renpy: the translation to run (RENPY_LANGUAGE), e.g. "japanese". */
  language?: string;
}

/**
 * The runtime kind a parsed meta.json (or any record with its "runtime" field) names: 'web'
 * when there is no "runtime" or it has no kind; otherwise the kind as written, even one this
 * list does not know (so an unknown kind is never taken for the web engine).
 */
export function runtimeKindOf(meta: unknown): string {
  if (typeof meta !== 'object' || meta === null) return WEB_RUNTIME;
  const runtime = (meta as { runtime?: unknown }).runtime;
  if (runtime === undefined || runtime === null) return WEB_RUNTIME;
  const kind = typeof runtime === 'object' ? (runtime as { kind?: unknown }).kind : runtime;
  if (kind === undefined) return WEB_RUNTIME;
  return typeof kind === 'string' ? kind : JSON.stringify(kind);
}

/** Whether the web VN engine plays this title (parsed meta.json; null/absent = yes). */
export function isWebEngineTitle(meta: unknown): boolean {
  return runtimeKindOf(meta) === WEB_RUNTIME;
}

/**
 * The same from a meta.json's text, for code that reads games/<id>/ itself: null (no meta.json,
 * e.g. the engine's own test fixtures) is a web title; text that is not JSON is too (the
 * catalogue's seed is what reports a broken meta.json, with the file and the field).
 */
export function isWebEngineMetaText(text: string | null): boolean {
  if (text === null) return true;
  try {
    return isWebEngineTitle(JSON.parse(text));
  } catch {
    return true;
  }
}
