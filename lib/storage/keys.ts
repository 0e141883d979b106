/** The local-storage keys of spec section 9: one key each. */
export const STORAGE_KEYS = {
  safeCheck: 'yumecast.safeCheck',
  playerConfig: 'yumecast.playerConfig',
  emailForSignIn: 'yumecast.emailForSignIn',
  theme: 'yumecast.theme',
} as const;
