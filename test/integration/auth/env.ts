/**
 * Imported first by every auth integration test: points the browser code of lib/ (lib/config
 * reads NEXT_PUBLIC_* at import) at the Auth emulator the test stack started.
 */
import { TEST_AUTH_EMULATOR_HOST, TEST_PROJECT_ID } from '../../../server/api/testing/services';

process.env.NEXT_PUBLIC_AUTH_EMULATOR_HOST = TEST_AUTH_EMULATOR_HOST;
process.env.NEXT_PUBLIC_FIREBASE_PROJECT_ID = TEST_PROJECT_ID;
process.env.NEXT_PUBLIC_SITE_URL = 'http://localhost:3100';
