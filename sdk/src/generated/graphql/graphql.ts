/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { DocumentTypeDecoration } from '@graphql-typed-document-node/core';
/** Anything a wallet can hold: the ERC-20 tokens and native ETH (the same set as `asset` in REST balance reports). */
export type Asset =
  /** Dai (ERC-20, 18 decimals). */
  | 'DAI'
  /** Native ether, the gas token (18 decimals): held, never lent or bridged. */
  | 'ETH'
  /** USD Coin (ERC-20, 6 decimals). */
  | 'USDC'
  /** Tether USD (ERC-20, 6 decimals). */
  | 'USDT'
  /** Wrapped ether (ERC-20, 18 decimals). */
  | 'WETH';

/** An EVM chain the service acts on (REST spells it in lower case with dashes: ETHEREUM_SEPOLIA is "ethereum-sepolia"). */
export type Chain =
  /** arbitrum: EVM main network, chain id 42161. Not served yet (upcoming). */
  | 'ARBITRUM'
  /** arbitrum-sepolia: EVM test network, chain id 421614. */
  | 'ARBITRUM_SEPOLIA'
  /** base: EVM main network, chain id 8453. Not served yet (upcoming). */
  | 'BASE'
  /** base-sepolia: EVM test network, chain id 84532. */
  | 'BASE_SEPOLIA'
  /** ethereum: EVM main network, chain id 1. Not served yet (upcoming). */
  | 'ETHEREUM'
  /** ethereum-sepolia: EVM test network, chain id 11155111. */
  | 'ETHEREUM_SEPOLIA';

/** What an intent asks for. */
export type IntentAction =
  /** Move USDC from `fromChain` to `toChain`. */
  | 'BRIDGE'
  /** Supply tokens to the best lending market of the wallet (or on `chain`), bridging USDC there first when needed. */
  | 'LEND'
  /** Move funds from `sources` (positions withdrawn, idle balances) into the `toProtocol` market on `toChain`, bridging USDC there first when needed. */
  | 'REBALANCE'
  /** Withdraw tokens from the lending position on `chain`. */
  | 'WITHDRAW';

/** Where an intent stands: PENDING → PLANNING → EXECUTING → COMPLETED or FAILED, or CANCELLED when a cancel stopped it. */
export type IntentStatus =
  /** Stopped by a cancel before a step that had nothing signed: `results` say which steps completed; funds stay where the last of them left them (final). */
  | 'CANCELLED'
  /** Every step completed (final). */
  | 'COMPLETED'
  /** The plan is being carried out, step by step. */
  | 'EXECUTING'
  /** Stopped: see `error` (final). */
  | 'FAILED'
  /** Accepted, waiting for the engine. */
  | 'PENDING'
  /** The engine is reading balances and rates and choosing a plan. */
  | 'PLANNING';

/** A lending protocol the service supplies to (REST spells it "aave-v3", "compound-v3"). */
export type LendingProtocol =
  /** Aave V3 pools. */
  | 'AAVE_V3'
  /** Compound V3 (Comet) markets. */
  | 'COMPOUND_V3';

/** Where a step of an execution plan stands. */
export type StepStatus =
  /** Done. */
  | 'COMPLETED'
  /** Its transactions are being sent or awaited. */
  | 'EXECUTING'
  /** Failed: the intent failed with it. */
  | 'FAILED'
  /** Not started. */
  | 'PENDING';

/** The kind of an execution plan step. */
export type StepType =
  /** Move USDC to another chain (CCTP burn, then mint). */
  | 'BRIDGE'
  /** Supply tokens to a lending protocol. */
  | 'DEPOSIT'
  /** Withdraw tokens from a lending protocol. */
  | 'WITHDRAW';

/** How a plan reaches the goal. */
export type Strategy =
  /** Lend on the chain asked for, with funds already there: no bridge. */
  | 'DIRECT_DEPOSIT'
  /** Withdraw from the position on the chain asked for. */
  | 'DIRECT_WITHDRAW'
  /** Several bridges from several chains, then the deposit. */
  | 'MULTI_BRIDGE'
  /** Lend where the best rate is, with funds already there: no bridge. */
  | 'NO_BRIDGE'
  /** Withdraw the sources' positions, bridge what is not on the target chain, deposit what arrives into the target market. */
  | 'REBALANCE'
  /** One bridge, then the deposit (or the bridge alone for a bridge intent). */
  | 'SINGLE_BRIDGE';

/** An ERC-20 token the service lends, withdraws, bridges and quotes (the same set as `asset` in REST intents, yields and steps): every Asset except native ETH. */
export type TokenAsset =
  /** Dai (ERC-20, 18 decimals). */
  | 'DAI'
  /** USD Coin (ERC-20, 6 decimals). */
  | 'USDC'
  /** Tether USD (ERC-20, 6 decimals). */
  | 'USDT'
  /** Wrapped ether (ERC-20, 18 decimals). */
  | 'WETH';

