import nextJest from 'next/jest.js';

/**
 * Two Jest projects:
 * - unit: components, slices, the guard, storage, the head (jsdom, next/jest transforms);
 * - integration: servers against the real PostgreSQL and Firebase emulators, which
 *   scripts/test.ts starts first and passes in through the environment.
 */
const createJestConfig = nextJest({ dir: './' });

/** @type {import('jest').Config} */
const unit = {
  displayName: 'unit',
  testEnvironment: 'jsdom',
  setupFilesAfterEnv: ['<rootDir>/test/setup-unit.ts'],
  moduleNameMapper: { '^@/(.*)$': '<rootDir>/$1' },
  testMatch: ['<rootDir>/{components,store,lib,pages,styles}/**/*.test.{ts,tsx}'],
};

/** @type {import('jest').Config} */
const integration = {
  displayName: 'integration',
  testEnvironment: 'node',
  moduleNameMapper: { '^@/(.*)$': '<rootDir>/$1' },
  testMatch: ['<rootDir>/{server,functions,test/integration}/**/*.int.test.ts'],
};

async function config() {
  const [u, i] = await Promise.all([createJestConfig(unit)(), createJestConfig(integration)()]);
  // jose (signal tokens in server/api) ships ESM only, which Jest on Node 20 cannot require:
  // let the SWC transform compile it like our own code.
  i.transformIgnorePatterns = (i.transformIgnorePatterns ?? []).map((pattern) =>
    pattern.replace('(?!(geist|', '(?!(jose|geist|'),
  );
  return { projects: [u, i] };
}

export default config;
