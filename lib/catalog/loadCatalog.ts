/**
 * The catalogue's api client as its own chunk (issue 12: a public page's first load carries no
 * api client): loaded when the browser first needs it (a search typed, the search start view's
 * lists), then cached by the module system.
 */
export const loadCatalog = () => import('@/lib/api/catalog');
