import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import graphql from '@graphql-eslint/eslint-plugin';
import { layerRules, noHiddenImports } from './eslint.layers.mjs';

/**
 * The printed GraphQL schema (schema.graphql, written by `npm run schema`)
 * under @graphql-eslint's schema-recommended and schema-relay rule sets,
 * with require-description widened to every field, argument and enum value.
 * Three settings differ from the sets, each a deliberate choice:
 */
const graphqlSchemaRules = {
  ...graphql.configs['flat/schema-recommended'].rules,
  ...graphql.configs['flat/schema-relay'].rules,
  // Wider than recommended (types and root fields only): every field, argument, input field and enum value.
  '@graphql-eslint/require-description': [
    'error',
    { types: true, rootField: true, FieldDefinition: true, InputValueDefinition: true, EnumValueDefinition: true, DirectiveDefinition: true },
  ],
  // Entities have an `id: ID!` (Node or not); value objects have no identity of their own and are listed here
  // (by suffix for the Relay plumbing, usage figures and plan steps, by name for the rest). A new type is either an entity
  // with an id, or a value object added here on purpose.
  '@graphql-eslint/strict-id-in-types': [
    'error',
    {
      exceptions: {
        suffixes: ['Connection', 'Edge', 'PageInfo', 'Usage', 'Step', 'Window'],
        types: [
          'AuditActor',
          'AuditSubject',
          'BalanceReport',
          'BestYield',
          'ChainBalances',
          'CreatedApiKey',
          'CreatedWebhookEndpoint',
          'ExecutionPlan',
          'FundingReceipt',
          'IntentError',
          'IntentResults',
          'IntentTransaction',
          'LendingPosition',
          'MinuteCount',
          'PolicyRules',
          'IntentPreview',
          'NetReturnRanking',
          'NetReturnRate',
          'PreviewAlternative',
          'PreviewStepGas',
          'PreviewSpeed',
          'PreviewTotals',
          'PreviewTransaction',
          'StepError',
          'TokenBalance',
          'UsageCredits',
          'UsageWallets',
          'Viewer',
          'YieldHistory',
          'YieldHistoryBucket',
          'YieldHistorySeries',
          'YieldRate',
          'YieldReport',
          'LendingMarket',
          'LendingMarketApy',
          'RebalanceSource',
          'SimulatedApySeries',
          'SimulatedMove',
          'StandingDecisionNumbers',
          'StandingIntentEarnings',
          'StandingMoveCosts',
          'StandingMoveSource',
          'StandingSimulation',
          'StayedEarnings',
          'StrategyEarnings',
        ],
      },
    },
  ],
  // The Relay edge rules, but two of their options off:
  // - listTypeCanWrapOnlyEdgeType: bounded lists that are parts of one object (a plan's steps, a report's chains, a key's
  //   scopes) stay lists, as in GitHub's and Shopify's schemas; every unbounded collection is a connection.
  // - shouldImplementNode: AuditEvent, the node of AuditEventEdge, is not a Node: the audit log is append-only and read as
  //   a list, with no read of one event by id, so node(id:) could not fetch it. The other edges' nodes (Intent, Policy) are
  //   Nodes: test/unit/graphql/schemaStandards.test.ts checks that.
  '@graphql-eslint/relay-edge-types': ['error', { withEdgeSuffix: true, shouldImplementNode: false, listTypeCanWrapOnlyEdgeType: false }],
};

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/', 'contracts/artifacts/', '*.js', 'sdk/dist/', 'sdk/src/generated/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  { files: ['scripts/**', 'bench/**', 'test/**', 'sdk/scripts/**'], rules: { 'no-console': 'off' } },
  // Who may import whom in src/ (docs/architecture.md, Layers).
  ...layerRules(),
  noHiddenImports,
  // Tests read JSON answers freely and assert on them.
  { files: ['test/**'], rules: { '@typescript-eslint/no-explicit-any': 'off' } },
  {
    files: ['schema.graphql'],
    languageOptions: { parser: graphql.parser, parserOptions: { graphQLConfig: { schema: './schema.graphql' } } },
    plugins: { '@graphql-eslint': graphql },
    rules: graphqlSchemaRules,
  },
);
