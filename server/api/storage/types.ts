/**
 * The one storage interface for binary objects the api keeps (screenshots). Keys are relative,
 * slash-separated paths such as `<uid>/<screenshotId>.png`; an implementation maps them to files
 * (LocalFileStorage, the local default) or to objects in a bucket (production object storage plugs
 * in here behind the same three calls). Metadata and ownership live in PostgreSQL, never here.
 */
export interface ObjectStorage {
  /** Stores `data` under `key`, replacing what was there. */
  put(key: string, data: Buffer, contentType: string): Promise<void>;
  /** The object, or null when there is none. */
  get(key: string): Promise<Buffer | null>;
  /** Removes the object; no error when it does not exist. */
  delete(key: string): Promise<void>;
}

/** Keys: 1..8 segments of [A-Za-z0-9._-], no "." or ".." segment, at most 512 characters. */
const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$/;

export function assertStorageKey(key: string): string {
  const segments = key.split('/');
  if (key.length > 512 || segments.length > 8 || !segments.every((segment) => SEGMENT.test(segment) && !/^\.+$/.test(segment))) {
    throw new Error(`invalid storage key: ${JSON.stringify(key.slice(0, 80))}`);
  }
  return key;
}

