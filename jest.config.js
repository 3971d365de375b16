// Nest 12 and several of its dependencies ship as pure ES modules. Jest on Node 20 cannot
// require() them natively, so swc compiles every module (ours and node_modules) to CommonJS.
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2022',
      keepClassNames: true,
    },
    module: { type: 'commonjs' },
  },
];

const shared = {
  testEnvironment: 'node',
  transform: { '^.+\\.(t|j|mj|cj)s$': swc },
  transformIgnorePatterns: ['/node_modules/(?:typeorm|mysql2|better-sqlite3|@swc)/'],
  moduleNameMapper: { '^@/(.*)$': '<rootDir>/src/$1' },
};

module.exports = {
  projects: [
    {
      ...shared,
      displayName: 'unit',
      rootDir: __dirname,
      testMatch: ['<rootDir>/src/**/*.spec.ts'],
    },
    {
      ...shared,
      displayName: 'e2e',
      rootDir: __dirname,
      testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      slowTestThreshold: 20,
    },
    {
      // The dashboard in Debian's Chromium (`npm run test:browser`, which builds it first).
      ...shared,
      displayName: 'browser',
      rootDir: __dirname,
      testMatch: ['<rootDir>/test/browser/**/*.browser-spec.ts'],
      // playwright-core is CommonJS already; compiling its bundle would only cost time.
      transformIgnorePatterns: [
        '/node_modules/(?:typeorm|mysql2|better-sqlite3|@swc|playwright-core)/',
      ],
      slowTestThreshold: 60,
    },
  ],
};
