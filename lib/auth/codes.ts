/** Result codes of our own (no SDK import here, so any component can use them). */

/** Not a failure: the page is leaving for the X re-login; the link is retried on return. */
export const REDIRECTING = 'redirecting';
/** After the re-login, a password link needs the password once more (it is never stored). */
export const PASSWORD_AGAIN = 'passwordAgain';
export const REQUIRES_RECENT_LOGIN = 'auth/requires-recent-login';
