import type { ChainName, LendingProtocol, TokenAsset } from './chains';

/**
 * A standing intent: keep (part of) a wallet's balance of one asset lent in
 * the market that pays best net of the cost of getting there, and move it
 * when another market pays enough more. The engine decides on every rate
 * sample (and when funds arrive on the wallet); a move is an ordinary intent
 * of the `rebalance` action.
 */
export const STANDING_INTENT_STATUSES = ['active', 'paused'] as const;
export type StandingIntentStatus = (typeof STANDING_INTENT_STATUSES)[number];

/** Defaults of a standing intent's moving rule. */
export const STANDING_DEFAULTS = {
  /** The extra yield is counted over this many days. */
  horizonDays: 30,
  /** A move must gain at least this much (USD) over the horizon, net of its costs. */
  minGainUsd: 1,
  /** ... and its costs may take at most this fraction of its gross gain (net gain ≥ 10 % of the gain). */
  minGainFraction: 0.1,
  /** Moves (rebalance intents) per rolling 24 hours. */
  maxMovesPerDay: 2,
} as const;

/** Decisions are kept this long (the backtest's history is as long). */
export const DECISION_RETENTION_DAYS = 90;

/** Limits of the fields a client sets. */
export const STANDING_LIMITS = {
  horizonDays: { min: 1, max: 365 },
  minGainUsd: { min: 0, max: 1_000_000 },
  maxMovesPerDay: { min: 1, max: 24 },
  /** Standing intents one account may have. */
  perAccount: 100,
} as const;

/** A standing intent as stored and returned. */
export interface StandingIntent {
  /** svc_standing_… */
  id: string;
  accountId: string;
  walletId: string;
  asset: TokenAsset;
  /** How much of the wallet's balance to keep lent (decimal string in token units); absent: all of it. */
  amount?: string;
  horizonDays: number;
  minGainUsd: number;
  maxMovesPerDay: number;
  status: StandingIntentStatus;
  createdAt: string;
  updatedAt: string;
  /** +1 on every change (pause, resume, a decision's bookkeeping). */
  version: number;
  /** The sample minute of the last decision taken (ISO). */
  lastDecisionAt?: string;
  /** The rebalance intent of the last move, while it may still be running. */
  lastIntentId?: string;
}

/** A market as decisions name it. */
export interface MarketRef {
  chain: ChainName;
  protocol: LendingProtocol;
}

/** Where some of the wallet's asset is now: lent in a market, or idle on a chain (`protocol: null`). */
export interface Holding {
  chain: ChainName;
  protocol: LendingProtocol | null;
  /** Smallest units. */
  amount: bigint;
}

/**
 * A market's supply APY (percent) at the sample deciding, and at the sample
 * before it. The decision counts a market it would move into at the lower of
 * the two and a market it would leave at the higher (hysteresis: a rate that
 * jumps and falls back within one sample window moves nothing).
 */
export interface MarketApy extends MarketRef {
  apy: number;
  previousApy?: number;
  sandboxOnly?: true;
}

/**
 * What a move costs, as recorded with each rate sample (so a backtest prices
 * moves as the live engine did): USD of one unit of gas per chain at that
 * sample, and the CCTP fee in basis points per route.
 */
export interface SampleCosts {
  gasUsdPerUnit: Partial<Record<ChainName, number>>;
  routeFeeBps: Partial<Record<ChainName, Partial<Record<ChainName, number>>>>;
  /** USD per whole token of each asset at that sample (stablecoins 1; WETH at the ETH/USD feed). */
  assetUsd?: Partial<Record<TokenAsset, number>>;
}

/** Gas units per transaction kind a move prices (the chain port's typical gas, passed in: the domain imports no port). */
export interface MoveGasUnits {
  approve: number;
  supply: number;
  withdraw: number;
  burn: number;
  mint: number;
}

/** Everything one decision reads. Pure input: the live engine and the backtest build it the same way. */
export interface DecisionInput {
  rule: Pick<StandingIntent, 'horizonDays' | 'minGainUsd' | 'maxMovesPerDay'> & { amount?: bigint };
  asset: TokenAsset;
  /** USD per whole token of the asset (stablecoins 1). */
  assetUsd: number;
  decimals: number;
  holdings: readonly Holding[];
  markets: readonly MarketApy[];
  costs: SampleCosts;
  gasUnits: MoveGasUnits;
  /** Rebalance intents created for this standing intent in the 24 hours before the sample. */
  movesInLastDay: number;
  /** A rebalance of this standing intent (or any intent of the wallet) is still running. */
  intentInFlight: boolean;
  /** Markets the wallet's spending policy allows (absent: all); a refused target is a `skipped` decision naming the rule. */
  allowed?: (market: MarketRef, amount: bigint) => { ok: true } | { ok: false; rule: string };
}

