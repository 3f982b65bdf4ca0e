import type { PolicyRules } from './policy';
import { CHAIN_NAMES, LENDING_PROTOCOLS, type AccountModel, type ChainName, type LendingProtocol, type TokenAsset } from './chains';
import type { ErrorCode, ErrorDetails } from './errors/base';

/**
 * The persisted intent (the API's "Intent" + docs/decisions.md). Every amount in a record is
 * a decimal string in token units (bigint-safe); the planner works in bigint
 * smallest units and converts with src/domain/money.ts.
 */
export const INTENT_STATUSES = ['pending', 'planning', 'executing', 'completed', 'failed', 'cancelled'] as const;
export type IntentStatus = (typeof INTENT_STATUSES)[number];

/** States no event leaves. */
export const FINAL_STATUSES: readonly IntentStatus[] = ['completed', 'failed', 'cancelled'];
/** States the engine still owes work on (recovery resumes them). */
export const NON_FINAL_STATUSES: readonly IntentStatus[] = ['pending', 'planning', 'executing'];

/** Whether `status` is final (completed, failed or cancelled). */
export function isFinal(status: IntentStatus): boolean {
  return FINAL_STATUSES.includes(status);
}

export const INTENT_ACTIONS = ['lend', 'withdraw', 'bridge', 'rebalance'] as const;
export type IntentAction = (typeof INTENT_ACTIONS)[number];

/**
 * One source of a rebalance: a position withdrawn (`protocol` set) or idle
 * funds of the wallet (`protocol: null`) on `chain`, and how much of it moves
 * (decimal string, token units).
 */
export interface RebalanceSource {
  chain: ChainName;
  protocol: LendingProtocol | null;
  amount: string;
}

/** Most sources one rebalance names: every protocol's position and the idle funds of every chain fit. */
export const MAX_REBALANCE_SOURCES = CHAIN_NAMES.length * (LENDING_PROTOCOLS.length + 1);

/**
 * How fast a bridge's CCTP v2 transfer is attested: `fast` at soft finality
 * (seconds, for a fee of a few basis points), `standard` at hard finality
 * (minutes on the public networks, free). The default is fast.
 */
export const BRIDGE_SPEEDS = ['fast', 'standard'] as const;
export type BridgeSpeed = (typeof BRIDGE_SPEEDS)[number];
export const DEFAULT_BRIDGE_SPEED: BridgeSpeed = 'fast';

/**
 * How long a bridge typically waits for its attestation at each speed on the
 * public networks, in seconds (Circle's published figures: fast transfers in
 * seconds, standard ones after the source chain's hard finality, 13 to 19
 * minutes with Ethereum's); the sandbox attests in milliseconds.
 */
export const EXPECTED_ATTESTATION_SECONDS: Readonly<Record<BridgeSpeed, number>> = { fast: 20, standard: 19 * 60 };

/** The minFinalityThreshold a burn sends for each speed (CCTP v2: 1000 confirmed, 2000 finalized). */
export const FINALITY_OF_SPEED: Readonly<Record<BridgeSpeed, 1000 | 2000>> = { fast: 1000, standard: 2000 };

export const STEP_STATUSES = ['pending', 'executing', 'completed', 'failed'] as const;
export type StepStatus = (typeof STEP_STATUSES)[number];

/** Strategy names of a plan; `insufficient` never names a plan, only a failed intent's `error.details.strategy`. */
export const STRATEGIES = ['no-bridge', 'direct-deposit', 'single-bridge', 'multi-bridge', 'direct-withdraw', 'rebalance'] as const;
export type Strategy = (typeof STRATEGIES)[number];

/** Fields every step record carries while it is planned and executed (docs/decisions.md, "step records"). */
export interface StepProgress {
  /** Position of the step in `executionPlan.steps`, from 0. */
  index: number;
  status: StepStatus;
  /** Chain the step's transaction is sent on (a bridge's source chain). */
  chain: ChainName;
  txHash?: string;
  startedAt?: string;
  completedAt?: string;
  gasUsed?: string;
  gasCostUsd?: number;
  /** Route fee taken out of a bridged amount, decimal string. */
  fee?: string;
  /** While a transaction of the step keeps meeting trouble: tries so far (cleared once it is mined). */
  attempts?: number;
  /** The last trouble (node unreachable, transaction not mined yet), while the step keeps trying. */
  lastError?: { code: string; message: string };
  /** When the step tries again (ISO 8601). */
  nextAttemptAt?: string;
}

/** Supply `amount` of `asset` to `protocol` on `chain`. */
export interface DepositStep extends StepProgress {
  type: 'deposit';
  protocol: string;
  asset: TokenAsset;
  amount: string;
  /** The market exists only in the sandbox (the real test network has none). */
  sandboxOnly?: true;
  /**
   * Internal (not in the API view): the supply carries the wallet's EIP-2612
   * permit, one transaction and no approve. Decided once at planning (a
   * plain-transaction chain whose market takes permits), so execution, a
   * restart and the preview send the same sub-transactions.
   */
  permit?: true;
}

/** Withdraw `amount` of `asset` from `protocol` on `chain`. */
export interface WithdrawStep extends StepProgress {
  type: 'withdraw';
  protocol: string;
  asset: TokenAsset;
  amount: string;
  /** The market exists only in the sandbox (the real test network has none). */
  sandboxOnly?: true;
}

