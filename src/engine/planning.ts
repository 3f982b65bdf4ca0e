import type { Address } from 'viem';
import { ServiceError, isServiceError } from '../domain/errors/base';
import { invalidChain } from '../domain/errors/chain';
import { walletNotFound } from '../domain/errors/wallet';
import { policyViolation } from '../domain/errors/policy';
import { DEFAULT_BRIDGE_SPEED, EXPECTED_ATTESTATION_SECONDS, FINALITY_OF_SPEED, type BridgeSpeed, type Intent } from '../domain/intent';
import type { Clock } from '../domain/clock';
import type { ChainName } from '../domain/chains';
import type { Wallet } from '../domain/types';
import { toUnits } from '../domain/money';
import { chainAllowed, protocolAllowed, type PolicyRefusal, type PolicyRules } from '../domain/policy';
import { optimizationOf, type LendOptimization } from '../domain/optimize';
import type { ChainHoldings, ChainPort, MarketRate, RouteFeeTable } from '../ports/chain';
import type { IntentRepo, WalletRepo } from '../ports/store';
import { TYPICAL_GAS } from '../ports/typicalGas';
import { untilAborted } from './abort';
import { withRetry, type RetryPolicy } from './executor/retry';
import { plan } from './planner/plan';
import { lessReserved, reservedBalances } from './planner/reserved';
import { rankByNetReturn, stepGasUsd, type ChainGasPrice, type MarketReturn, type NetReturnOptions } from './planner/netReturn';
import { rankRates } from './planner/rates';
import type { ChainAmounts, PlannerInput, PlanResult, PositionAmounts, RouteFees } from './planner/types';

/**
 * What planning reads, and how the pure planner is fed: one place for the
 * engine (planIntent, before it executes) and for the reads that answer
 * without executing (POST /intents/preview, GET /yields?optimize=netReturn),
 * so a preview plans exactly as the engine would at that moment.
 */

/**
 * The use-cases reach the engine through this file only (docs/architecture.md,
 * Layers): what else of the planner a preview, the policy pricing or the
 * yields ranking shows is passed on from here.
 */
export type { PlanSuccess } from './planner/types';
export { canBridge } from './planner/routes';
export { netReturnReasoning } from './planner/netReturn';
export { plannedFeeOf } from './executor/subTransactions';

/** Executing intents of one wallet read for reservations; the wallet actor runs one at a time, so more than a few means something is wrong. */
const MAX_EXECUTING_READ = 100;

/** What planning needs of the engine's effects (the engine's UnitContext is one). */
export interface PlanningEffects {
  chains: ChainPort;
  wallets: Pick<WalletRepo, 'getById'>;
  intents: Pick<IntentRepo, 'listByWallet'>;
  clock: Clock;
  retry: RetryPolicy;
  signal: AbortSignal;
}

/** What the planner reads from the chains for one wallet. */
export interface MarketSnapshot {
  holdings: ChainHoldings[];
  rates: MarketRate[];
  /** CCTP fee tiers per route, as the attestation service answers them. */
  routeFees: RouteFeeTable;
  /** Gas price and ETH/USD per chain read (only when a net-return ranking needs them). */
  gasPrices?: Partial<Record<ChainName, ChainGasPrice>>;
  /** USD per whole token of the intent's asset (with gasPrices). */
  assetUsd?: number;
}

/** Everything one planning of an intent reads: the wallet, the chains it may use, the markets, and what other intents hold. */
export interface PlanningSnapshot {
  wallet: Wallet;
  /** The wallet's chains this deployment serves. */
  walletChains: ChainName[];
  /** Those the intent's policy allows (funds elsewhere are not touched). */
  chains: ChainName[];
  market: MarketSnapshot;
  /** Committed by the wallet's other executing intents, held back from the balances. */
  reserved: ChainAmounts;
  rules: PolicyRules | undefined;
}

/** Balances and positions of the intent's asset, per chain (and protocol), in smallest units. */
function holdingsOf(holdings: readonly ChainHoldings[], asset: Intent['asset']): { balances: ChainAmounts; positions: PositionAmounts } {
  const balances: ChainAmounts = {};
  const positions: Partial<Record<ChainHoldings['chain'], Record<string, bigint>>> = {};
  for (const h of holdings) {
    const balance = h.tokens.filter((t) => t.asset === asset).reduce((sum, t) => sum + t.balance, 0n);
    if (balance > 0n) balances[h.chain] = balance;
    for (const p of h.positions) {
      if (p.asset !== asset || p.amount <= 0n) continue;
      const byProtocol = (positions[h.chain] ??= {});
      byProtocol[p.protocol] = (byProtocol[p.protocol] ?? 0n) + p.amount;
    }
  }
  return { balances, positions };
}

