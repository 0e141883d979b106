/**
 * The region every function is deployed to (Tokyo: our users are in Japan). The browser must
 * name the same one (`getFunctions(app, region)`): the local stack passes it to the web as
 * NEXT_PUBLIC_FUNCTIONS_REGION (scripts/stack/config.ts imports this constant). No imports here,
 * so the stack can read it without loading firebase-functions.
 */
export const FUNCTIONS_REGION = 'asia-northeast1';