/** Why a decision did not move. */
export const SKIP_REASONS = [
  'no_funds',
  'already_best',
  'below_threshold',
  'unconfirmed_rate',
  'move_limit',
  'policy',
  'intent_in_flight',
  'paused',
  'interrupted',
] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

/** One source of a move: a position withdrawn (protocol set) or idle funds (protocol null), and what it brings. */
export interface MoveSource {
  chain: ChainName;
  protocol: LendingProtocol | null;
  /** Decimal string, token units. */
  amount: string;
  apy: number;
}

/** The numbers behind a decision, recorded whether it moved or not. */
export interface DecisionNumbers {
  target: (MarketRef & { apy: number }) | null;
  sources: MoveSource[];
  /** Total moved (decimal string), 0 when nothing moves. */
  amount: string;
  costs: { withdrawGasUsd: number; bridgeFeeUsd: number; bridgeGasUsd: number; depositGasUsd: number; totalUsd: number };
  /** Extra yield over the horizon (USD) of the move, before costs. */
  gainUsd: number;
  /** gainUsd − costs.totalUsd. */
  netGainUsd: number;
  /** What netGainUsd had to exceed: max(minGainUsd, minGainFraction × gainUsd). */
  thresholdUsd: number;
  horizonDays: number;
}

export type DecisionResult = { move: true; numbers: DecisionNumbers } | { move: false; reason: SkipReason; rule?: string; numbers: DecisionNumbers };

export const DECISION_OUTCOMES = ['rebalanced', 'skipped'] as const;
export type DecisionOutcome = (typeof DECISION_OUTCOMES)[number];

/** A recorded decision: one per standing intent per sample minute (the idempotency key). */
export interface StandingDecision {
  /** svc_decision_… (time-ordered) */
  id: string;
  standingIntentId: string;
  accountId: string;
  walletId: string;
  /** The sample minute it decided on (ISO). */
  sampleAt: string;
  decidedAt: string;
  trigger: 'rate_sample' | 'funds_arrived';
  outcome: DecisionOutcome;
  reason?: SkipReason;
  /** The policy rule that refused the move (reason `policy`). */
  rule?: string;
  /** The rebalance intent a move created. */
  intentId?: string;
  numbers: DecisionNumbers;
}

/** A backtest's question: a rule replayed over the recorded APY history of an asset's markets. */
export interface SimulateParams {
  asset: TokenAsset;
  /** Decimal string, token units: what the strategy keeps lent. */
  amount: string;
  horizonDays: number;
  minGainUsd: number;
  maxMovesPerDay: number;
  /** Window of the replay, ISO instants (default: the last 30 days up to now). */
  from: string;
  to: string;
  /** Where the funds start (default: the best market at the first sample). */
  start?: MarketRef;
}

/** One move the replay made. */
export interface SimulatedMove {
  at: string;
  from: MarketRef & { apy: number };
  to: MarketRef & { apy: number };
  amount: string;
  costUsd: number;
  netGainUsd: number;
}

/** A strategy's outcome over the window, USD. */
export interface StrategyEarnings {
  earnedUsd: number;
  costsUsd: number;
  netUsd: number;
}

/** A backtest's answer. */
export interface SimulateResult {
  from: string;
  to: string;
  samples: number;
  moves: SimulatedMove[];
  /** The standing intent's rule, moves and costs included. */
  strategy: StrategyEarnings;
  /** Staying put all along in the market best at the last sample (today's best); market null when the window holds no sample. */
  todaysBest: StrategyEarnings & { market: MarketRef | null };
  /** Staying put all along in the market the funds started in; market null when the window holds no sample and no start was given. */
  firstMarket: StrategyEarnings & { market: MarketRef | null };
  /** Each market's APY per sample, for the chart: [at, apy] pairs. */
  series: Array<MarketRef & { points: Array<[string, number]> }>;
  /** Cumulative earnings per sample of the strategy (net of its moves' costs) and of staying in the first market: [at, strategyUsd, firstMarketUsd]. */
  cumulative: Array<[string, number, number]>;
}
