import type { CodegenConfig } from '@graphql-codegen/cli';

/**
 * GraphQL Code Generator for the SDK (paths relative to the repository root,
 * where `npm run sdk:generate` runs it): the operations written with
 * `graphql()` in sdk/src, typed against the committed schema.graphql, into
 * sdk/src/generated/graphql with the client preset.
 *
 * - documentMode "string": documents are TypedDocumentString (a String with
 *   the result and variable types attached), so the SDK sends them as text over
 *   fetch and graphql-ws with no graphql-js AST at run time.
 * - enumsAsTypes: enums are string unions (no runtime enum objects).
 * - fragmentMasking off: the SDK hands whole objects to its callers.
 * - scalars: DateTime is an ISO 8601 string, JSON any JSON value.
 */
const config: CodegenConfig = {
  schema: 'schema.graphql',
  documents: ['sdk/src/**/*.ts', '!sdk/src/generated/**'],
  ignoreNoDocuments: false,
  silent: true,
  generates: {
    'sdk/src/generated/graphql/': {
      preset: 'client',
      presetConfig: { fragmentMasking: false },
      config: {
        documentMode: 'string',
        enumsAsTypes: true,
        useTypeImports: true,
        strictScalars: true,
        scalars: { DateTime: 'string', JSON: 'unknown' },
      },
    },
  },
};

export default config;
