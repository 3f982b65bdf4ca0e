import type { ChainName, LendingProtocol, TokenAsset } from '../../domain/chains';
import type { ServiceError } from '../../domain/errors/base';
import type { ExecutionPlan, IntentAction } from '../../domain/intent';

/** Amounts of one asset per chain, in smallest units. */
export type ChainAmounts = Partial<Record<ChainName, bigint>>;

/** Supplied amounts of one asset per chain and lending protocol, in smallest units. */
export type PositionAmounts = Partial<Record<ChainName, Readonly<Record<string, bigint>>>>;

/** Route fee in basis points (fractions allowed) per (from, to), taken out of the bridged amount (CCTP v2, at the intent's speed); absent = free. */
export type RouteFees = Partial<Record<ChainName, Partial<Record<ChainName, number>>>>;

/** A lending rate as the yields report has it; `apy` is a percent. */
export interface RateQuote {
  chain: ChainName;
  protocol: string;
  asset: TokenAsset;
  apy: number;
  /** A market only the sandbox has (the real test network has none): the plan's step says so. */
  sandboxOnly?: true;
}

/** What the client asked for, amount in smallest units. */
export interface PlanRequest {
  action: IntentAction;
  /** Smallest units of `asset`. */
  amount: bigint;
  asset: TokenAsset;
  chain?: ChainName;
  fromChain?: ChainName;
  toChain?: ChainName;
  /** Rebalance: the protocol of the target market on `toChain`. */
  toProtocol?: LendingProtocol;
  /** Rebalance: where the funds come from; `amount` is the sum of theirs. */
  sources?: readonly PlannedSource[];
}

/** A rebalance source as the planner reads it: a position (protocol set) or idle funds (protocol null), smallest units. */
export interface PlannedSource {
  chain: ChainName;
  protocol: LendingProtocol | null;
  amount: bigint;
}

/** Everything the planner reads: the request and a snapshot of the wallet and the markets. */
export interface PlannerInput {
  request: PlanRequest;
  /** Wallet balances of `request.asset`. */
  balances: ChainAmounts;
  /** Wallet positions of `request.asset`. */
  positions: PositionAmounts;
  rates: readonly RateQuote[];
  routeFees?: RouteFees;
  /** Smallest bridge worth making, in smallest units; smaller balances are dust and stay put. Default 1. */
  minBridgeAmount?: bigint;
  /** Lend only, opt-in: choose the market by net return over a horizon (route fees and gas subtracted) instead of the highest APY. */
  optimize?: NetReturnOptions;
}

/** A plan the executor can run. */
export interface PlanSuccess {
  ok: true;
  plan: ExecutionPlan;
  /** What the plan finally deposits / withdraws / delivers, smallest units (< requested once route fees apply). */
  amount: bigint;
  /** APY of the chosen market (lend) or of the position withdrawn from, when known. */
  apy: number | null;
}

/** No plan: INSUFFICIENT_FUNDS, or a request the planner cannot serve. */
export interface PlanFailure {
  ok: false;
  error: ServiceError;
}

export type PlanResult = PlanSuccess | PlanFailure;

/** Gas in USD of one step on each market and route, as the net-return ranking counts it. */
export interface StepGasUsd {
  /** approve + supply on the chain. */
  deposit: Partial<Record<ChainName, number>>;
  /** approve + burn on `from`, mint on `to`. */
  bridge: Partial<Record<ChainName, Partial<Record<ChainName, number>>>>;
}

/** The opt-in cost-aware choice of a lend's market (`optimize: netReturn`): what the planner cannot read itself. */
export interface NetReturnOptions {
  /** Days the deposit is held (earnings are counted over them). */
  horizonDays: number;
  /** USD per whole token of the asset. */
  assetUsd: number;
  gasUsd: StepGasUsd;
}
