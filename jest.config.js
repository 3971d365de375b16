// Nest 12 and several of its dependencies ship as pure ES modules. Jest cannot
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
  moduleNameMapper: { '^@/(.*)$': '<rootDir>/src/$1', '^@test/(.*)$': '<rootDir>/test/$1' },
};

module.exports = {
  // A test on a slow, busy laptop may take longer than Jest's default 5 s. Jest reads this
  // option only here, at the top: inside a project it is silently ignored. Hooks that boot an
  // app get longer (test/support/hook-time-limit.setup.ts).
  testTimeout: 15_000,
  projects: [
    {
      ...shared,
      displayName: 'unit',
      rootDir: __dirname,
      // The TypeScript client's own tests (clients/typescript) and the scripts' run here too.
      testMatch: [
        '<rootDir>/src/**/*.spec.ts',
        '<rootDir>/scripts/**/*.spec.ts',
        '<rootDir>/clients/typescript/**/*.spec.ts',
      ],
    },
    {
      // Real HTTP through the real AppModule on SQLite (or the MySQL that DATABASE_URL names);
      // needs no server: `npm test` runs on a fresh machine with only Node.js and npm.
      ...shared,
      displayName: 'e2e',
      rootDir: __dirname,
      testMatch: ['<rootDir>/test/e2e/**/*.e2e-spec.ts'],
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      // Every answer the suites receive must match openapi.json (OPENAPI_RESPONSES=report prints instead).
      setupFilesAfterEnv: [
        '<rootDir>/test/support/hook-time-limit.setup.ts',
        '<rootDir>/test/support/openapi-recorder.setup.ts',
      ],
      slowTestThreshold: 20,
    },
    {
      // Several instances sharing a Redis (`npm run test:services`); `.ci/run` starts Redis,
      // and global-setup fails the run when it does not answer, so these never skip there.
      ...shared,
      displayName: 'services',
      rootDir: __dirname,
      testMatch: ['<rootDir>/test/services/**/*.services-spec.ts'],
      globalSetup: '<rootDir>/test/support/services-global-setup.ts',
      setupFilesAfterEnv: ['<rootDir>/test/support/hook-time-limit.setup.ts'],
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
