/**
 * @wallet-intent-service/sdk: a typed client of the wallet, yield and
 * lending-intent service. REST types are generated from its OpenAPI document
 * (openapi-typescript, sent with openapi-fetch), GraphQL documents are typed
 * from schema.graphql (@graphql-codegen/client-preset), subscriptions go over
 * graphql-ws, keyless reads are paid over x402.
 */
export { createClient } from './client';
export type {
  BalanceReport,
  CallOptions,
  ClientOptions,
  CreateIntentRequest,
  CreateWalletRequest,
  FundingReceipt,
  IdempotentCallOptions,
  IntentPage,
  ListIntentsQuery,
  ServiceClient,
  Usage,
  StandingIntent,
  CreateStandingIntentRequest,
  StandingIntentPage,
  StandingDecision,
  StandingDecisionPage,
  SimulateStandingIntentRequest,
  SimulateStandingIntentResult,
  ListStandingIntentsQuery,
  ListStandingDecisionsQuery,
  Wallet,
  YieldReport,
  YieldsQuery,
} from './client';
export { createRestClient, unwrap, unwrapEmpty, idempotencyKeyOf, IDEMPOTENT_POSTS, type RestClient, type RestClientOptions } from './rest';
export {
  createGraphQLClient,
  type GraphQLAnswer,
  type GraphQLClient,
  type GraphQLClientOptions,
  type ResultOf,
  type TypedDocument,
  type VariablesOf,
} from './graphql';
export {
  waitForIntent,
  watchIntent,
  isFinalStatus,
  IntentWaitTimeoutError,
  type Intent,
  type WaitForIntentOptions,
  type WatchIntentOptions,
  type WatchedIntent,
} from './intents';
export { ServiceApiError, isServiceApiError, type ErrorCode, type GraphQLErrorEntry } from './errors';
export { responseOf, wasReplayed } from './responses';
export { createX402Fetch, settlementOf, DEFAULT_PAYMENT_NETWORKS, type X402FetchOptions, type X402Signer } from './x402';
export { IntentDocument, IntentFieldsFragment, IntentUpdatedDocument, WalletOverviewDocument } from './operations';
export type * as GraphQLTypes from './generated/graphql/graphql';
export type { components, operations, paths } from './generated/openapi';