/**
 * A bridge step: `amount` leaves `from`; `amount - fee` arrives on `to`. The
 * fee is the planned one until the mint, then what the mint kept back.
 */
export interface BridgeStep extends StepProgress {
  type: 'bridge';
  from: ChainName;
  to: ChainName;
  amount: string;
  /** The most the mint may keep back (the planned CCTP fee), decimal string: the burn's maxFee. */
  maxFee?: string;
  /** The burn's minFinalityThreshold: 1000 fast, 2000 standard. */
  minFinalityThreshold?: 1000 | 2000;
  /**
   * Absent: the fee tier the attestation service answers now. Planned while
   * the service did not answer: `lastKnown` (its last answer), or
   * `standardFree` (no answer yet: a standard transfer, free under CCTP v2).
   */
  feeSource?: 'lastKnown' | 'standardFree';
}

/** One step record of an execution plan. */
export type Step = DepositStep | WithdrawStep | BridgeStep;
export type StepType = Step['type'];

/** The plan of an intent: strategy, ordered steps, human-readable reasoning. */
export interface ExecutionPlan {
  strategy: Strategy;
  steps: Step[];
  reasoning: string;
}

/** One sent transaction in `results.transactions`. */
export interface TransactionRecord {
  type: StepType;
  txHash: string;
  chain?: ChainName;
  gasUsed?: string;
  gasCostUsd?: number;
}

/** Execution results (the API's "results"); present once execution has started. */
export interface IntentResults {
  completedSteps: number;
  transactions: TransactionRecord[];
  totalGasUsed: string;
  totalGasCostUsd: number;
  finalAmount: string;
  /** APY obtained, percent. */
  apy: number;
  /** Index of the failed step, present on failure during execution. */
  failedStep?: number;
  /** What the CCTP fees of the intent's bridges took, as their mints kept it back (decimal string), once a bridge is minted. */
  bridgeFees?: string;
}

/** The `error` of a failed intent (a ServiceError's `toJSON()`). */
export interface IntentError {
  code: ErrorCode;
  message: string;
  details: ErrorDetails;
}

/** An intent as stored and returned (the API's "Intent" + docs/decisions.md). */
export interface Intent {
  id: string;
  accountId: string;
  walletId: string;
  status: IntentStatus;
  action: IntentAction;
  /** What the plan moves once planned (after route fees); the requested amount before that. */
  amount: string;
  requestedAmount: string;
  asset: TokenAsset;
  chain?: ChainName;
  fromChain?: ChainName;
  toChain?: ChainName;
  /** Rebalance: the lending protocol of the target market on `toChain`. */
  toProtocol?: LendingProtocol;
  /** Rebalance: where the moved funds come from; `amount` is their sum. */
  sources?: RebalanceSource[];
  /** Bridge, lend and rebalance: how fast the bridges are attested (absent: fast). */
  speed?: BridgeSpeed;
  executionPlan: ExecutionPlan | null;
  results?: IntentResults;
  error?: IntentError;
  createdAt: string;
  updatedAt: string;
  completedAt?: string;
  /** Optimistic-concurrency version, +1 on every transition. */
  version: number;
  /**
   * When the client asked to cancel the intent while it was planning or
   * executing (POST /v1/intents/:id/cancel): the engine ends it `cancelled`
   * before the next step that has nothing signed yet.
   */
  cancelRequestedAt?: string;
  /** The spending policy the intent was decided under, and what it reserved of the wallet's daily cap. */
  policy?: IntentPolicy;
  /** What admission reserved of the account's gas budget (gwei): given back once the intent is final, its actual gas having been counted receipt by receipt. */
  gasReservation?: { key: string; gwei: number; expiresAt: string };
  /**
   * Internal (not in the API view): how each chain of the plan runs the
   * wallet's calls, decided once at planning so that execution, recovery and a
   * restart after the deployment changed all follow the same sub-transactions.
   * A chain not listed is `plain`.
   */
  accountModels?: Partial<Record<ChainName, AccountModel>>;
}

/** An intent's policy record: which version decided it, and its reservation in the daily window (given back if it fails before signing). */
export interface IntentPolicy {
  id: string;
  version: number;
  /** The rules of that version, kept with the intent: planning and signing follow them, whatever later versions say. */
  rules: PolicyRules;
  reservation?: PolicyReservation;
  /** What planning added to the reservation once the plan was priced where it executes (counted in the window's bucket of that moment). */
  planned?: PolicyReservation;
}

/** Cents counted in one bucket of the wallet's daily window. */
export interface PolicyReservation {
  key: string;
  cents: number;
  expiresAt: string;
}

/** Results as they stand when execution starts: nothing done, nothing spent. */
export function emptyResults(apy = 0): IntentResults {
  return { completedSteps: 0, transactions: [], totalGasUsed: '0', totalGasCostUsd: 0, finalAmount: '0', apy };
}

/**
 * Whether the intent has signed a transaction (persisted before its broadcast).
 * From then on something may have moved on chain, so only a domain outcome
 * (a revert, or a retryable step exhausted with nothing in flight) may end
 * the intent; an infrastructure fault leaves it open, to be retried.
 */
export function hasSignedTransaction(intent: Intent): boolean {
  return (intent.results?.transactions.length ?? 0) > 0;
}
