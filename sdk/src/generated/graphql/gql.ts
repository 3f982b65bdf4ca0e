/* eslint-disable */
import * as types from './graphql';



/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "\n  fragment IntentFields on Intent {\n    id\n    walletId\n    action\n    status\n    amount\n    requestedAmount\n    asset\n    chain\n    fromChain\n    toChain\n    createdAt\n    updatedAt\n    completedAt\n    executionPlan {\n      strategy\n      reasoning\n      steps {\n        __typename\n        index\n        status\n        chain\n        amount\n        txHash\n        gasUsed\n        gasCostUsd\n        startedAt\n        completedAt\n        attempts\n        nextAttemptAt\n        lastError {\n          code\n          message\n        }\n        ... on BridgeStep {\n          from\n          to\n          fee\n        }\n        ... on DepositStep {\n          protocol\n          asset\n        }\n        ... on WithdrawStep {\n          protocol\n          asset\n        }\n      }\n    }\n    results {\n      completedSteps\n      failedStep\n      finalAmount\n      apy\n      totalGasUsed\n      totalGasCostUsd\n      transactions {\n        txHash\n        chain\n        kind\n        type\n        status\n        gasUsed\n        gasCostUsd\n        replacedTxHashes\n      }\n    }\n    error {\n      code\n      message\n      details\n    }\n  }\n": typeof types.IntentFieldsFragmentDoc,
    "\n  subscription IntentUpdated($id: ID!) {\n    intentUpdated(id: $id) {\n      ...IntentFields\n    }\n  }\n": typeof types.IntentUpdatedDocument,
    "\n  query Intent($id: ID!) {\n    intent(id: $id) {\n      ...IntentFields\n    }\n  }\n": typeof types.IntentDocument,
    "\n  query WalletOverview($walletId: ID!, $asset: TokenAsset) {\n    walletById(id: $walletId) {\n      id\n      userId\n      address\n      chains\n    }\n    balances(walletId: $walletId) {\n      totalValueUsd\n      chains {\n        chain\n        tokens {\n          asset\n          balance\n          balanceFormatted\n          valueUsd\n        }\n        positions {\n          protocol\n          asset\n          balance\n          balanceFormatted\n          valueUsd\n          principal\n          earned\n        }\n      }\n    }\n    yields(asset: $asset) {\n      rates {\n        chain\n        protocol\n        asset\n        apy\n      }\n      best {\n        chain\n        protocol\n        asset\n        apy\n        reasoning\n      }\n    }\n  }\n": typeof types.WalletOverviewDocument,
};
const documents: Documents = {
    "\n  fragment IntentFields on Intent {\n    id\n    walletId\n    action\n    status\n    amount\n    requestedAmount\n    asset\n    chain\n    fromChain\n    toChain\n    createdAt\n    updatedAt\n    completedAt\n    executionPlan {\n      strategy\n      reasoning\n      steps {\n        __typename\n        index\n        status\n        chain\n        amount\n        txHash\n        gasUsed\n        gasCostUsd\n        startedAt\n        completedAt\n        attempts\n        nextAttemptAt\n        lastError {\n          code\n          message\n        }\n        ... on BridgeStep {\n          from\n          to\n          fee\n        }\n        ... on DepositStep {\n          protocol\n          asset\n        }\n        ... on WithdrawStep {\n          protocol\n          asset\n        }\n      }\n    }\n    results {\n      completedSteps\n      failedStep\n      finalAmount\n      apy\n      totalGasUsed\n      totalGasCostUsd\n      transactions {\n        txHash\n        chain\n        kind\n        type\n        status\n        gasUsed\n        gasCostUsd\n        replacedTxHashes\n      }\n    }\n    error {\n      code\n      message\n      details\n    }\n  }\n": types.IntentFieldsFragmentDoc,
    "\n  subscription IntentUpdated($id: ID!) {\n    intentUpdated(id: $id) {\n      ...IntentFields\n    }\n  }\n": types.IntentUpdatedDocument,
    "\n  query Intent($id: ID!) {\n    intent(id: $id) {\n      ...IntentFields\n    }\n  }\n": types.IntentDocument,
    "\n  query WalletOverview($walletId: ID!, $asset: TokenAsset) {\n    walletById(id: $walletId) {\n      id\n      userId\n      address\n      chains\n    }\n    balances(walletId: $walletId) {\n      totalValueUsd\n      chains {\n        chain\n        tokens {\n          asset\n          balance\n          balanceFormatted\n          valueUsd\n        }\n        positions {\n          protocol\n          asset\n          balance\n          balanceFormatted\n          valueUsd\n          principal\n          earned\n        }\n      }\n    }\n    yields(asset: $asset) {\n      rates {\n        chain\n        protocol\n        asset\n        apy\n      }\n      best {\n        chain\n        protocol\n        asset\n        apy\n        reasoning\n      }\n    }\n  }\n": types.WalletOverviewDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment IntentFields on Intent {\n    id\n    walletId\n    action\n    status\n    amount\n    requestedAmount\n    asset\n    chain\n    fromChain\n    toChain\n    createdAt\n    updatedAt\n    completedAt\n    executionPlan {\n      strategy\n      reasoning\n      steps {\n        __typename\n        index\n        status\n        chain\n        amount\n        txHash\n        gasUsed\n        gasCostUsd\n        startedAt\n        completedAt\n        attempts\n        nextAttemptAt\n        lastError {\n          code\n          message\n        }\n        ... on BridgeStep {\n          from\n          to\n          fee\n        }\n        ... on DepositStep {\n          protocol\n          asset\n        }\n        ... on WithdrawStep {\n          protocol\n          asset\n        }\n      }\n    }\n    results {\n      completedSteps\n      failedStep\n      finalAmount\n      apy\n      totalGasUsed\n      totalGasCostUsd\n      transactions {\n        txHash\n        chain\n        kind\n        type\n        status\n        gasUsed\n        gasCostUsd\n        replacedTxHashes\n      }\n    }\n    error {\n      code\n      message\n      details\n    }\n  }\n"): typeof import('./graphql').IntentFieldsFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription IntentUpdated($id: ID!) {\n    intentUpdated(id: $id) {\n      ...IntentFields\n    }\n  }\n"): typeof import('./graphql').IntentUpdatedDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Intent($id: ID!) {\n    intent(id: $id) {\n      ...IntentFields\n    }\n  }\n"): typeof import('./graphql').IntentDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query WalletOverview($walletId: ID!, $asset: TokenAsset) {\n    walletById(id: $walletId) {\n      id\n      userId\n      address\n      chains\n    }\n    balances(walletId: $walletId) {\n      totalValueUsd\n      chains {\n        chain\n        tokens {\n          asset\n          balance\n          balanceFormatted\n          valueUsd\n        }\n        positions {\n          protocol\n          asset\n          balance\n          balanceFormatted\n          valueUsd\n          principal\n          earned\n        }\n      }\n    }\n    yields(asset: $asset) {\n      rates {\n        chain\n        protocol\n        asset\n        apy\n      }\n      best {\n        chain\n        protocol\n        asset\n        apy\n        reasoning\n      }\n    }\n  }\n"): typeof import('./graphql').WalletOverviewDocument;


export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}
