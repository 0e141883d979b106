/**
 * The api's typed errors: ApiError (throw it from a route, hook or service), the HTTP status of
 * each code of lib/api-types/errors.ts, and the error envelope's body. They are the ones every
 * server of ours answers with (server/shared/errors.ts, shared with the game host); this module
 * is the api's import point for them. plugins/errors.ts sends them.
 */
export { ApiError, ERROR_HTTP_STATUS, errorBody } from '../shared/errors';