/** What a transaction sent on chain does. */
export type TransactionKind =
  /** Allows a protocol or the bridge to move the wallet's tokens (ERC-20 approve). */
  | 'APPROVE'
  /** Burns USDC on the source chain of a bridge (CCTP depositForBurn). */
  | 'BURN'
  /** Mints the bridged USDC on the destination chain (CCTP receiveMessage, sent by the service's relayer). */
  | 'MINT'
  /** Takes back an allowance a failed step left standing (approve to 0). */
  | 'REVOKE'
  /** Supplies tokens to a lending protocol. */
  | 'SUPPLY'
  /** A plain token transfer (demo funding). */
  | 'TRANSFER'
  /** Withdraws tokens from a lending protocol. */
  | 'WITHDRAW';

/** Where a sent transaction stands. */
export type TransactionStatus =
  /** Mined and successful. */
  | 'CONFIRMED'
  /** Mined and reverted. */
  | 'REVERTED'
  /** Signed and sent; no receipt yet. */
  | 'SIGNED';

export type IntentFieldsFragment = { id: string, walletId: string, action: IntentAction, status: IntentStatus, amount: string, requestedAmount: string, asset: TokenAsset, chain: Chain | null, fromChain: Chain | null, toChain: Chain | null, createdAt: string, updatedAt: string, completedAt: string | null, executionPlan: { strategy: Strategy, reasoning: string, steps: Array<
      | { __typename: 'BridgeStep', from: Chain, to: Chain, fee: string | null, index: number, status: StepStatus, chain: Chain, amount: string, txHash: string | null, gasUsed: string | null, gasCostUsd: number | null, startedAt: string | null, completedAt: string | null, attempts: number | null, nextAttemptAt: string | null, lastError: { code: string, message: string } | null }
      | { __typename: 'DepositStep', protocol: LendingProtocol, asset: TokenAsset, index: number, status: StepStatus, chain: Chain, amount: string, txHash: string | null, gasUsed: string | null, gasCostUsd: number | null, startedAt: string | null, completedAt: string | null, attempts: number | null, nextAttemptAt: string | null, lastError: { code: string, message: string } | null }
      | { __typename: 'WithdrawStep', protocol: LendingProtocol, asset: TokenAsset, index: number, status: StepStatus, chain: Chain, amount: string, txHash: string | null, gasUsed: string | null, gasCostUsd: number | null, startedAt: string | null, completedAt: string | null, attempts: number | null, nextAttemptAt: string | null, lastError: { code: string, message: string } | null }
    > } | null, results: { completedSteps: number, failedStep: number | null, finalAmount: string, apy: number, totalGasUsed: string, totalGasCostUsd: number, transactions: Array<{ txHash: string, chain: Chain | null, kind: TransactionKind | null, type: StepType, status: TransactionStatus | null, gasUsed: string | null, gasCostUsd: number | null, replacedTxHashes: Array<string> }> } | null, error: { code: string, message: string, details: unknown } | null };

export type IntentUpdatedSubscriptionVariables = Exact<{
  id: string | number;
}>;


export type IntentUpdatedSubscription = { intentUpdated: { id: string, walletId: string, action: IntentAction, status: IntentStatus, amount: string, requestedAmount: string, asset: TokenAsset, chain: Chain | null, fromChain: Chain | null, toChain: Chain | null, createdAt: string, updatedAt: string, completedAt: string | null, executionPlan: { strategy: Strategy, reasoning: string, steps: Array<
        | { __typename: 'BridgeStep', from: Chain, to: Chain, fee: string | null, index: number, status: StepStatus, chain: Chain, amount: string, txHash: string | null, gasUsed: string | null, gasCostUsd: number | null, startedAt: string | null, completedAt: string | null, attempts: number | null, nextAttemptAt: string | null, lastError: { code: string, message: string } | null }
        | { __typename: 'DepositStep', protocol: LendingProtocol, asset: TokenAsset, index: number, status: StepStatus, chain: Chain, amount: string, txHash: string | null, gasUsed: string | null, gasCostUsd: number | null, startedAt: string | null, completedAt: string | null, attempts: number | null, nextAttemptAt: string | null, lastError: { code: string, message: string } | null }
        | { __typename: 'WithdrawStep', protocol: LendingProtocol, asset: TokenAsset, index: number, status: StepStatus, chain: Chain, amount: string, txHash: string | null, gasUsed: string | null, gasCostUsd: number | null, startedAt: string | null, completedAt: string | null, attempts: number | null, nextAttemptAt: string | null, lastError: { code: string, message: string } | null }
      > } | null, results: { completedSteps: number, failedStep: number | null, finalAmount: string, apy: number, totalGasUsed: string, totalGasCostUsd: number, transactions: Array<{ txHash: string, chain: Chain | null, kind: TransactionKind | null, type: StepType, status: TransactionStatus | null, gasUsed: string | null, gasCostUsd: number | null, replacedTxHashes: Array<string> }> } | null, error: { code: string, message: string, details: unknown } | null } };