/** The route fees, in bps, a bridge at `speed` pays: the attestation service's tier of that speed. */
export function routeFeesAt(table: RouteFeeTable, speed: BridgeSpeed): RouteFees {
  const out: RouteFees = {};
  for (const [from, row] of Object.entries(table)) {
    for (const [to, tiers] of Object.entries(row ?? {})) if (tiers) (out[from as ChainName] ??= {})[to as ChainName] = tiers[speed];
  }
  return out;
}

/** The speed an intent's bridges go at (fast unless it asked for standard). */
export const speedOf = (intent: Pick<Intent, 'speed'>): BridgeSpeed => intent.speed ?? DEFAULT_BRIDGE_SPEED;

/** The net-return options of the planner input, when the intent asked for them and the prices were read. */
function netReturnOptions(intent: Intent & LendOptimization, market: MarketSnapshot): NetReturnOptions | undefined {
  const wanted = intent.action === 'lend' ? optimizationOf(intent) : null;
  if (wanted === null || market.gasPrices === undefined) return undefined;
  return { horizonDays: wanted.horizonDays, assetUsd: market.assetUsd ?? 1, gasUsd: stepGasUsd(market.gasPrices, TYPICAL_GAS) };
}

/** The planner input of `intent` from a market snapshot, less what the wallet's other executing intents hold (`reserved`). */
export function plannerInput(intent: Intent & LendOptimization, market: MarketSnapshot, chains: readonly string[], reserved: ChainAmounts = {}): PlannerInput {
  const held = holdingsOf(market.holdings, intent.asset);
  const balances = lessReserved(held.balances, reserved);
  const positions = held.positions;
  const optimize = netReturnOptions(intent, market);
  return {
    request: {
      action: intent.action,
      amount: toUnits(intent.requestedAmount, intent.asset),
      asset: intent.asset,
      chain: intent.chain,
      fromChain: intent.fromChain,
      toChain: intent.toChain,
    },
    balances,
    positions,
    rates: market.rates.filter((r) => chains.includes(r.chain)),
    routeFees: routeFeesAt(market.routeFees, speedOf(intent)),
    ...(optimize && { optimize }),
  };
}

/**
 * Reads what planning `intent` needs: its wallet, the holdings on the chains
 * its policy allows, rates, route fees (transient errors retried), the
 * reservations of the wallet's other executing intents, and, for a lend
 * ranked by net return, each chain's gas price and ETH/USD. A ServiceError
 * (wallet gone, Tron, node trouble beyond the retries) is the answer;
 * anything else is thrown.
 */
export async function readPlanning(intent: Intent & LendOptimization, fx: PlanningEffects): Promise<{ ok: true; snapshot: PlanningSnapshot } | { ok: false; error: ServiceError }> {
  const wallet = await fx.wallets.getById(intent.walletId);
  if (wallet === null) return { ok: false, error: walletNotFound({ walletId: intent.walletId }) };
  if (wallet.chainType === 'tron') return { ok: false, error: invalidChain('tron', { reason: 'no Tron network is supported yet' }) };
  const walletChains = wallet.chains.filter((c) => fx.chains.chains.includes(c));
  // Policy-aware planning: only the chains the intent's policy allows are read and used (funds elsewhere are not touched).
  const rules = intent.policy?.rules;
  const chains = walletChains.filter((c) => chainAllowed(rules, c));
  const withPrices = intent.action === 'lend' && optimizationOf(intent) !== null;

  let market: MarketSnapshot;
  try {
    market = await withRetry(
      async () => {
        const [holdings, rates, routeFees, quotes, assetUsd] = await untilAborted(
          Promise.all([
            fx.chains.holdings(wallet.evmAddress as Address, chains),
            fx.chains.rates(),
            fx.chains.routeFees(),
            withPrices ? Promise.all(chains.map((c) => fx.chains.gasQuote(c))) : Promise.resolve(undefined),
            withPrices && chains[0] !== undefined ? fx.chains.priceUsd(intent.asset, chains[0]) : Promise.resolve(undefined),
          ]),
          fx.signal,
        );
        const snapshot: MarketSnapshot = { holdings, rates, routeFees };
        if (quotes) snapshot.gasPrices = Object.fromEntries(quotes.map((q) => [q.chain, { gasPriceWei: q.gasPriceWei, ethUsd: q.ethUsd }]));
        if (assetUsd !== undefined) snapshot.assetUsd = assetUsd;
        return snapshot;
      },
      { policy: fx.retry, clock: fx.clock, signal: fx.signal },
    );
  } catch (e) {
    // a service error from the reads (node trouble beyond the retries, an unconfigured chain) fails the planning
    if (isServiceError(e) && e.code !== 'INTERNAL_ERROR') return { ok: false, error: e };
    throw e;
  }

  const executing = await fx.intents.listByWallet(intent.walletId, { status: 'executing', limit: MAX_EXECUTING_READ });
  const reserved = reservedBalances(
    executing.filter((i) => i.id !== intent.id),
    intent.asset,
  );
  return { ok: true, snapshot: { wallet, walletChains, chains, market, reserved, rules } };
}

