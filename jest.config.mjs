import nextJest from 'next/jest.js';

/**
 * Three Jest projects:
 * - unit: components, slices, the guard, storage, the head, the benches' pure helpers (jsdom,
 *   next/jest transforms);
 * - integration: servers against the real PostgreSQL and Firebase emulators, which
 *   scripts/test.ts starts first and passes in through the environment;
 * - cluster: the multi-node stack under failure (test/cluster/, docs/cluster.md), against the
 *   cluster scripts/test.ts starts after the main suites (its addresses in the environment).
 */
const createJestConfig = nextJest({ dir: './' });

/** @type {import('jest').Config} */
const unit = {
  displayName: 'unit',
  testEnvironment: 'jsdom',
  setupFilesAfterEnv: ['<rootDir>/test/setup-unit.ts'],
  moduleNameMapper: { '^@/(.*)$': '<rootDir>/$1' },
  testMatch: ['<rootDir>/{components,store,lib,pages,styles,scripts,bench}/**/*.test.{ts,tsx}', '<rootDir>/server/**/!(*.int).test.ts'],
};

/** @type {import('jest').Config} */
const integration = {
  displayName: 'integration',
  testEnvironment: 'node',
  // Jest 30's "soft" cleanup of globals between files wraps each global in a setter that calls
  // itself (jest-util deleteProperty): a library that writes its global again after the file
  // ended (Sentry's carrier, pg, undici timers of a closing server) then overflows the stack in
  // the NEXT file of the same worker. Our servers' globals are not per file: leave them alone.
  testEnvironmentOptions: { globalsCleanup: 'off' },
  moduleNameMapper: { '^@/(.*)$': '<rootDir>/$1' },
  testMatch: ['<rootDir>/{server,functions,test/integration}/**/*.int.test.ts'],
};

/** @type {import('jest').Config} */
const cluster = {
  displayName: 'cluster',
  testEnvironment: 'node',
  testEnvironmentOptions: { globalsCleanup: 'off' },
  moduleNameMapper: { '^@/(.*)$': '<rootDir>/$1' },
  testMatch: ['<rootDir>/test/cluster/**/*.cluster.test.ts'],
};

async function config() {
  const [u, i, c] = await Promise.all([createJestConfig(unit)(), createJestConfig(integration)(), createJestConfig(cluster)()]);
  // jose (signal tokens in server/api) ships ESM only, which Jest on Node 20 cannot require:
  // let the SWC transform compile it like our own code.
  i.transformIgnorePatterns = (i.transformIgnorePatterns ?? []).map((pattern) =>
    pattern.replace('(?!(geist|', '(?!(jose|geist|'),
  );
  return { projects: [u, i, c] };
}

export default config;
