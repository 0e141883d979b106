/**
 * Where a sign-in redirect keeps its intent (sessionStorage), in a module of its own so the auth
 * loader (lib/auth/loader.ts) can see a redirect coming back without loading Firebase.
 */
export const REDIRECT_INTENT_KEY = 'yumecast.authRedirect';
