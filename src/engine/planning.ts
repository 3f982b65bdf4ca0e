import type { Address } from 'viem';
import { ServiceError, isServiceError } from '../domain/errors/base';
import { invalidChain } from '../domain/errors/chain';
import { walletNotFound } from '../domain/errors/wallet';
import { policyViolation } from '../domain/errors/policy';
import {
  DEFAULT_BRIDGE_SPEED,
  EXPECTED_ATTESTATION_SECONDS,
  FINALITY_OF_SPEED,
  type BridgeSpeed,
  type BridgeStep,
  type Intent,
  type IntentPolicy,
} from '../domain/intent';
import type { Clock } from '../domain/clock';
import type { AccountModel, ChainName, TokenAsset } from '../domain/chains';
import type { Wallet } from '../domain/types';
import { toUnits } from '../domain/money';
import { INTENT_REQUEST_FIELDS, presentFields } from '../domain/commands';
import { chainAllowed, protocolAllowed, type PolicyRefusal, type PolicyRules } from '../domain/policy';
import { optimizationOf, type LendOptimization } from '../domain/optimize';
import type { ChainHoldings, ChainPort, MarketRate, RouteFeeTable } from '../ports/chain';
import type { IntentRepo, WalletRepo } from '../ports/store';
import { TYPICAL_GAS } from '../ports/typicalGas';
import { isTransient, withRetry, type RetryPolicy } from './retry';
import { plan } from './planner/plan';
import { lessReserved, reservedBalances } from './planner/reserved';
import { readHoldingsWithReservations, type PlanningRead } from './holdingsAndReservations';
import { rankByNetReturn, stepGasUsd, type ChainGasPrice, type MarketReturn, type NetReturnOptions } from './planner/netReturn';
import { rankRates } from './planner/rates';
import type { ChainAmounts, PlannerInput, PlanRequest, PlanResult, PositionAmounts, RouteFees } from './planner/types';

/**
 * What planning reads, and how the pure planner is fed: one place for the
 * engine (planIntent, before it executes) and for the reads that answer
 * without executing (POST /intents/preview, GET /yields?optimize=netReturn),
 * so a preview plans exactly as the engine would at that moment. All of them
 * plan a PlanningRequest: the engine's from the intent it runs, the others'
 * from the client's request, both through planningRequestOf.
 */

/**
 * The use-cases reach the engine through this file only (docs/architecture.md,
 * Layers): what else of the planner a preview, the policy pricing or the
 * yields ranking shows is passed on from here.
 */
export type { PlanSuccess } from './planner/types';
export { canBridge } from './planner/routes';
export { netReturnReasoning } from './planner/netReturn';
export { plannedFeeOf } from './stepAmounts';
export { withSupplyPermits } from './supplyPermits';
export { chainCallsGas, operationOverheadGas } from './operationGas';

/** Executing intents of one wallet read for reservations; the wallet actor runs one at a time, so more than a few means something is wrong. */
const MAX_EXECUTING_READ = 100;

/**
 * What planning reads of an intent, or of a request planned without one: the
 * planner's request (amount in smallest units), the wallet whose funds it
 * plans, how fast its bridges go, a lend's opt-in ranking, and the spending
 * policy it is decided under (its rules choose the chains and markets; its id
 * and version name it in a POLICY_VIOLATION).
 */
export interface PlanningRequest extends PlanRequest, LendOptimization {
  walletId: string;
  /** Bridge and lend: how fast the bridges are attested (absent: fast). */
  speed?: BridgeSpeed;
  policy?: Pick<IntentPolicy, 'id' | 'version' | 'rules'>;
}

/** What a client asks of a wallet, as its intent records it (amount in token units), with the policy that decides it. */
export type AskedOfWallet = Pick<
  Intent,
  'walletId' | 'action' | 'requestedAmount' | 'asset' | 'chain' | 'fromChain' | 'toChain' | 'toProtocol' | 'sources' | 'speed' | 'policy'
> &
  LendOptimization;

