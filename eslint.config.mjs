import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/', 'contracts/artifacts/', '*.js'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  { files: ['scripts/**', 'bench/**', 'test/**'], rules: { 'no-console': 'off' } },
  // Tests read JSON answers freely and assert on them.
  { files: ['test/**'], rules: { '@typescript-eslint/no-explicit-any': 'off' } },
);
