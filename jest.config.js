// Two projects: `unit` (pure domain and in-process tests beside the code) and `e2e` (a booted app
// against PostgreSQL/Redis or the embedded defaults). NestJS 12 and a few of its dependencies are
// ESM-only, and Jest 30 on Node 20 cannot load ESM from node_modules, so they are transpiled by swc.
const esmPackages = [
  '@nestjs',
  '@as-integrations',
  '@graphql-tools',
  '@whatwg-node',
  'graphql-ws',
  '@electric-sql',
  'file-type',
  'strtok3',
  'token-types',
  '@tokenizer',
  'uint8array-extras',
  '@borewit',
  'load-esm',
  'lru-cache',
  '@standard-schema',
  'uid',
  'es-toolkit',
  'chokidar',
  'readdirp',
  'tinyglobby',
  'fdir',
  'pglite-prisma-adapter',
  'ruru',
  'graphile-config',
  'ruru-types',
  'cookie',
  'fast-check',
  'pure-rand',
  'content-disposition',
  // @kubernetes/client-node 1.x and its ESM-only dependencies (the informer tests, the cluster mirror)
  '@kubernetes/client-node',
  'openid-client',
  'oauth4webapi',
  'jose',
  'rfc4648',
  'jsonpath-plus',
  '@jsep-plugin',
  'jsep',
];
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true, dynamicImport: true },
      transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
      target: 'es2022',
      keepClassNames: true,
    },
    module: { type: 'commonjs', ignoreDynamic: false },
  },
];
const common = {
  testEnvironment: 'node',
  transform: { '^.+\\.(t|j|mj|cj)sx?$': swc },
  transformIgnorePatterns: [`node_modules/(?!(${esmPackages.join('|')}))`],
  moduleFileExtensions: ['ts', 'js', 'mjs', 'cjs', 'json'],
};
const servers = {
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
};
module.exports = {
  // End-to-end suites boot real apps (PGlite's first start takes seconds on a loaded 2-core machine).
  testTimeout: 120_000,
  // Tiers: `unit` needs nothing but Node (pure code, PGlite, in-process timers); `integration` needs
  // PostgreSQL and Redis (DATABASE_URL, REDIS_URL); `e2e` boots apps in every mode testModes() offers;
  // `kubectl` drives the Kubernetes API with the real client; `browser` drives pages in Chromium. scripts/test.mjs
  // (npm test) leaves out `integration` without the servers, `kubectl` without kubectl and openssl, `browser`
  // without Chromium, and says so.
  projects: [
    {
      ...common,
      displayName: 'unit',
      roots: ['<rootDir>/src', '<rootDir>/test/architecture', '<rootDir>/bench'],
      testMatch: ['**/*.spec.ts'],
    },
    {
      ...common,
      displayName: 'integration',
      roots: ['<rootDir>/src', '<rootDir>/test'],
      testMatch: ['**/*.int-spec.ts'],
      ...servers,
    },
    { ...common, displayName: 'e2e', roots: ['<rootDir>/test'], testMatch: ['**/*.e2e-spec.ts'], ...servers },
    // the Kubernetes API driven by the machine's own kubectl (through a TLS front made with openssl)
    { ...common, displayName: 'kubectl', roots: ['<rootDir>/test'], testMatch: ['**/*.kubectl-spec.ts'], ...servers },
    // pages tested the way people see them, in Debian's Chromium (`apt-get install chromium`)
    { ...common, displayName: 'browser', roots: ['<rootDir>/test'], testMatch: ['**/*.browser-spec.ts'], ...servers },
  ],

  collectCoverageFrom: ['src/domain/**/*.ts', '!src/domain/**/*.spec.ts', '!src/domain/**/testing/**'],
  coverageReporters: ['text-summary', 'text', 'json-summary'],
};