/** The request planning reads of what was asked: the engine's of the intent it runs, a preview's of the request, so both plan the same. */
export function planningRequestOf(asked: AskedOfWallet): PlanningRequest {
  const { sources, ...route } = presentFields(asked, INTENT_REQUEST_FIELDS.route);
  return {
    walletId: asked.walletId,
    action: asked.action,
    amount: toUnits(asked.requestedAmount, asked.asset),
    asset: asked.asset,
    ...route,
    ...(sources !== undefined && { sources: sources.map((s) => ({ ...s, amount: toUnits(s.amount, asked.asset) })) }),
    ...presentFields(asked, INTENT_REQUEST_FIELDS.mode),
    ...(asked.policy !== undefined && { policy: { id: asked.policy.id, version: asked.policy.version, rules: asked.policy.rules } }),
  };
}

/**
 * What planning reads through: the engine's effects when it plans an intent,
 * the store and chains of a read that plans without executing. Without
 * `retry` the chains are read once (a preview does not wait between tries:
 * the client may ask again).
 */
export interface PlanningEffects {
  /** The engine's answer EngineStopped once `signal` aborts (the intent actor's ActorChains). */
  chains: ChainPort;
  wallets: Pick<WalletRepo, 'getById'>;
  intents: Pick<IntentRepo, 'listByWallet'>;
  retry?: { policy: RetryPolicy; clock: Clock };
  /** Stops the retries' waits. */
  signal: AbortSignal;
  /** Planning an intent (`intentId`): what it may take from the service's read caches instead of the chains. Absent: everything is read afresh. */
  cache?: { reads: PlanningCache; intentId: string };
}

/** What the service's read caches keep that planning can use (src/app/caches.ts). */
export interface PlanningCache {
  /** The wallet's holdings as a read that began at `readAt` (ms since the epoch) found them, while they are fresh; undefined when none is kept. */
  holdings(walletId: string): { holdings: readonly ChainHoldings[]; readAt: number } | undefined;
  /** The markets' rates while the yields' cache holds them fresh; undefined otherwise (planning reads them itself). */
  rates(): MarketRate[] | undefined;
}

/**
 * Intents of the wallet changed this long before a kept balance's read began
 * still send planning to the chains: their `updatedAt` comes from the clock
 * of whichever instance ran them.
 */
const CLOCK_SKEW_MS = 1_000;

/** Intents of the wallet that changed since a kept read began, other than the one being planned, looked for (one is enough). */
const CHANGED_READ = 2;

/** What the planner reads from the chains for one wallet. */
export interface MarketSnapshot {
  holdings: ChainHoldings[];
  rates: MarketRate[];
  /** CCTP fee tiers per route, as the attestation service answers them (or last answered, each route marked). */
  routeFees: RouteFeeTable;
  /** The attestation service has not answered the fee route yet: a standard bridge is planned free (`routeFees` empty). */
  routeFeesUnread?: true;
  /** Gas price and ETH/USD per chain read (only when a net-return ranking needs them). */
  gasPrices?: Partial<Record<ChainName, ChainGasPrice>>;
  /** USD per whole token of the intent's asset (with gasPrices). */
  assetUsd?: number;
  /** How each chain read runs the wallet's calls (with gasPrices: the ranking prices a `7702` chain's calls as one operation). */
  accountModels?: Partial<Record<ChainName, AccountModel>>;
}

/** Everything one planning reads: the wallet, the chains it may use, the markets, and what the wallet's executing intents hold. */
export interface PlanningSnapshot {
  wallet: Wallet;
  /** The wallet's chains this deployment serves. */
  walletChains: ChainName[];
  /** Those the request's policy allows (funds elsewhere are not touched). */
  chains: ChainName[];
  market: MarketSnapshot;
  /** Committed by the wallet's other executing intents, held back from the balances. */
  reserved: ChainAmounts;
  rules: PolicyRules | undefined;
  /** The holdings were the read caches' (planning reads the chains again before it fails for want of funds). */
  fromCache?: true;
}

