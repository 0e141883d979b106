/**
 * The id formats every wire contract shares (path params, bodies, the host ⇄ api contract):
 * written once here, so the api, the game host and the browser never disagree on what an id is.
 * Plain strings (no schema library): browser code may import them at run time.
 */

/** A session, screenshot or other server-made id: a UUID (any case; the api lower-cases it). */
export const UUID_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';
export const UUID_RE = new RegExp(UUID_PATTERN);

/** A title's id: its folder under games/ (lower-case letters, digits, hyphens; e.g. amayadori-cafe). */
export const GAME_ID_PATTERN = '^[a-z0-9][a-z0-9-]{0,63}$';
export const GAME_ID_RE = new RegExp(GAME_ID_PATTERN);
