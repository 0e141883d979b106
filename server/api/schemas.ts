/**
 * The route-side schema pieces every api route shares (TypeBox; the wire shapes themselves are
 * the contract modules in lib/api-types/schemas/, the host ⇄ api ones in
 * server/shared/host-contract.ts). Every route declares params, querystring, body (where it takes
 * one) and its responses, including `errorResponses`: the serializer then drops any field that is
 * not in a schema, so nothing unplanned (a stack, an internal id) leaves. Routes are written with
 * @fastify/type-provider-typebox, so handlers read `request.params/query/body` typed from these
 * schemas, never cast (docs/api.md).
 *
 * Path parameters have one rule: a route whose path names an id sets `config: { notFound: code }`
 * and a malformed parameter then answers that typed 404, the same as an unknown id (a caller
 * learns nothing from an id's shape); plugins/errors.ts applies it. Without `notFound`, and for
 * every other part of the request, a schema violation is 400 invalid_request.
 */
import { Type } from '@sinclair/typebox';

/** Spread into a route's `response` schema: every 4xx and 5xx answer has the error shape. */
export { errorResponses } from '../shared/errors';

/** For routes without params (or a body): declares "nothing expected" explicitly. */
export const NoParams = Type.Object({}, { additionalProperties: false });

/**
 * Query strings stay open (additional properties allowed) where a route takes none, so a cache
 * buster or tracking parameter added by a proxy or a monitor does not turn into a 400.
 */
export const AnyQuery = Type.Object({});

/**
 * `limit` of every paginated list: 1..100, 20 when absent. "Infinity" or "1e309" (which Ajv's
 * coercion makes ±Infinity) are refused like any value out of range (server/shared/finite-numbers.ts).
 */
export const PageLimit = Type.Integer({ minimum: 1, maximum: 100, default: 20 });

/** `limit` and the opaque `cursor` of every paginated list (an empty cursor means the first page). */
export const pageQueryFields = {
  limit: PageLimit,
  cursor: Type.Optional(Type.String({ maxLength: 512 })),
};

/** Query of a paginated list that takes nothing else (open like AnyQuery). */
export const PageQuery = Type.Object(pageQueryFields);
