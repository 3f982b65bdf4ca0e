/**
 * Jest: ts-jest transpiling file by file (type checking is `npm run typecheck`).
 * Two projects: `unit` (pure logic, no chain or database; `npm run test:unit`)
 * and `system` (store contracts, devnets, HTTP servers), whose global setup
 * starts the sandbox devnets and a MongoDB-compatible test server once per
 * run and shares them with every test file through SANDBOX_MANIFEST and
 * MONGODB_URI. `npm test` runs both.
 */
const shared = {
  testEnvironment: 'node',
  testMatch: ['**/*.test.ts'],
  transform: {
    // `isolatedModules` puts ts-jest on ts.transpileModule, one file at a time. Without it ts-jest builds a
    // TypeScript language service (the whole program) in every worker and keys each file's cache on the
    // files it imports, however `diagnostics` is set; `tsc --isolatedModules` passes on this code, so the
    // output is the same. (ts-jest 29.4.3's `transpilation` option was withdrawn in 29.4.4: it is ignored.)
    '^.+\\.ts$': ['ts-jest', { diagnostics: false, tsconfig: { isolatedModules: true } }],
    // The sign-in packages are ES modules only: jest's CommonJS runtime gets them transpiled (Node itself loads them natively).
    '^.+\\.js$': [
      'ts-jest',
      { diagnostics: false, tsconfig: { allowJs: true, module: 'commonjs', target: 'ES2022', esModuleInterop: true, isolatedModules: true } },
    ],
  },
  transformIgnorePatterns: ['/node_modules/(?!(oidc-provider|openid-client|oauth4webapi|jose)/)'],
  // a failing file's error reaches the report whole (see the file)
  setupFiles: ['<rootDir>/test/setup/bigintJson.ts'],
};

module.exports = {
  maxWorkers: 2,
  // slowest files first, also in a fresh clone (see the file)
  testSequencer: '<rootDir>/test/setup/slowestFirst.mjs',
  testTimeout: 60000,
  projects: [
    { ...shared, displayName: 'unit', roots: ['<rootDir>/test/unit'] },
    {
      ...shared,
      displayName: 'system',
      roots: ['<rootDir>/test'],
      testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/unit/'],
      globalSetup: '<rootDir>/test/setup/globalSetup.ts',
      globalTeardown: '<rootDir>/test/setup/globalTeardown.ts',
    },
  ],
};