/** The pure planner on a snapshot: only the markets of protocols the policy allows. */
export function planOn(intent: Intent & LendOptimization, snapshot: PlanningSnapshot): PlanResult {
  const { market, chains, reserved, rules } = snapshot;
  const allowedRates = market.rates.filter((r) => protocolAllowed(rules, r.protocol));
  const planned = plan(plannerInput(intent, { ...market, rates: allowedRates }, chains, reserved));
  if (!planned.ok) return planned;
  if (!planned.plan.steps.some((s) => s.type === 'bridge')) return planned;
  // Each burn asks for the intent's speed; its maxFee is the fee planned at that speed's tier.
  const speed = speedOf(intent);
  const minFinalityThreshold = FINALITY_OF_SPEED[speed];
  const steps = planned.plan.steps.map((s) => (s.type === 'bridge' ? { ...s, minFinalityThreshold } : s));
  return { ...planned, plan: { ...planned.plan, steps, reasoning: `${planned.plan.reasoning} ${speedText(speed)}` } };
}

/** What a plan's bridges wait at `speed`, in its reasoning. */
function speedText(speed: BridgeSpeed): string {
  const wait = EXPECTED_ATTESTATION_SECONDS[speed];
  return speed === 'fast'
    ? `Fast CCTP transfer: attested at soft finality, about ${wait} s on the public networks, for the fee above.`
    : `Standard CCTP transfer: attested after hard finality, about ${Math.round(wait / 60)} min on the public networks.`;
}

/** Whether the intent would have a plan with no policy: holdings on every chain of the wallet, every market. */
async function policyFreePlan(intent: Intent, fx: PlanningEffects, snapshot: PlanningSnapshot): Promise<boolean> {
  const { market, walletChains, reserved } = snapshot;
  const extra = walletChains.filter((c) => !market.holdings.some((h) => h.chain === c));
  const holdings = extra.length === 0 ? market.holdings : [...market.holdings, ...(await untilAborted(fx.chains.holdings(snapshot.wallet.evmAddress as Address, extra), fx.signal))];
  return plan(plannerInput(intent, { ...market, holdings }, walletChains, reserved)).ok;
}

/** The rule a planning failure under a policy is reported by: the chains rule when it restricts chains, else the protocols rule. */
function planningRefusal(rules: PolicyRules, details: unknown): PolicyRefusal {
  if (rules.chains) return { rule: 'chains', limit: rules.chains, requested: { plan: 'needs funds or markets on chains the policy does not allow', ...(details as object) } };
  return { rule: 'protocols', limit: rules.protocols, requested: { plan: 'needs a market of a protocol the policy does not allow', ...(details as object) } };
}

/**
 * The error a failed planning is recorded with: INSUFFICIENT_FUNDS (or what
 * the planner said), unless the policy is why there is no plan (one exists
 * without it): then POLICY_VIOLATION, nothing signed.
 */
export async function planningError(intent: Intent, fx: PlanningEffects, snapshot: PlanningSnapshot, error: ServiceError): Promise<ServiceError> {
  if (intent.policy && error.code === 'INSUFFICIENT_FUNDS' && (await policyFreePlan(intent, fx, snapshot))) {
    return policyViolation(intent.policy, planningRefusal(intent.policy.rules, error.details));
  }
  return error;
}

/** APY percent as the yields report shows it (2 decimals), so an intent's `results.apy` matches GET /yields for its market. */
export const reportedApy = (apy: number | null): number | undefined => (apy === null ? undefined : Math.round(apy * 100) / 100);

/**
 * Every market the wallet's funds reach, ranked by what lending the intent's
 * amount there nets over `horizonDays` (the ranking a lend with optimize:
 * netReturn plans with), on a snapshot read with gas prices.
 */
export function rankNetReturns(intent: Intent & LendOptimization, snapshot: PlanningSnapshot, horizonDays: number): MarketReturn[] {
  const rates = snapshot.market.rates.filter((r) => protocolAllowed(snapshot.rules, r.protocol));
  const input = plannerInput({ ...intent, action: 'lend', optimize: 'netReturn', horizonDays }, { ...snapshot.market, rates }, snapshot.chains, snapshot.reserved);
  if (!input.optimize) return [];
  return rankByNetReturn(input, rankRates(input.rates, intent.asset, input.balances, intent.chain), input.optimize);
}
