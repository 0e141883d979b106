/**
 * TypeBox building blocks of every wire contract (fastify/demo `src/schemas`: a TypeBox schema is
 * the TypeScript type). The api and the game host validate and serialise with these schemas;
 * browser code imports only their *types* (`import type`, enforced by lint), so no schema library
 * reaches a page bundle.
 */
import { Type, type Static, type TObject, type TProperties } from '@sinclair/typebox';
import { API_ERROR_CODES } from '../errors';
import { GAME_ID_PATTERN, UUID_PATTERN } from '../ids';

/** `status: "ok"` of every successful answer. */
export const Ok = Type.Literal('ok');

/** `{ status: "ok", ...properties }`, closed (the serializer drops anything unplanned). */
export function okAnswer<P extends TProperties>(properties: P) {
  return Type.Object({ status: Ok, ...properties }, { additionalProperties: false });
}

/** An answer that is only `{ status: "ok" }`. */
export const OkOnly = okAnswer({});
export type OkOnly = Static<typeof OkOnly>;

/** `next_cursor` of every paginated list: pass it as `cursor` for the next page; null on the last. */
export const NextCursor = Type.Union([Type.String(), Type.Null()]);

export const UuidString = Type.String({ pattern: UUID_PATTERN });
export const GameIdString = Type.String({ pattern: GAME_ID_PATTERN });

/** Closed object (additionalProperties: false): a misspelt field is a typed 400, never ignored. */
export function closed<P extends TProperties>(properties: P): TObject<P> {
  return Type.Object(properties, { additionalProperties: false });
}

export const API_ERROR_SCHEMA_ID = 'ApiError';

/** The one error envelope (lib/api-types/errors.ts): `{ status: "error", error: { code, message } }`. */
export const ApiErrorSchema = Type.Object(
  {
    status: Type.Literal('error'),
    error: closed({
      code: Type.Union(API_ERROR_CODES.map((code) => Type.Literal(code))),
      message: Type.String(),
    }),
  },
  { $id: API_ERROR_SCHEMA_ID, additionalProperties: false },
);
export type ApiErrorSchema = Static<typeof ApiErrorSchema>;
