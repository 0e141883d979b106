/**
 * Where the integration tests find PostgreSQL and the Auth emulator. The test orchestrator (or
 * server/dev/with-services.ts) starts both and passes them in the environment; the defaults are
 * the local launchers' addresses, so tests also run against an already running dev stack.
 */
export const TEST_DATABASE_URL =
  process.env.DATABASE_URL?.trim() || 'postgres://postgres:postgres@127.0.0.1:54329/yumecast_test';

export const TEST_AUTH_EMULATOR_HOST = process.env.FIREBASE_AUTH_EMULATOR_HOST?.trim() || '127.0.0.1:9099';

export const TEST_PROJECT_ID = process.env.FIREBASE_PROJECT_ID?.trim() || 'demo-yumecast';

export const HOW_TO_RUN =
  'Integration tests need PostgreSQL and the Firebase Auth emulator. Run them with:\n' +
  '  npx tsx server/dev/with-services.ts -- npx jest --selectProjects integration';
