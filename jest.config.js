/**
 * Jest: ts-jest transpiling only (type checking is `npm run typecheck`).
 * The global setup starts the sandbox devnets once per run and shares them
 * with every test file through SANDBOX_MANIFEST.
 */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { transpilation: true, diagnostics: false }],
    // The sign-in packages are ES modules only: jest's CommonJS runtime gets them transpiled (Node itself loads them natively).
    '^.+\\.js$': ['ts-jest', { transpilation: true, diagnostics: false, tsconfig: { allowJs: true, module: 'commonjs', target: 'ES2022', esModuleInterop: true } }],
  },
  transformIgnorePatterns: ['/node_modules/(?!(oidc-provider|openid-client|oauth4webapi|jose)/)'],
  globalSetup: '<rootDir>/test/setup/globalSetup.ts',
  globalTeardown: '<rootDir>/test/setup/globalTeardown.ts',
  testTimeout: 60000,
  maxWorkers: 2,
};
