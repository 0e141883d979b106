/**
 * Which runtime plays a title (issue 15), decided in ONE place for everything that walks games/:
 * the catalogue's seed, the VN runtime's build (runtime/build.ts), the host's prewarm plan and its
 * native runtime (server/host/native/host.ts), the catalogue and art scripts, and the tests that
 * play "every title".
 *
 * A title's games/<id>/meta.json says so with `"runtime": {"kind": ...}`: no "runtime" (every
 * title before issue 15) is the web VN engine (runtime/, a story.ink played in the host's
 * Chromium); `renpy` is an unchanged Ren'Py game run natively by the host (server/host/native/,
 * docs/renpy.md), which has no story.ink, no game.json and nothing the web engine could load.
 *
 * Two questions, two answers: `runtimeKindOf` / `isWebEngineTitle` only say who plays a title
 * (lenient: a kind nobody knows is still not the web engine's); `parseTitleRuntime` is the one
 * validator of the whole field, for the catalogue's seed (which stops on a bad one, naming the
 * file) and the host (which starts a native game only from a valid one).
 *
 * Plain TypeScript with no imports (no TypeBox: lib/ outside api-types/schemas never loads it,
 * eslint.config.mjs): the api, the host, runtime/build.ts (which may import only
 * lib/api-types/** from lib/) and the browser can all use it.
 */

/** The runtime kinds a meta.json may name. */
export const RUNTIME_KINDS = ['web', 'renpy'] as const;
export type RuntimeKind = (typeof RUNTIME_KINDS)[number];

/** The kind of a title without a "runtime" field. */
export const WEB_RUNTIME = 'web' satisfies RuntimeKind;

/** A Ren'Py game the host runs natively (docs/renpy.md §2). */
export interface RenpyRuntime {
  kind: 'renpy';
  /** The game's base directory on the host, absolute (e.g. /usr/share/games/renpy/the_question). */
  baseDir: string;
  /** The translation to run (RENPY_LANGUAGE), e.g. "japanese". */
  language?: string;
}

/** A meta.json's "runtime" field, as parseTitleRuntime returns it (`kind` web has no other field). */
export type TitleRuntime = { kind: typeof WEB_RUNTIME } | RenpyRuntime;

/** parseTitleRuntime's answer: the runtime, or what is wrong, worded after the meta.json field it names. */
export type TitleRuntimeParse = { ok: true; runtime: TitleRuntime } | { ok: false; reason: string };

/** A Ren'Py language name (a folder of game/tl/; the host passes it on as RENPY_LANGUAGE). */
const RENPY_LANGUAGE_RE = /^[a-z_]{1,32}$/;

/**
 * Checks a meta.json's "runtime" field (the value; undefined = absent = the web engine). A
 * `renpy` runtime needs an absolute `baseDir` and may name a `language`; strings are trimmed. The
 * reason reads after the file's name: `"runtime" must be …` or `"runtime": "baseDir" must be …`.
 */
export function parseTitleRuntime(value: unknown): TitleRuntimeParse {
  if (value === undefined) return { ok: true, runtime: { kind: WEB_RUNTIME } };
  const record = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  const kind = record?.kind;
  if (!record || !RUNTIME_KINDS.includes(kind as RuntimeKind)) {
    return { ok: false, reason: `"runtime" must be an object whose "kind" is one of ${RUNTIME_KINDS.join(', ')}` };
  }
  if (kind === WEB_RUNTIME) return { ok: true, runtime: { kind } };
  const bad = (field: string, what: string): TitleRuntimeParse => ({ ok: false, reason: `"runtime": "${field}" ${what}` });
  const baseDir = typeof record.baseDir === 'string' ? record.baseDir.trim() : '';
  if (!baseDir) return bad('baseDir', 'must be a non-empty string');
  if (!baseDir.startsWith('/')) return bad('baseDir', 'must be an absolute path on the host');
  if (record.language === undefined) return { ok: true, runtime: { kind: 'renpy', baseDir } };
  const language = typeof record.language === 'string' ? record.language.trim() : '';
  if (!RENPY_LANGUAGE_RE.test(language)) return bad('language', "must be a Ren'Py language name (a-z and _, at most 32), e.g. japanese");
  return { ok: true, runtime: { kind: 'renpy', baseDir, language } };
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
