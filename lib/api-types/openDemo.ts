/**
 * The one title a visitor (anonymous or signed out) may play: the api starts it for anyone, and
 * its play page is open (spec section 4). The open demo that games/ ships; overridable for
 * deployments that pick another demo (the api and the web must be given the same value).
 * Alone in its module because it reads the environment: modules bundled for the host's runtime
 * page (which has no `process`) import lib/api-types/sessions.ts, never this.
 */
export const OPEN_PLAY_GAME_ID = process.env.NEXT_PUBLIC_OPEN_PLAY_GAME_ID || 'hajimari-no-eki';