/** Balances and positions of the request's asset, per chain (and protocol), in smallest units. */
function holdingsOf(holdings: readonly ChainHoldings[], asset: TokenAsset): { balances: ChainAmounts; positions: PositionAmounts } {
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

/** The speed a request's bridges go at (fast unless it asked for standard). */
export const speedOf = (request: Pick<PlanningRequest, 'speed'>): BridgeSpeed => request.speed ?? DEFAULT_BRIDGE_SPEED;

/** The net-return options of the planner input, when the request asked for them and the prices were read. */
function netReturnOptions(request: PlanningRequest, market: MarketSnapshot): NetReturnOptions | undefined {
  const wanted = request.action === 'lend' ? optimizationOf(request) : null;
  if (wanted === null || market.gasPrices === undefined) return undefined;
  return { horizonDays: wanted.horizonDays, assetUsd: market.assetUsd ?? 1, gasUsd: stepGasUsd(market.gasPrices, TYPICAL_GAS, market.accountModels) };
}

/** The planner input of `request` from a market snapshot, less what the wallet's executing intents hold (`reserved`). */
export function plannerInput(request: PlanningRequest, market: MarketSnapshot, chains: readonly string[], reserved: ChainAmounts = {}): PlannerInput {
  const held = holdingsOf(market.holdings, request.asset);
  const balances = lessReserved(held.balances, reserved);
  const positions = held.positions;
  const optimize = netReturnOptions(request, market);
  return {
    request: {
      action: request.action,
      amount: request.amount,
      asset: request.asset,
      chain: request.chain,
      fromChain: request.fromChain,
      toChain: request.toChain,
      toProtocol: request.toProtocol,
      sources: request.sources,
    },
    balances,
    positions,
    rates: market.rates.filter((r) => chains.includes(r.chain)),
    routeFees: routeFeesAt(market.routeFees, speedOf(request)),
    ...(optimize && { optimize }),
  };
}

/**
 * Reads what planning `request` needs: its wallet, the holdings on the chains
 * its policy allows, rates, route fees (transient errors retried), the
 * reservations of the wallet's executing intents (read around the holdings,
 * src/engine/holdingsAndReservations.ts), and, for a lend ranked by
 * net return, each chain's gas price and ETH/USD. A ServiceError (wallet
 * gone, Tron, node trouble beyond the retries) is the answer; anything else
 * is thrown.
 */
export async function readPlanning(
  request: PlanningRequest,
  fx: PlanningEffects,
): Promise<{ ok: true; snapshot: PlanningSnapshot } | { ok: false; error: ServiceError }> {
  const wallet = await fx.wallets.getById(request.walletId);
  if (wallet === null) return { ok: false, error: walletNotFound({ walletId: request.walletId }) };
  if (wallet.chainType === 'tron') return { ok: false, error: invalidChain('tron', { reason: 'no Tron network is supported yet' }) };
  const walletChains = wallet.chains.filter((c) => fx.chains.chains.includes(c));
  // Policy-aware planning: only the chains the request's policy allows are read and used (funds elsewhere are not touched).
  const rules = request.policy?.rules;
  const chains = walletChains.filter((c) => chainAllowed(rules, c));
  const withPrices = request.action === 'lend' && optimizationOf(request) !== null;

  const readMarket = async (kept?: readonly ChainHoldings[]): Promise<MarketSnapshot> => {
    const [holdings, rates, routeFees, quotes, assetUsd] = await Promise.all([
      kept ? [...kept] : fx.chains.holdings(wallet.evmAddress as Address, chains),
      fx.cache?.reads.rates() ?? fx.chains.rates(),
      // a standard transfer is free under CCTP v2: an attestation service that never answered yet does not stop it
      fx.chains.routeFees().catch((e: unknown) => {
        if (speedOf(request) === 'standard' && isTransient(e)) return UNREAD_FEES;
        throw e;
      }),
      withPrices ? Promise.all(chains.map((c) => fx.chains.gasQuote(c))) : Promise.resolve(undefined),
      withPrices && chains[0] !== undefined ? fx.chains.priceUsd(request.asset, chains[0]) : Promise.resolve(undefined),
    ]);
    const snapshot: MarketSnapshot = { holdings, rates, routeFees };
    if (routeFees === UNREAD_FEES) snapshot.routeFeesUnread = true;
    if (quotes) {
      snapshot.gasPrices = Object.fromEntries(quotes.map((q) => [q.chain, { gasPriceWei: q.gasPriceWei, ethUsd: q.ethUsd }]));
      snapshot.accountModels = Object.fromEntries(quotes.map((q) => [q.chain, fx.chains.accountModel?.(q.chain) ?? 'plain']));
    }
    if (assetUsd !== undefined) snapshot.assetUsd = assetUsd;
    return snapshot;
  };
  /** A chain read, transient errors retried; a service error from it (node trouble beyond the retries, an unconfigured chain) fails the planning. */
  const fromChains =
    <T>(read: () => Promise<T>): PlanningRead<T> =>
    async () => {
      try {
        return { ok: true, value: fx.retry ? await withRetry(read, { ...fx.retry, signal: fx.signal }) : await read() };
      } catch (e) {
        if (isServiceError(e) && e.code !== 'INTERNAL_ERROR') return { ok: false, error: e };
        throw e;
      }
    };
  // The intent being planned is in `planning`, never among these: all of them hold funds against it.
  const reservedNow = async (): Promise<ChainAmounts> =>
    reservedBalances(await fx.intents.listByWallet(request.walletId, { status: 'executing', limit: MAX_EXECUTING_READ }), request.asset);
  if (fx.cache) {
    const kept = await keptHoldings(request.walletId, chains, fx.cache, fx.intents, reservedNow);
    if (kept) {
      const market = await fromChains(() => readMarket(kept.holdings))();
      if (!market.ok) return market;
      return { ok: true, snapshot: { wallet, walletChains, chains, market: market.value, reserved: kept.reserved, rules, fromCache: true } };
    }
  }
  const read = await readHoldingsWithReservations(
    reservedNow,
    fromChains(() => readMarket()),
    fromChains(() => fx.chains.holdings(wallet.evmAddress as Address, chains)),
  );
  if (!read.ok) return read;
  const { market, reserved } = read;
  return { ok: true, snapshot: { wallet, walletChains, chains, market, reserved, rules } };
}

/**
 * The wallet's kept holdings on `chains`, with the reservations they are
 * planned against, when no intent of the wallet (but the one being planned)
 * has changed since their read began; otherwise undefined, and planning
 * reads the chains. Every move of the wallet's funds is followed by a commit
 * of the intent that made it, so an unchanged store means unchanged funds
 * (funds that arrived from outside only make the kept balance smaller than
 * the chain's, which the engine's read before failing for want of funds
 * catches). The reservations are read before the store is asked what changed: an
 * intent that finishes between the two reads is then seen to have changed.
 */
async function keptHoldings(
  walletId: string,
  chains: readonly ChainName[],
  cache: NonNullable<PlanningEffects['cache']>,
  intents: PlanningEffects['intents'],
  reservedNow: () => Promise<ChainAmounts>,
): Promise<{ holdings: ChainHoldings[]; reserved: ChainAmounts } | undefined> {
  const kept = cache.reads.holdings(walletId);
  if (kept === undefined) return undefined;
  const holdings = kept.holdings.filter((h) => chains.includes(h.chain));
  if (holdings.length !== chains.length) return undefined;
  const reserved = await reservedNow();
  const updatedSince = new Date(kept.readAt - CLOCK_SKEW_MS).toISOString();
  const changed = await intents.listByWallet(walletId, { updatedSince, limit: CHANGED_READ });
  return changed.some((i) => i.id !== cache.intentId) ? undefined : { holdings, reserved };
}

/** The pure planner on a snapshot: only the markets of protocols the policy allows. */
export function planOn(request: PlanningRequest, snapshot: PlanningSnapshot): PlanResult {
  const { market, chains, reserved, rules } = snapshot;
  const allowedRates = market.rates.filter((r) => protocolAllowed(rules, r.protocol));
  const planned = plan(plannerInput(request, { ...market, rates: allowedRates }, chains, reserved));
  if (!planned.ok) return planned;
  if (!planned.plan.steps.some((s) => s.type === 'bridge')) return planned;
  // Each burn asks for the request's speed; its maxFee is the fee planned at that speed's tier.
  const speed = speedOf(request);
  const minFinalityThreshold = FINALITY_OF_SPEED[speed];
  const steps = planned.plan.steps.map((s) => (s.type === 'bridge' ? { ...s, minFinalityThreshold, ...feeSourceOf(market, s.from, s.to) } : s));
  return { ...planned, plan: { ...planned.plan, steps, reasoning: `${planned.plan.reasoning} ${speedText(speed)}` } };
}

/** The table standard bridges are planned on while the attestation service has never answered (every route free). */
const UNREAD_FEES: RouteFeeTable = Object.freeze({}) as RouteFeeTable;

/** Where a bridge's planned fee comes from, when not from the attestation service's answer of now (BridgeStep.feeSource). */
function feeSourceOf(market: MarketSnapshot, from: ChainName, to: ChainName): Pick<BridgeStep, 'feeSource'> {
  if (market.routeFeesUnread) return { feeSource: 'standardFree' };
  return market.routeFees[from]?.[to]?.lastKnownAt !== undefined ? { feeSource: 'lastKnown' } : {};
}

/** What a plan's bridges wait at `speed`, in its reasoning. */
function speedText(speed: BridgeSpeed): string {
  const wait = EXPECTED_ATTESTATION_SECONDS[speed];
  return speed === 'fast'
    ? `Fast CCTP transfer: attested at soft finality, about ${wait} s on the public networks, for the fee above.`
    : `Standard CCTP transfer: attested after hard finality, about ${Math.round(wait / 60)} min on the public networks.`;
}

/** Whether the request would have a plan with no policy: holdings on every chain of the wallet, every market. */
async function policyFreePlan(request: PlanningRequest, fx: PlanningEffects, snapshot: PlanningSnapshot): Promise<boolean> {
  const { market, walletChains, reserved } = snapshot;
  const extra = walletChains.filter((c) => !market.holdings.some((h) => h.chain === c));
  const holdings = extra.length === 0 ? market.holdings : [...market.holdings, ...(await fx.chains.holdings(snapshot.wallet.evmAddress as Address, extra))];
  return plan(plannerInput(request, { ...market, holdings }, walletChains, reserved)).ok;
}

/** The rule a planning failure under a policy is reported by: the chains rule when it restricts chains, else the protocols rule. */
function planningRefusal(rules: PolicyRules, details: unknown): PolicyRefusal {
  if (rules.chains)
    return { rule: 'chains', limit: rules.chains, requested: { plan: 'needs funds or markets on chains the policy does not allow', ...(details as object) } };
  return { rule: 'protocols', limit: rules.protocols, requested: { plan: 'needs a market of a protocol the policy does not allow', ...(details as object) } };
}

/**
 * The error a failed planning is recorded with: INSUFFICIENT_FUNDS (or what
 * the planner said), unless the policy is why there is no plan (one exists
 * without it): then POLICY_VIOLATION, nothing signed.
 */
export async function planningError(request: PlanningRequest, fx: PlanningEffects, snapshot: PlanningSnapshot, error: ServiceError): Promise<ServiceError> {
  if (request.policy && error.code === 'INSUFFICIENT_FUNDS' && (await policyFreePlan(request, fx, snapshot))) {
    return policyViolation(request.policy, planningRefusal(request.policy.rules, error.details));
  }
  return error;
}

/** APY percent as the yields report shows it (2 decimals), so an intent's `results.apy` matches GET /yields for its market. */
export const reportedApy = (apy: number | null): number | undefined => (apy === null ? undefined : Math.round(apy * 100) / 100);

/**
 * Every market the wallet's funds reach, ranked by what lending the request's
 * amount there nets over `horizonDays` (the ranking a lend with optimize:
 * netReturn plans with), on a snapshot read with gas prices.
 */
export function rankNetReturns(request: PlanningRequest, snapshot: PlanningSnapshot, horizonDays: number): MarketReturn[] {
  const rates = snapshot.market.rates.filter((r) => protocolAllowed(snapshot.rules, r.protocol));
  const input = plannerInput(
    { ...request, action: 'lend', optimize: 'netReturn', horizonDays },
    { ...snapshot.market, rates },
    snapshot.chains,
    snapshot.reserved,
  );
  if (!input.optimize) return [];
  return rankByNetReturn(input, rankRates(input.rates, request.asset, input.balances, request.chain), input.optimize);
}
