import { API_ERROR_CODES } from '../../lib/api-types/errors';

/**
 * JSON schemas shared by every route. The errors plugin registers them with app.addSchema, so a
 * route refers to them by $ref. Every route declares params, querystring, body (where it takes
 * one) and its responses, including the error responses below: the serializer then drops any
 * field that is not in the schema, so nothing unplanned (a stack, an internal id) leaves.
 */

export const API_ERROR_SCHEMA_ID = 'ApiError';

export const apiErrorSchema = {
  $id: API_ERROR_SCHEMA_ID,
  type: 'object',
  required: ['status', 'error'],
  additionalProperties: false,
  properties: {
    status: { type: 'string', enum: ['error'] },
    error: {
      type: 'object',
      required: ['code', 'message'],
      additionalProperties: false,
      properties: {
        code: { type: 'string', enum: [...API_ERROR_CODES] },
        message: { type: 'string' },
      },
    },
  },
} as const;

/** Spread into a route's `response` schema: every 4xx and 5xx answer has the error shape. */
export const errorResponses = {
  '4xx': { $ref: `${API_ERROR_SCHEMA_ID}#` },
  '5xx': { $ref: `${API_ERROR_SCHEMA_ID}#` },
} as const;

/** For routes without params or query: declares "nothing expected" explicitly. */
export const noParams = { type: 'object', properties: {}, additionalProperties: false } as const;

/**
 * Query strings stay open (additional properties allowed) where a route takes none, so a cache
 * buster or tracking parameter added by a proxy or a monitor does not turn into a 400.
 */
export const anyQuery = { type: 'object', properties: {} } as const;
