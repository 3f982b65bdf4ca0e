import { graphql } from './generated/graphql';

/**
 * The GraphQL operations the SDK sends. `npm run sdk:generate` reads this
 * file with @graphql-codegen/client-preset and types each document from
 * schema.graphql (sdk/src/generated/graphql): the result and the variables of
 * every document below are checked at compile time.
 */

/** Everything the SDK reads of an intent: status, plan with its steps, results with every transaction, error. */
export const IntentFieldsFragment = graphql(`
  fragment IntentFields on Intent {
    id
    walletId
    action
    status
    amount
    requestedAmount
    asset
    chain
    fromChain
    toChain
    createdAt
    updatedAt
    completedAt
    executionPlan {
      strategy
      reasoning
      steps {
        __typename
        index
        status
        chain
        amount
        txHash
        gasUsed
        gasCostUsd
        startedAt
        completedAt
        attempts
        nextAttemptAt
        lastError {
          code
          message
        }
        ... on BridgeStep {
          from
          to
          fee
        }
        ... on DepositStep {
          protocol
          asset
        }
        ... on WithdrawStep {
          protocol
          asset
        }
      }
    }
    results {
      completedSteps
      failedStep
      finalAmount
      apy
      totalGasUsed
      totalGasCostUsd
      transactions {
        txHash
        chain
        kind
        type
        status
        gasUsed
        gasCostUsd
        replacedTxHashes
      }
    }
    error {
      code
      message
      details
    }
  }
`);

/** An intent's progress over graphql-ws: the snapshot first, then every change, completing after the final state. */
export const IntentUpdatedDocument = graphql(`
  subscription IntentUpdated($id: ID!) {
    intentUpdated(id: $id) {
      ...IntentFields
    }
  }
`);

/** One intent (same as GET /v1/intents/:intentId). */
export const IntentDocument = graphql(`
  query Intent($id: ID!) {
    intent(id: $id) {
      ...IntentFields
    }
  }
`);

/** A wallet, its balances on every chain and the yields of an asset, in one round trip. */
export const WalletOverviewDocument = graphql(`
  query WalletOverview($walletId: ID!, $asset: TokenAsset) {
    walletById(id: $walletId) {
      id
      userId
      address
      chains
    }
    balances(walletId: $walletId) {
      totalValueUsd
      chains {
        chain
        tokens {
          asset
          balance
          balanceFormatted
          valueUsd
        }
        positions {
          protocol
          asset
          balance
          balanceFormatted
          valueUsd
          principal
          earned
        }
      }
    }
    yields(asset: $asset) {
      rates {
        chain
        protocol
        asset
        apy
      }
      best {
        chain
        protocol
        asset
        apy
        reasoning
      }
    }
  }
`);