export type IntentQueryVariables = Exact<{
  id: string | number;
}>;


export type IntentQuery = { intent: { id: string, walletId: string, action: IntentAction, status: IntentStatus, amount: string, requestedAmount: string, asset: TokenAsset, chain: Chain | null, fromChain: Chain | null, toChain: Chain | null, createdAt: string, updatedAt: string, completedAt: string | null, executionPlan: { strategy: Strategy, reasoning: string, steps: Array<
        | { __typename: 'BridgeStep', from: Chain, to: Chain, fee: string | null, index: number, status: StepStatus, chain: Chain, amount: string, txHash: string | null, gasUsed: string | null, gasCostUsd: number | null, startedAt: string | null, completedAt: string | null, attempts: number | null, nextAttemptAt: string | null, lastError: { code: string, message: string } | null }
        | { __typename: 'DepositStep', protocol: LendingProtocol, asset: TokenAsset, index: number, status: StepStatus, chain: Chain, amount: string, txHash: string | null, gasUsed: string | null, gasCostUsd: number | null, startedAt: string | null, completedAt: string | null, attempts: number | null, nextAttemptAt: string | null, lastError: { code: string, message: string } | null }
        | { __typename: 'WithdrawStep', protocol: LendingProtocol, asset: TokenAsset, index: number, status: StepStatus, chain: Chain, amount: string, txHash: string | null, gasUsed: string | null, gasCostUsd: number | null, startedAt: string | null, completedAt: string | null, attempts: number | null, nextAttemptAt: string | null, lastError: { code: string, message: string } | null }
      > } | null, results: { completedSteps: number, failedStep: number | null, finalAmount: string, apy: number, totalGasUsed: string, totalGasCostUsd: number, transactions: Array<{ txHash: string, chain: Chain | null, kind: TransactionKind | null, type: StepType, status: TransactionStatus | null, gasUsed: string | null, gasCostUsd: number | null, replacedTxHashes: Array<string> }> } | null, error: { code: string, message: string, details: unknown } | null } | null };

export type WalletOverviewQueryVariables = Exact<{
  walletId: string | number;
  asset?: TokenAsset | null | undefined;
}>;


export type WalletOverviewQuery = { walletById: { id: string, userId: string, address: string, chains: Array<Chain> } | null, balances: { totalValueUsd: number, chains: Array<{ chain: Chain, tokens: Array<{ asset: Asset, balance: string, balanceFormatted: string, valueUsd: number }>, positions: Array<{ protocol: LendingProtocol, asset: Asset, balance: string, balanceFormatted: string, valueUsd: number, principal: string | null, earned: string | null }> }> } | null, yields: { rates: Array<{ chain: Chain, protocol: LendingProtocol, asset: TokenAsset, apy: number }>, best: { chain: Chain, protocol: LendingProtocol, asset: TokenAsset, apy: number, reasoning: string } | null } | null };

export class TypedDocumentString<TResult, TVariables>
  extends String
  implements DocumentTypeDecoration<TResult, TVariables>
{
  __apiType?: NonNullable<DocumentTypeDecoration<TResult, TVariables>['__apiType']>;
  private value: string;
  public __meta__?: Record<string, any> | undefined;

  constructor(value: string, __meta__?: Record<string, any> | undefined) {
    super(value);
    this.value = value;
    this.__meta__ = __meta__;
  }

  override toString(): string & DocumentTypeDecoration<TResult, TVariables> {
    return this.value;
  }
}
export const IntentFieldsFragmentDoc = new TypedDocumentString(`
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
    `, {"fragmentName":"IntentFields"}) as unknown as TypedDocumentString<IntentFieldsFragment, unknown>;
export const IntentUpdatedDocument = new TypedDocumentString(`
    subscription IntentUpdated($id: ID!) {
  intentUpdated(id: $id) {
    ...IntentFields
  }
}
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
}`) as unknown as TypedDocumentString<IntentUpdatedSubscription, IntentUpdatedSubscriptionVariables>;
export const IntentDocument = new TypedDocumentString(`
    query Intent($id: ID!) {
  intent(id: $id) {
    ...IntentFields
  }
}
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
}`) as unknown as TypedDocumentString<IntentQuery, IntentQueryVariables>;
export const WalletOverviewDocument = new TypedDocumentString(`
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
    `) as unknown as TypedDocumentString<WalletOverviewQuery, WalletOverviewQueryVariables>;