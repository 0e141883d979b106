/**
 * Lint for the whole tree: Next.js's and typescript-eslint's recommended rules, plus the import
 * direction of docs/architecture.md, enforced with `@typescript-eslint/no-restricted-imports`:
 *
 *   pages → components → lib → store            (store may import only lib/types)
 *   server, runtime → only lib's shared wire modules (lib/api-types, lib/streaming/{messages,textMessages,rateLimiter,types,signal},
 *                     lib/search/normalize); server never imports pages, components or store
 *   browser code (pages, components, lib, store) → lib/api-types/schemas and @sinclair/typebox
 *                     only with `import type` (TypeBox would cost a page bundle 12 kB gz)
 *   production code → never a `testing/` folder (test files, e2e/, bench/, test/ and testing/ may)
 *   pages, components → links only through components/ui/Link (no in-view prefetching, issue 12)
 *
 * Every pattern is a regex over the import specifier, so `@/…` aliases and relative paths are
 * both caught. Flat config does not merge a rule's options across blocks, so each folder gets one
 * block with every pattern that applies to it (built by `layer` below); test files get a second
 * block without the `testing/` pattern (and, since pages/ can hold no test, without the → pages
 * one: a page's test lives beside its components and imports the page).
 */
import next from 'eslint-config-next';
import nextTs from 'eslint-config-next/typescript';

/** Start of a path into the repository's top folder: the `@/` alias or any run of `../`. */
const ROOT = String.raw`^(?:@/|(?:\.\./)+)`;
/**
 * The same for server/ and runtime/, whose files sit at least two folders below the top
 * (server/api/app.ts, runtime/src/main.ts): a single `../` stays inside their own tree, so a
 * sibling module that happens to be called store.ts or pages.ts is not taken for the web app's.
 */
const ROOT_DEEP = String.raw`^(?:@/|(?:\.\./){2,})`;
/** End of a module path: the end, a sub-path, or a source extension. */
const END = String.raw`(?:/|\.[cm]?[jt]sx?$|$)`;

const TEST_FILES = ['**/*.test.ts', '**/*.test.tsx', '**/*.int.test.ts', '**/testing/**', 'e2e/**', 'bench/**', 'test/**'];

const noPages = {
  regex: `${ROOT}pages${END}`,
  message: 'Imports point one way (pages → components → lib → store): only pages import pages.',
};
const noComponents = {
  regex: `${ROOT}components${END}`,
  message: 'Imports point one way (pages → components → lib → store): lib/ and store/ never import components/.',
};
const storeOnlyLibTypes = {
  regex: `${ROOT}(?:pages|components|server|runtime|scripts|e2e|bench|test|games|content|styles|lib/(?!types${END}))`,
  message: 'store/ is the bottom layer: it imports only lib/types (and itself).',
};
const schemasValue = {
  regex: String.raw`(?:^|/)api-types/schemas${END}|^\./schemas${END}`,
  allowTypeImports: true,
  message: 'Browser code takes only types from lib/api-types/schemas: write `import type` (TypeBox stays out of page bundles).',
};
const typeboxValue = {
  regex: String.raw`^@sinclair/typebox(?:/|$)`,
  allowTypeImports: true,
  message: 'Browser code does not load TypeBox: write `import type`, or put the schema in lib/api-types/schemas.',
};
/** One link for the web (components/ui/Link.tsx): next/link without prefetching what is in view. */
const noNextLink = {
  regex: String.raw`^next/link$`,
  message: 'Use Link from components/ui/Link (next/link without in-view prefetching, issue 12).',
};
const noTesting = {
  regex: String.raw`(?:^|/)testing(?:/|$)`,
  message: 'Production code never imports test doubles: testing/ folders are for tests only.',
};
/** lib/ modules the api, the host and the runtime share with the browser (the wire contracts). */
const SHARED_LIB = String.raw`lib/(?!api-types/|streaming/(?:messages|textMessages|rateLimiter|types|signal)(?:\.[jt]s)?$|search/normalize(?:\.[jt]s)?$)`;
const serverLib = {
  regex: `${ROOT_DEEP}${SHARED_LIB}`,
  message: 'server/ and runtime/ import from lib/ only the shared wire modules: lib/api-types/**, lib/streaming/{messages,textMessages,rateLimiter,types,signal}, lib/search/normalize.',
};
/**
 * The host's runtime page (server/host/page, a browser page on the host), the light runtime's
 * worker (server/host/light: its signalling is the page's SignalClient) and the test player are
 * the publishing and subscribing ends of lib/streaming: they may also use its webrtc adapters.
 */
const hostPageLib = {
  regex: `${ROOT_DEEP}${SHARED_LIB.replace('(?!', '(?!streaming/webrtc/|')}`,
  message: serverLib.message + ' The host runtime page and the light worker may also use lib/streaming/webrtc.',
};
const serverNoWeb = {
  regex: `${ROOT_DEEP}(?:pages|components|store)${END}`,
  message: 'server/ never imports the web app (pages, components, store).',
};

/**
 * One block per folder: `patterns` for its production files; the same minus `noTesting` (and
 * `noPages`) for its test files. `files`/`ignores` of later layers win over earlier ones.
 */
function layer(files, patterns, ignores = []) {
  const rule = (list) => ({
    'no-restricted-imports': 'off',
    '@typescript-eslint/no-restricted-imports': ['error', { patterns: list }],
  });
  const testPatterns = patterns.filter((p) => p !== noTesting && p !== noPages);
  return [
    { files, ignores: [...ignores, ...TEST_FILES], rules: rule(patterns) },
    // A nested array in `files` means "matches all of these": the layer's files that are tests.
    { files: files.flatMap((f) => TEST_FILES.map((t) => [f, t])), ignores, rules: rule(testPatterns) },
  ];
}

const importDirection = [
  // Anything not in a layer below (scripts, root config files) only keeps test doubles out.
  ...layer(['**/*.ts', '**/*.tsx', '**/*.mjs', '**/*.js'], [noTesting]),
  ...layer(['pages/**'], [noNextLink, schemasValue, typeboxValue, noTesting]),
  ...layer(['components/**'], [noNextLink, noPages, schemasValue, typeboxValue, noTesting], ['components/ui/Link.tsx']),
  ...layer(['components/ui/Link.tsx'], [noPages, schemasValue, typeboxValue, noTesting]),
  ...layer(['lib/**'], [noPages, noComponents, schemasValue, typeboxValue, noTesting], ['lib/api-types/schemas/**']),
  // The schemas themselves are TypeBox at run time (the api and the host load them).
  ...layer(['lib/api-types/schemas/**'], [noPages, noComponents, noTesting]),
  ...layer(['store/**'], [storeOnlyLibTypes, typeboxValue, noTesting]),
  ...layer(['server/**'], [serverLib, serverNoWeb, noTesting], ['server/host/page/**', 'server/host/light/**', 'server/host/testing/**']),
  ...layer(['server/host/page/**', 'server/host/light/**', 'server/host/testing/**'], [hostPageLib, serverNoWeb, noTesting]),
  ...layer(['runtime/**'], [serverLib, noTesting]),
];

const config = [
  ...next,
  ...nextTs,
  {
    ignores: ['node_modules/**', '.next/**', '.data/**', '.run/**', 'test-results/**', 'playwright-report/**', 'next-env.d.ts', 'functions/lib/**', 'runtime/dist/**', '.next-test*/**', '.next-*/**'],
  },
  ...importDirection,
];

export default config;
