/**
 * Object storage of the api (screenshots): the ObjectStorage interface and its one
 * implementation, LocalFileStorage. See types.ts and docs/sessions.md section 6.
 */
export { assertStorageKey, type ObjectStorage } from './types';
export { LocalFileStorage } from './local';
